; rust-extra.scm — rlm's own additions to tree-sitter-rust's tags.scm.
;
; Only what tags.scm lacks: `use` and `extern crate` imports, constants and
; statics, struct fields, enum variants, trait method signatures, impl blocks as method owners, scoped and
; generic calls, call receivers, test attributes (#[cfg(test)], #[test]), and the comments (with attributes, which
; may sit between a doc comment and its item) from which doc comments are
; found.

; use a::b::{c, d as e}; — the extractor expands the use tree.
(use_declaration
  argument: (_) @import.path) @import

(extern_crate_declaration
  name: (identifier) @import.path
  alias: (identifier)? @import.alias) @import

(const_item
  name: (identifier) @name) @definition.constant

(static_item
  name: (identifier) @name) @definition.constant

(field_declaration
  name: (field_identifier) @name) @definition.field

(enum_variant
  name: (identifier) @name) @definition.constant

; fn f(&self); in a trait
(declaration_list
  (function_signature_item
    name: (identifier) @name) @definition.method)

; impl T { ... } / impl Trait for T { ... }: functions inside are methods
; of T.
(impl_item
  type: (_) @owner.name
  body: (_)) @owner

; Type::f(), module::f(), f::<T>()
(call_expression
  function: (scoped_identifier
    path: (_) @receiver
    name: (identifier) @name)) @reference.call

(call_expression
  function: (generic_function
    function: [
      (identifier) @name
      (scoped_identifier path: (_) @receiver name: (identifier) @name)
      (field_expression value: (_) @receiver field: (field_identifier) @name)
    ])) @reference.call

; Receivers of method calls: `x` in `x.f()`.
(call_expression
  function: (field_expression
    value: (_) @receiver
    field: (field_identifier) @receiver.name))

(line_comment) @comment
(block_comment) @comment
(attribute_item) @comment.skip

; #[cfg(test)] and #[test]: the item each applies to (the next sibling that
; is not an attribute or a comment) is test code, role test.
(attribute_item
  (attribute
    (identifier) @_cfg
    arguments: (token_tree (identifier) @_test))
  (#eq? @_cfg "cfg")
  (#eq? @_test "test")) @role.test

(attribute_item
  (attribute
    (identifier) @_test
    !arguments)
  (#eq? @_test "test")) @role.test

; Bindings, for resolving calls (tsresolve.go): the regions names are
; local to, parameters and let names with their types, and self and Self
; in an impl's functions. Imports bind from the Import facts.
[(function_item) (block) (closure_expression)] @binding.scope

(parameter pattern: (identifier) @binding.name type: (_) @binding.type)
(let_declaration pattern: (identifier) @binding.name)
(let_declaration pattern: (identifier) @binding.name type: (_) @binding.type)
(closure_parameters (identifier) @binding.name)

((impl_item
  type: (_) @binding.type
  body: (declaration_list (function_item) @binding.scope))
 (#set! binding.name "self"))

((impl_item
  type: (_) @binding.type
  body: (declaration_list (function_item) @binding.scope))
 (#set! binding.name "Self"))
