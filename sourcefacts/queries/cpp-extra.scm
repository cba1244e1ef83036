; cpp-extra.scm — rlm's own additions to tree-sitter-cpp's tags.scm.
;
; Only what tags.scm lacks: #include imports, macros, namespaces, calls
; (tags.scm has no references), call receivers, base classes, whole
; function definitions and declarations (tags.scm captures only the
; function declarator; these patterns capture the same @name with the
; enclosing definition, and the extractor keeps the widest capture of a
; name) and the comments from which doc comments are found.
;
; @local.scope is what tags.scm calls the class of an out-of-class method
; definition (`Square` in `double Square::area() {}`); the extractor makes
; it the method's receiver.

(preproc_include
  path: (_) @import.path) @import

(preproc_def
  name: (identifier) @name) @definition.macro

(preproc_function_def
  name: (identifier) @name) @definition.macro

(namespace_definition
  name: (namespace_identifier) @name) @definition.module

(function_definition
  declarator: [
    (function_declarator declarator: [(identifier) (field_identifier)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name))
  ]) @definition.function

(function_definition
  declarator: [
    (function_declarator
      declarator: (qualified_identifier scope: (namespace_identifier) @local.scope name: (identifier) @name))
    (pointer_declarator declarator: (function_declarator
      declarator: (qualified_identifier scope: (namespace_identifier) @local.scope name: (identifier) @name)))
    (reference_declarator (function_declarator
      declarator: (qualified_identifier scope: (namespace_identifier) @local.scope name: (identifier) @name)))
  ]) @definition.method

(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
  ]) @definition.function

(field_declaration
  declarator: [
    (function_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))
    (reference_declarator (function_declarator declarator: (field_identifier) @name))
  ]) @definition.function

(call_expression
  function: [
    (identifier) @name
    (template_function name: (identifier) @name)
  ]) @reference.call

(call_expression
  function: (qualified_identifier
    scope: (_) @receiver
    name: [
      (identifier) @name
      (template_function name: (identifier) @name)
    ])) @reference.call

(call_expression
  function: (field_expression
    argument: (_) @receiver
    field: [
      (field_identifier) @name
      (template_method name: (field_identifier) @name)
    ])) @reference.call

(base_class_clause
  [
    (type_identifier) @name
    (qualified_identifier name: (type_identifier) @name)
    (template_type name: (type_identifier) @name)
  ]) @reference.class

(comment) @comment
