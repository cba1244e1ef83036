; ruby-extra.scm — rlm's own additions to tree-sitter-ruby's tags.scm (and
; locals.scm, which the extractor uses to decide tags.scm's `#is-not? local`:
; a bare identifier assigned or bound earlier in its scope is a local
; variable, not a method call).
;
; Only what those lack: require/require_relative/load imports, call
; receivers and the comments from which doc comments are found.

((call
   !receiver
   method: (identifier) @import.kind
   arguments: (argument_list . (string (string_content) @import.path) .)) @import
 (#any-of? @import.kind "require" "require_relative" "load"))

; Receivers of method calls: `x` in `x.f()`.
(call
  receiver: (_) @receiver
  method: (identifier) @receiver.name)

(comment) @comment
