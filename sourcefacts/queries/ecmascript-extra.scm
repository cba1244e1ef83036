; ecmascript-extra.scm — rlm's own additions shared by JavaScript,
; TypeScript and TSX (the TypeScript grammars keep JavaScript's node names
; for everything here), compiled after each grammar's tags queries and
; before javascript-extra.scm or typescript-extra.scm.

; Module-level constants and variables (as the Python tags query has
; module-level assignments). A declarator holding a function is the
; function tags.scm defines; the extractor keeps that.
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator name: (identifier) @name) @definition.constant))

(program
  (lexical_declaration
    kind: "let"
    (variable_declarator name: (identifier) @name) @definition.variable))

(program
  (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.variable))

; Destructured at module level: `const [a, b] = f()`, `const {x, y: z} = o`.
(program
  (lexical_declaration
    (variable_declarator
      name: [
        (array_pattern (identifier) @name)
        (object_pattern (shorthand_property_identifier_pattern) @name)
        (object_pattern (pair_pattern value: (identifier) @name))
      ]) @definition.variable))

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator name: (identifier) @name) @definition.constant)))

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "let"
      (variable_declarator name: (identifier) @name) @definition.variable)))

(program
  (export_statement
    declaration: (variable_declaration
      (variable_declarator name: (identifier) @name) @definition.variable)))
