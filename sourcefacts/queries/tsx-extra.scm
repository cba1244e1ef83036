; tsx-extra.scm — rlm's own additions for TSX only (after
; typescript-extra.scm): JSX elements whose name starts with a capital
; letter are components, so `<View />` is a call of View.

((jsx_opening_element
   name: (identifier) @name) @reference.call
 (#match? @name "^[A-Z]"))

((jsx_self_closing_element
   name: (identifier) @name) @reference.call
 (#match? @name "^[A-Z]"))
