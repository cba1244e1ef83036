; cpp-extra.scm — rlm's own additions to tree-sitter-cpp's tags.scm, after
; cfamily-extra.scm (shared with C).
;
; Only what those lack: namespaces, namespace-scope variables, template
; specializations, `using` aliases, calls (tags.scm has no references),
; qualified and template calls, call receivers and base classes.
;
; @local.scope is what tags.scm calls the class of an out-of-class method
; definition (`Square` in `double Square::area() {}`); the extractor makes
; it the method's receiver (cfamily-extra.scm's @declarator patterns find
; qualified names of any depth themselves).

(namespace_definition
  name: (namespace_identifier) @name) @definition.module

; Variables at namespace scope (see cfamily-extra.scm).
(declaration_list
  (declaration
    declarator: (_) @declarator) @definition.variable)

; Class and struct template specializations and qualified class names
; (`class Box<T*> {}`, `struct a::B {}`; tags.scm matches bare names
; only), and `using` type aliases.
(class_specifier
  name: [
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: (type_identifier) @name)
    (qualified_identifier name: (template_type name: (type_identifier) @name))
  ]
  body: (_)) @definition.class

(struct_specifier
  name: [
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: (type_identifier) @name)
    (qualified_identifier name: (template_type name: (type_identifier) @name))
  ]
  body: (_)) @definition.class

(alias_declaration
  name: (type_identifier) @name) @definition.type

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
