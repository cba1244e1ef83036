; c-extra.scm — rlm's own additions to tree-sitter-c's tags.scm.
;
; Only what tags.scm lacks: #include imports, macros, calls (tags.scm has
; no references), call receivers, whole function definitions and
; prototypes (tags.scm captures only the function declarator; these
; patterns capture the same @name with the enclosing definition, and the
; extractor keeps the widest capture of a name) and the comments from which
; doc comments are found.

(preproc_include
  path: (_) @import.path) @import

(preproc_def
  name: (identifier) @name) @definition.macro

(preproc_function_def
  name: (identifier) @name) @definition.macro

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
  ]) @definition.function

(call_expression
  function: (identifier) @name) @reference.call

(call_expression
  function: (field_expression
    argument: (_) @receiver
    field: (field_identifier) @name)) @reference.call

(comment) @comment
