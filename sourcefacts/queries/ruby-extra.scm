; ruby-extra.scm — rlm's own additions to tree-sitter-ruby's tags.scm (and
; locals.scm, which the extractor uses to decide tags.scm's `#is-not? local`:
; a bare identifier assigned or bound earlier in its scope is a local
; variable, not a method call).
;
; Only what those lack: require/require_relative/load imports, constants,
; attribute accessors, setter calls, call receivers and the comments from
; which doc comments are found.

((call
   !receiver
   method: (identifier) @import.kind
   arguments: (argument_list . (string (string_content) @import.path) .)) @import
 (#any-of? @import.kind "require" "require_relative" "load"))

; Constants: `DEFAULT_SEP = /[&] */n` (Ruby allows them only in class,
; module and file bodies).
(assignment
  left: (constant) @name) @definition.constant

; attr_reader :name, :age (and attr_writer, attr_accessor): methods named
; by the symbols (the extractor drops the ":"), each defined where its
; symbol is; a writer or accessor also defines the setter name= (@setter).
((call
   !receiver
   method: (identifier) @_attr
   arguments: (argument_list (simple_symbol) @name @definition.method))
 (#any-of? @_attr "attr_reader" "attr_accessor"))

((call
   !receiver
   method: (identifier) @_attr
   arguments: (argument_list (simple_symbol) @name @setter @definition.method))
 (#any-of? @_attr "attr_writer" "attr_accessor"))

; alias_method :new_name, :old_name
((call
   !receiver
   method: (identifier) @_alias
   arguments: (argument_list . (simple_symbol) @name @definition.method))
 (#eq? @_alias "alias_method"))

; `x.name = v` and `x.name += v` call the setter name= (the extractor
; appends the "=").
(assignment
  left: (call method: (identifier) @name @setter)) @reference.call

(operator_assignment
  left: (call method: (identifier) @name @setter)) @reference.call

; Receivers of method calls: `x` in `x.f()`.
(call
  receiver: (_) @receiver
  method: (identifier) @receiver.name)

(comment) @comment
