; go-extra.scm — rlm's own additions to tree-sitter-go's tags.scm.
;
; Only what tags.scm lacks or captures without a @definition/@reference role:
; the package name, imports, package-level constants and variables, type
; aliases, struct fields, interface method specs, the receivers of selector
; calls and the comments (from which the extractor finds doc comments for
; every definition). Capture names follow the tags convention
; (@definition.<kind> around the whole definition, @name on its name); the
; others (@package.name, @import, @import.path, @import.alias, @receiver,
; @receiver.name, @comment) are specific to this file.

; The package clause's name.
(package_clause (package_identifier) @package.name)

; Imports: the quoted path and the optional alias (a name, "." or "_").
(import_spec
  name: (_)? @import.alias
  path: (_) @import.path) @import

; Package-level constants, single or grouped.
(source_file
  (const_declaration
    (const_spec name: (identifier) @name) @definition.constant))

; Package-level variables, single or grouped (tags.scm's var pattern misses
; the grouped form, which the grammar wraps in var_spec_list).
(source_file
  (var_declaration
    (var_spec name: (identifier) @name) @definition.variable))

(source_file
  (var_declaration
    (var_spec_list
      (var_spec name: (identifier) @name) @definition.variable)))

; Type aliases: tags.scm only has type_spec.
(type_alias name: (type_identifier) @name) @definition.type

; Named struct fields (embedded fields stay type references only).
(field_declaration name: (field_identifier) @name) @definition.field

; An embedded field is named by its type: `sync.Mutex`, `*Reader`.
(field_declaration
  !name
  type: [
    (type_identifier) @name
    (qualified_type name: (type_identifier) @name)
    (pointer_type [(type_identifier) @name (qualified_type name: (type_identifier) @name)])
    (generic_type type: [(type_identifier) @name (qualified_type name: (type_identifier) @name)])
  ]) @definition.field

; Interface method specs.
(method_elem name: (field_identifier) @name) @definition.method

; Receivers of selector calls: `x` in `x.f()` (tags.scm captures only `f`,
; as @name of @reference.call; @receiver.name is that same node).
(call_expression
  function: (selector_expression
    operand: (_) @receiver
    field: (field_identifier) @receiver.name))

(call_expression
  function: (parenthesized_expression
    (selector_expression
      operand: (_) @receiver
      field: (field_identifier) @receiver.name)))

; Package qualifiers of qualified types: `io` in `io.Reader`.
(qualified_type
  package: (package_identifier) @receiver
  name: (type_identifier) @receiver.name)

; Every comment, in document order: doc comments are the runs of comments
; directly above a definition (tags.scm's #set-adjacent! rule).
(comment) @comment
