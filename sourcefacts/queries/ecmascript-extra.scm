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

; Bindings, for resolving calls (tsresolve.go). Imports: the name each
; binds (@binding.import) to a module (@binding.module) or one of its
; members (@binding.member).
(import_statement
  (import_clause (identifier) @binding.import)
  source: (string (string_fragment) @binding.module))

(import_statement
  (import_clause (namespace_import (identifier) @binding.import))
  source: (string (string_fragment) @binding.module))

(import_statement
  (import_clause (named_imports (import_specifier name: (_) @binding.member alias: (identifier) @binding.import)))
  source: (string (string_fragment) @binding.module))

(import_statement
  (import_clause (named_imports (import_specifier !alias name: (identifier) @binding.member @binding.import)))
  source: (string (string_fragment) @binding.module))

((variable_declarator
   name: (identifier) @binding.import
   value: (call_expression
     function: (identifier) @_require
     arguments: (arguments . (string (string_fragment) @binding.module) .)))
 (#eq? @_require "require"))

((variable_declarator
   name: (object_pattern (shorthand_property_identifier_pattern) @binding.member @binding.import)
   value: (call_expression
     function: (identifier) @_require
     arguments: (arguments . (string (string_fragment) @binding.module) .)))
 (#eq? @_require "require"))

; Local names: the functions and blocks they are local to, declared
; names (with the class a `new` gives them), arrow, catch and loop names;
; `this` in a class's methods is the class.
[
  (function_declaration) (function_expression) (arrow_function) (method_definition)
  (generator_function_declaration) (statement_block) (for_statement) (for_in_statement) (catch_clause)
] @binding.scope

(variable_declarator name: (identifier) @binding.name)
(variable_declarator name: (identifier) @binding.name value: (new_expression constructor: (_) @binding.type))
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @binding.name))
(arrow_function parameter: (identifier) @binding.name)
(catch_clause parameter: (identifier) @binding.name)
(for_in_statement left: (identifier) @binding.name)

((class_declaration
  name: (_) @binding.type
  body: (class_body (method_definition) @binding.scope))
 (#set! binding.name "this"))
