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

; Bindings, for resolving calls (tsresolve.go): the regions names are
; local to (@binding.scope), and the names declared in them
; (@binding.name) with the type the declaration writes (@binding.type) or
; else the expression they are initialised with (@binding.init, read as
; a type when it shows one: a literal, a conversion, a call whose result
; type is declared). Names without either still shadow imports and
; package-level names.
[
  (function_declaration) (method_declaration) (func_literal) (method_elem) (function_type)
  (block) (if_statement) (for_statement) (expression_switch_statement) (type_switch_statement)
  (select_statement) (expression_case) (type_case) (default_case) (communication_case)
] @binding.scope

(parameter_declaration name: (identifier) @binding.name type: (_) @binding.type)
(variadic_parameter_declaration name: (identifier) @binding.name)
(var_spec name: (identifier) @binding.name type: (_) @binding.type)
(var_spec name: (identifier) @binding.name)
(const_spec name: (identifier) @binding.name)
(short_var_declaration left: (expression_list (identifier) @binding.name))
(range_clause left: (expression_list (identifier) @binding.name))
(receive_statement left: (expression_list (identifier) @binding.name))
(type_switch_statement alias: (expression_list (identifier) @binding.name))

; In each case of a type switch, `v := x.(type)` has that case's type.
(type_switch_statement
  alias: (expression_list . (identifier) @binding.name .)
  (type_case type: (_) @binding.type) @binding.scope)

; x := e, x, err := f(), var x = e: the first name is e's (first) value.
(short_var_declaration
  left: (expression_list . (identifier) @binding.name)
  right: (expression_list . (_) @binding.init))

(var_spec
  name: (identifier) @binding.name
  !type
  value: (expression_list . (_) @binding.init))

; case v := <-ch: v is an element of ch.
(receive_statement
  left: (expression_list . (identifier) @binding.name)
  right: (_) @binding.init)

; for k, v := range x: v is an element of x.
((range_clause
  left: (expression_list . (_) . (identifier) @binding.name)
  right: (_) @binding.init)
 (#set! binding.element "true"))

; a, b := f(): b is f's second result, c in a, b, c := f() its third.
((short_var_declaration
  left: (expression_list . (_) . (identifier) @binding.name)
  right: (expression_list . (_) @binding.init .))
 (#set! binding.result "1"))

((short_var_declaration
  left: (expression_list . (_) . (_) . (identifier) @binding.name)
  right: (expression_list . (_) @binding.init .))
 (#set! binding.result "2"))

; The types declarations write (Symbol.Type): of fields and package-level
; variables, the results of functions and methods, what an alias stands
; for, and the type of a variable's composite literal.
(function_declaration name: (identifier) @type.of result: (_) @type.is)
(method_declaration name: (field_identifier) @type.of result: (_) @type.is)
(method_elem name: (field_identifier) @type.of result: (_) @type.is)
(field_declaration name: (field_identifier) @type.of type: (_) @type.is)
; An embedded field (named by its type; the grammar keeps a `*` before
; it apart) writes that type.
(field_declaration !name type: (type_identifier) @type.of @type.is)
(field_declaration !name type: (qualified_type name: (type_identifier) @type.of) @type.is)
(field_declaration !name type: (generic_type type: (type_identifier) @type.of) @type.is)
(field_declaration !name type: (generic_type type: (qualified_type name: (type_identifier) @type.of)) @type.is)
(var_spec name: (identifier) @type.of type: (_) @type.is)
(var_spec
  name: (identifier) @type.of
  !type
  value: (expression_list . [
    (composite_literal type: (_) @type.is)
    (unary_expression operator: "&" operand: (composite_literal type: (_) @type.is))
  ]))
(type_alias name: (type_identifier) @type.of type: (_) @type.is)
(type_spec
  name: (type_identifier) @type.of
  type: [(slice_type) (array_type) (map_type) (channel_type)] @type.is)
