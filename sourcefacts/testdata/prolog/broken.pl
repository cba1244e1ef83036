ok(1).
ok(2) :- fine.
bad(X :- .
after(3).
