; c-extra.scm — rlm's own additions to tree-sitter-c's tags.scm.
;
; Only what tags.scm lacks: #include imports, macros, calls (tags.scm has
; no references), call receivers, whole function definitions and
; prototypes (tags.scm captures only the function declarator, and only
; when its name is a bare identifier; these patterns capture the enclosing
; definition or declaration, and the extractor keeps the widest capture of
; a name) and the comments from which doc comments are found.

(preproc_include
  path: (_) @import.path) @import

(preproc_def
  name: (identifier) @name) @definition.macro

(preproc_function_def
  name: (identifier) @name) @definition.macro

; Function definitions and prototypes: the extractor finds the name in the
; @declarator (through pointer, parenthesized and attributed declarators);
; a declaration that declares no function is dropped. A prototype is kept
; as a declaration (definition.prototype), so that the definition, with
; its body, ranks first.
(function_definition
  declarator: (_) @declarator) @definition.function

(declaration
  declarator: (_) @declarator) @definition.prototype

; Variables at file scope, also inside #if blocks (a variable inside a
; function, in an #if block there, is dropped by the extractor): a
; declaration that declares no function. `extern` ones are declarations.
(translation_unit
  (declaration
    declarator: (_) @declarator) @definition.variable)

(preproc_if
  (declaration
    declarator: (_) @declarator) @definition.variable)

(preproc_ifdef
  (declaration
    declarator: (_) @declarator) @definition.variable)

(preproc_else
  (declaration
    declarator: (_) @declarator) @definition.variable)

(preproc_elif
  (declaration
    declarator: (_) @declarator) @definition.variable)

; Typedefs of any declarator shape (`typedef void (*cb)(int);`, `typedef
; int vec[3];`; tags.scm matches a bare name only).
(type_definition
  declarator: (_) @declarator) @definition.type

; Struct and union fields; enumerators.
(field_declaration
  declarator: (_) @declarator) @definition.field

(enumerator
  name: (identifier) @name) @definition.constant

; Unions wherever they are defined (tags.scm: only in a declaration).
(union_specifier
  name: (type_identifier) @name
  body: (_)) @definition.class

(call_expression
  function: (identifier) @name) @reference.call

(call_expression
  function: (field_expression
    argument: (_) @receiver
    field: (field_identifier) @name)) @reference.call

(comment) @comment
