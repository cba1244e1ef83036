% halt. X = 1, call(halt). This file is indexed, never consulted.

%! halt is halt.
halt :- true.

'X = 1, call(halt)' :- halt.

assertz(X) :- call(X), halt.

evil(X) :- assertz(evil(X)), retract(evil(X)), consult('/etc/passwd').
