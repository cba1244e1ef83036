; typescript-extra.scm — rlm's own additions to the tags queries used for
; TypeScript and TSX (tree-sitter-javascript's tags.scm followed by
; tree-sitter-typescript's, as the TypeScript grammar inherits the
; JavaScript one).
;
; Only what those lack: imports (ES modules, import = require(), require(),
; dynamic import()), re-exports, class fields holding functions, declared
; (`declare var`) module-level variables (the others: ecmascript-extra.scm),
; namespaces, type aliases, enums and their members,
; heritage references, call receivers and the comments from which doc
; comments are found. Member assignments are one definition named by their
; receiver, as in JavaScript (see javascript-extra.scm).

(import_statement
  source: (string (string_fragment) @import.path)) @import

(import_statement
  (import_clause (identifier) @import.alias)
  source: (string (string_fragment) @import.path)) @import

(import_statement
  (import_clause (namespace_import (identifier) @import.alias))
  source: (string (string_fragment) @import.path)) @import

; import x = require('m')
(import_statement
  (import_require_clause
    (identifier) @import.alias
    source: (string (string_fragment) @import.path))) @import

(export_statement
  source: (string (string_fragment) @import.path)) @import

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

(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import.path))) @import

; Class fields holding functions are methods: `private onToggle = () => {}`.
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

(program
  (ambient_declaration
    (variable_declaration
      (variable_declarator name: (identifier) @name) @definition.variable)))

(program
  (ambient_declaration
    (lexical_declaration
      (variable_declarator name: (identifier) @name) @definition.constant)))

; Enum members.
(enum_body
  (property_identifier) @name @definition.constant)

(enum_assignment
  name: (property_identifier) @name) @definition.constant

; namespace N {} (tags.scm has only `module N {}`)
(internal_module
  name: (identifier) @name) @definition.module

(type_alias_declaration
  name: (type_identifier) @name) @definition.type

(enum_declaration
  name: (identifier) @name) @definition.enum

; class A extends B implements C: B the base (Scopes follows its members)
((extends_clause
  value: [
    (identifier) @name
    (member_expression object: (_) @receiver property: (property_identifier) @name)
  ]) @reference.class
  (#set! reference.base "true"))

(implements_clause
  [
    (type_identifier) @name
    (generic_type name: (type_identifier) @name)
  ]) @reference.implementation

; interface I extends J
(extends_type_clause
  type: [
    (type_identifier) @name
    (generic_type name: (type_identifier) @name)
  ]) @reference.implementation

(call_expression
  function: (member_expression
    object: (_) @receiver
    property: (property_identifier) @receiver.name))

(comment) @comment

; Parameters and declared names with their annotated types, for resolving
; calls (tsresolve.go; the other bindings: ecmascript-extra.scm).
(required_parameter pattern: (identifier) @binding.name)
(required_parameter pattern: (identifier) @binding.name type: (type_annotation) @binding.type)
(optional_parameter pattern: (identifier) @binding.name)
(optional_parameter pattern: (identifier) @binding.name type: (type_annotation) @binding.type)
(variable_declarator name: (identifier) @binding.name type: (type_annotation) @binding.type)
