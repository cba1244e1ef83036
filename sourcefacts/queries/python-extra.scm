; python-extra.scm — rlm's own additions to tree-sitter-python's tags.scm.
;
; Only what tags.scm lacks: imports, class attributes, module-level
; assignments inside if/try blocks and to several names, superclass
; references and call receivers. (Methods are functions whose innermost
; enclosing definition is a class: the extractor makes them methods of that
; class. Docstrings are read from the tree, not captured.)
;
; @import is the statement, @import.path one imported name (one match per
; name), @import.alias its `as` name, @import.module the `from` module.

; import a.b, c as d
(import_statement
  name: (dotted_name) @import.path) @import

(import_statement
  name: (aliased_import
    name: (dotted_name) @import.path
    alias: (identifier) @import.alias)) @import

; from m import a, b as c / from . import a / from m import *
(import_from_statement
  module_name: (_) @import.module
  name: (dotted_name) @import.path) @import

(import_from_statement
  module_name: (_) @import.module
  name: (aliased_import
    name: (dotted_name) @import.path
    alias: (identifier) @import.alias)) @import

(import_from_statement
  module_name: (_) @import.module
  (wildcard_import) @import.path) @import

; class C(Base, mod.Other)
(class_definition
  superclasses: (argument_list
    [
      (identifier) @name
      (attribute attribute: (identifier) @name)
    ] @reference.class))

; Receivers of attribute calls: `x` in `x.f()`.
(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @receiver.name))

; Class attributes: `timeout = 30` in a class body.
(class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @name) @definition.field)))

; Module-level names assigned together (`a, b = 1, 2`) and inside if, else
; and try blocks at module level (`try: import x except ImportError: x =
; None`).
(module
  (expression_statement
    (assignment
      left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)]) @definition.constant))

(module
  [
    (if_statement consequence: (block (expression_statement (assignment left: (identifier) @name) @definition.constant)))
    (if_statement alternative: (else_clause body: (block (expression_statement (assignment left: (identifier) @name) @definition.constant))))
    (if_statement alternative: (elif_clause consequence: (block (expression_statement (assignment left: (identifier) @name) @definition.constant))))
    (try_statement body: (block (expression_statement (assignment left: (identifier) @name) @definition.constant)))
    (try_statement (except_clause (block (expression_statement (assignment left: (identifier) @name) @definition.constant))))
  ])
