; javascript-extra.scm — rlm's own additions to tree-sitter-javascript's
; tags.scm, for JavaScript (.js .mjs .cjs .jsx). TypeScript has its own
; typescript-extra.scm because its nodes differ.
;
; Only what tags.scm lacks: imports (ES modules, require(), dynamic
; import()), re-exports, class fields holding functions, module-level
; constants and variables, superclass references, call receivers and the
; comments from which doc comments are found. An assignment to a member
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

; Module-level constants and variables (as the Python tags query has
; module-level assignments). A declarator holding a function is the
; function tags.scm defines; the extractor keeps that.
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator name: (identifier) @name) @definition.constant))

(program
  (lexical_declaration
    kind: "let"
    (variable_declarator name: (identifier) @name) @definition.variable))

(program
  (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.variable))

; Destructured at module level: `const [a, b] = f()`, `const {x, y: z} = o`.
(program
  (lexical_declaration
    (variable_declarator
      name: [
        (array_pattern (identifier) @name)
        (object_pattern (shorthand_property_identifier_pattern) @name)
        (object_pattern (pair_pattern value: (identifier) @name))
      ]) @definition.variable))

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator name: (identifier) @name) @definition.constant)))

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "let"
      (variable_declarator name: (identifier) @name) @definition.variable)))

(program
  (export_statement
    declaration: (variable_declaration
      (variable_declarator name: (identifier) @name) @definition.variable)))

; class A extends B
(class_heritage (identifier) @name) @reference.class

; Receivers of member calls: `x` in `x.f()`.
(call_expression
  function: (member_expression
    object: (_) @receiver
    property: (property_identifier) @receiver.name))

(comment) @comment
