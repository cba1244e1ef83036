; c-extra.scm — rlm's own additions to tree-sitter-c's tags.scm, after
; cfamily-extra.scm (shared with C++).
;
; Only what those lack: calls (tags.scm has no references) and call
; receivers.

(call_expression
  function: (identifier) @name) @reference.call

(call_expression
  function: (field_expression
    argument: (_) @receiver
    field: (field_identifier) @name)) @reference.call
