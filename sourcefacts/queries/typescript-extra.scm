; typescript-extra.scm — rlm's own additions to the tags queries used for
; TypeScript and TSX (tree-sitter-javascript's tags.scm followed by
; tree-sitter-typescript's, as the TypeScript grammar inherits the
; JavaScript one).
;
; Only what those lack: imports (ES modules, import = require(), require(),
; dynamic import()), re-exports, namespaces, type aliases, enums, heritage
; references, call receivers and the comments from which doc comments are
; found.

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

; namespace N {} (tags.scm has only `module N {}`)
(internal_module
  name: (identifier) @name) @definition.module

(type_alias_declaration
  name: (type_identifier) @name) @definition.type

(enum_declaration
  name: (identifier) @name) @definition.enum

; class A extends B implements C
(extends_clause
  value: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ]) @reference.class

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
