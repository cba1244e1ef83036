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
