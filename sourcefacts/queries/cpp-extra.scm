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

; Bindings, for resolving calls (tsresolve.go): the regions names are
; local to (a class body holds its fields), and parameters, locals and
; fields with their declared types. #include binds no name.
[
  (function_definition) (compound_statement) (for_statement) (for_range_loop) (lambda_expression)
  (catch_clause) (field_declaration_list)
] @binding.scope

(parameter_declaration type: (_) @binding.type declarator: (identifier) @binding.name)
(parameter_declaration type: (_) @binding.type declarator: (reference_declarator (identifier) @binding.name))
(parameter_declaration type: (_) @binding.type declarator: (pointer_declarator declarator: (identifier) @binding.name))
(declaration type: (_) @binding.type declarator: (identifier) @binding.name)
(declaration type: (_) @binding.type declarator: (init_declarator declarator: (identifier) @binding.name))
(declaration type: (_) @binding.type declarator: (pointer_declarator declarator: (identifier) @binding.name))
(declaration type: (_) @binding.type declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @binding.name)))
(declaration type: (_) @binding.type declarator: (reference_declarator (identifier) @binding.name))
(declaration type: (_) @binding.type declarator: (init_declarator declarator: (reference_declarator (identifier) @binding.name)))
(field_declaration type: (_) @binding.type declarator: (field_identifier) @binding.name)
(field_declaration type: (_) @binding.type declarator: (pointer_declarator declarator: (field_identifier) @binding.name))
(for_range_loop type: (_) @binding.type declarator: (identifier) @binding.name)
(for_range_loop type: (_) @binding.type declarator: (reference_declarator (identifier) @binding.name))
