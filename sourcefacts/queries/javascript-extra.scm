; javascript-extra.scm — rlm's own additions to tree-sitter-javascript's
; tags.scm, for JavaScript (.js .mjs .cjs .jsx). TypeScript has its own
; typescript-extra.scm because its nodes differ.
;
; Only what tags.scm lacks: imports (ES modules, require(), dynamic
; import()), re-exports, class fields holding functions, superclass
; references, call receivers and the comments from which doc comments are
; found (module-level constants and variables: ecmascript-extra.scm). An assignment to a member
; (`res.send = function send() {}`, `Foo.prototype.bar = ...`) is one
; definition named by its receiver: the extractor drops the function
; expression's own name and takes the receiver from the member.

; import x from 'm' / import * as ns from 'm' / import {a} from 'm' / import 'm'
(import_statement
  source: (string (string_fragment) @import.path)) @import

(import_statement
  (import_clause (identifier) @import.alias)
  source: (string (string_fragment) @import.path)) @import

(import_statement
  (import_clause (namespace_import (identifier) @import.alias))
  source: (string (string_fragment) @import.path)) @import

; export ... from 'm'
(export_statement
  source: (string (string_fragment) @import.path)) @import

; require('m'), const x = require('m')
((call_expression
   function: (identifier) @_require
   arguments: (arguments . (string (string_fragment) @import.path) .)) @import
 (#eq? @_require "require"))

((variable_declarator
   name: (identifier) @import.alias
   value: (call_expression
     function: (identifier) @_require
     arguments: (arguments . (string (string_fragment) @import.path) .))) @import
 (#eq? @_require "require"))

; import('m')
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import.path))) @import

; Class fields holding functions are methods: `onIncrement = () => {}`.
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

; class A extends B, class A extends mod.B: the base (a base's members are
; the class's; Scopes follows them)
((class_heritage (identifier) @name) @reference.class
  (#set! reference.base "true"))
((class_heritage
  (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.class
  (#set! reference.base "true"))

; Receivers of member calls: `x` in `x.f()`.
(call_expression
  function: (member_expression
    object: (_) @receiver
    property: (property_identifier) @receiver.name))

(comment) @comment

; Parameters, for resolving calls (tsresolve.go; the other bindings:
; ecmascript-extra.scm).
(formal_parameters (identifier) @binding.name)
(formal_parameters (assignment_pattern left: (identifier) @binding.name))
