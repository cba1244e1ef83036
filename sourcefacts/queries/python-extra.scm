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

; class C(Base, mod.Other): the bases, `mod` the receiver of Other (a
; qualifier the file's imports resolve; Scopes follows a class's bases
; for the members it inherits).
(class_definition
  superclasses: (argument_list
    [
      (identifier) @name
      (attribute object: (_) @receiver attribute: (identifier) @name)
    ] @reference.class)
  (#set! reference.base "true"))

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

; Module-level names assigned together (`a, b = 1, 2`).
(module
  (expression_statement
    (assignment
      left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)]) @definition.constant))

; Names assigned in blocks at module level (`if __name__ == "__main__":`,
; `try: ... except ImportError: x = None`, `with`, `for`): the query
; matches every assignment, and the extractor drops those inside a
; function (local variables) and keeps the more specific capture of the
; others (a module-level constant, a class attribute).
(expression_statement
  (assignment left: (identifier) @name) @definition.variable)

; Bindings, for resolving calls (tsresolve.go). Imports: the name each
; binds (@binding.import) to a module (@binding.module) or one of its
; members (@binding.member); `import a.b` binds a.
(import_statement
  name: (dotted_name . (identifier) @binding.import @binding.module))

(import_statement
  name: (aliased_import
    name: (dotted_name) @binding.module
    alias: (identifier) @binding.import))

(import_from_statement
  module_name: (_) @binding.module
  name: (dotted_name) @binding.member @binding.import)

(import_from_statement
  module_name: (_) @binding.module
  name: (aliased_import
    name: (dotted_name) @binding.member
    alias: (identifier) @binding.import))

; Local names: the functions and lambdas they are local to, parameters
; (with their annotation, if any), and assigned, loop, with and except
; names. self and cls, the first parameter of a method, are its class.
[(function_definition) (lambda)] @binding.scope

(parameters (identifier) @binding.name)
(lambda_parameters (identifier) @binding.name)
(default_parameter name: (identifier) @binding.name)
(typed_parameter (identifier) @binding.name type: (type) @binding.type)
(typed_default_parameter name: (identifier) @binding.name type: (type) @binding.type)
(assignment left: (identifier) @binding.name)
(assignment left: (identifier) @binding.name type: (type) @binding.type)
(assignment left: (pattern_list (identifier) @binding.name))
(for_statement left: (identifier) @binding.name)
(for_statement left: (pattern_list (identifier) @binding.name))
(as_pattern alias: (as_pattern_target (identifier) @binding.name))

((class_definition
  name: (identifier) @binding.type
  body: (block
    (function_definition
      parameters: (parameters . (identifier) @binding.name)) @binding.scope))
 (#match? @binding.name "^(self|cls)$"))

((class_definition
  name: (identifier) @binding.type
  body: (block
    (decorated_definition
      definition: (function_definition
        parameters: (parameters . (identifier) @binding.name)) @binding.scope)))
 (#match? @binding.name "^(self|cls)$"))
