'foo-bar'(X) :- baz(X).

run :- 'foo-bar'(1).
