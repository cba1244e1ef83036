; cpp-extra.scm — rlm's own additions to tree-sitter-cpp's tags.scm.
;
; Only what tags.scm lacks: #include imports, macros, namespaces, calls
; (tags.scm has no references), call receivers, base classes, whole
; function definitions and declarations (tags.scm captures only the
; function declarator, and only one level of qualified name; these
; patterns capture the enclosing definition or declaration, and the
; extractor keeps the widest capture of a name) and the comments from
; which doc comments are found.
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

; Function definitions, prototypes and in-class method declarations: the
; extractor finds the name in the @declarator (through pointer, reference,
; parenthesized and attributed declarators and qualified names of any
; depth: `int geo::Shape::area()`, `void Box<T>::put(T)`, `Conn::~Conn()`,
; `Conn::operator==`, `Conn::operator bool()`); a qualified name's scopes
; give the method's receiver and container. A declaration that declares
; no function is dropped; a prototype or in-class declaration is kept as a
; declaration (definition.prototype), so that the definition, with its
; body, ranks first.
(function_definition
  declarator: (_) @declarator) @definition.function

(declaration
  declarator: (_) @declarator) @definition.prototype

(field_declaration
  declarator: (_) @declarator) @definition.field

; Variables at file and namespace scope, also inside #if blocks (a
; variable inside a function, in an #if block there, is dropped by the
; extractor): a declaration that declares no function. `extern` ones are
; declarations.
(translation_unit
  (declaration
    declarator: (_) @declarator) @definition.variable)

(declaration_list
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

; Enumerators.
(enumerator
  name: (identifier) @name) @definition.constant

; Class and struct template specializations and qualified class names
; (`class Box<T*> {}`, `struct a::B {}`; tags.scm matches bare names
; only), unions wherever they are defined, and `using` type aliases.
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

(union_specifier
  name: (type_identifier) @name
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

(comment) @comment
