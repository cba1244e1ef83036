; java-extra.scm — rlm's own additions to tree-sitter-java's tags.scm.
;
; Only what tags.scm lacks: the package, imports, constructors, enums,
; records, annotation types, fields, interface constants, enum constants,
; call receivers and the comments from which doc comments are found.

(package_declaration
  [(identifier) (scoped_identifier)] @package.name)

; import a.b.C; import a.b.*; import static a.b.C.m; (the extractor adds
; ".*" when the declaration has an asterisk)
(import_declaration
  [(identifier) (scoped_identifier)] @import.path) @import

(constructor_declaration
  name: (identifier) @name) @definition.method

(enum_declaration
  name: (identifier) @name) @definition.enum

(record_declaration
  name: (identifier) @name) @definition.class

(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(field_declaration
  declarator: (variable_declarator name: (identifier) @name)) @definition.field

(constant_declaration
  declarator: (variable_declarator name: (identifier) @name)) @definition.constant

(enum_constant
  name: (identifier) @name) @definition.constant

; Receivers of method calls: `x` in `x.f()`.
(method_invocation
  object: (_) @receiver
  name: (identifier) @receiver.name)

(line_comment) @comment
(block_comment) @comment

; Bindings, for resolving calls (tsresolve.go): the regions names are
; local to (a class body holds its fields), declared names with their
; types, and `this` in a class's methods and constructors. Imports bind
; from the Import facts.
[
  (class_body) (method_declaration) (constructor_declaration) (lambda_expression) (block)
  (for_statement) (enhanced_for_statement) (catch_clause)
] @binding.scope

(formal_parameter type: (_) @binding.type name: (identifier) @binding.name)
(local_variable_declaration type: (_) @binding.type declarator: (variable_declarator name: (identifier) @binding.name))
(field_declaration type: (_) @binding.type declarator: (variable_declarator name: (identifier) @binding.name))
(enhanced_for_statement type: (_) @binding.type name: (identifier) @binding.name)
(catch_formal_parameter name: (identifier) @binding.name)
(lambda_expression parameters: (identifier) @binding.name)
(inferred_parameters (identifier) @binding.name)

; var x = new C(): x is a C.
(local_variable_declaration
  declarator: (variable_declarator
    name: (identifier) @binding.name
    value: (object_creation_expression type: (_) @binding.type)))

((class_declaration
  name: (identifier) @binding.type
  body: (class_body [(method_declaration) (constructor_declaration)] @binding.scope))
 (#set! binding.name "this"))

; class A extends B: the base (java-tags.scm names it too; this pattern
; marks it a base, whose members Scopes follows)
((superclass (type_identifier) @name) @reference.class
  (#set! reference.base "true"))
; class A extends Base<T>, class A extends a.Base, class A extends a.Base<T>
((superclass (generic_type (type_identifier) @name)) @reference.class
  (#set! reference.base "true"))
((superclass
  [
    (scoped_type_identifier (_) @receiver . (type_identifier) @name .)
    (generic_type (scoped_type_identifier (_) @receiver . (type_identifier) @name .))
  ]) @reference.class
  (#set! reference.base "true"))
