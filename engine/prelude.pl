/*
 * rlm engine prelude: the control constructs and list/atom helpers that the
 * rule files may use. Loaded before any rule file; a rule file may not
 * redefine anything defined here.
 *
 * The control constructs, type tests, comparison and list predicates in the
 * first half are taken from ichiban/prolog v1.2.2's bootstrap.pl
 * (MIT License, Copyright (c) 2021 Yutaka Ichibangase), without its stream,
 * I/O, consult and halt parts. The helpers in the second half are rlm's,
 * with the meanings SWI-Prolog's library(lists) and library(apply) give them.
 */

% Control constructs

true.

fail :- \+true.

! :- !.

P, Q :- call((P, Q)).

If -> Then; _ :- If, !, Then.
_ -> _; Else :- !, Else.

P; Q :- call((P; Q)).

If -> Then :- If, !, Then.

once(P) :- P, !.

false :- fail.

ignore(G) :- (call(G) -> true ; true).

% Term unification and type testing

X \= Y :- \+(X = Y).

atomic(X) :-
  nonvar(X),
  \+compound(X).

nonvar(X) :- \+var(X).

number(X) :- float(X).
number(X) :- integer(X).

callable(X) :- atom(X).
callable(X) :- compound(X).

is_list(X) :- var(X), !, fail.
is_list([]).
is_list([_|T]) :- is_list(T).

ground(X) :- term_variables(X, []).

% Term comparison

X @=< Y :- compare(=, X, Y).
X @=< Y :- compare(<, X, Y).

X == Y :- compare(=, X, Y).

X \== Y :- \+(X == Y).

X @< Y :- compare(<, X, Y).

X @> Y :- compare(>, X, Y).

X @>= Y :- compare(>, X, Y).
X @>= Y :- compare(=, X, Y).

% Lists

member(X, [X|_]).
member(X, [_|Xs]) :- member(X, Xs).

memberchk(X, L) :- member(X, L), !.

select(E, [E|Xs], Xs).
select(E, [X|Xs], [X|Ys]) :-
  select(E, Xs, Ys).

reverse(L, R) :- reverse_(L, [], R).
reverse_([], A, A).
reverse_([X|Xs], A, R) :- reverse_(Xs, [X|A], R).

last([X], X) :- !.
last([_|Xs], X) :- last(Xs, X).

sum_list(L, S) :- sum_list_(L, 0, S).
sum_list_([], S, S).
sum_list_([X|Xs], A, S) :- A1 is A + X, sum_list_(Xs, A1, S).

max_list([X|Xs], M) :- max_list_(Xs, X, M).
max_list_([], M, M).
max_list_([X|Xs], A, M) :- (X > A -> A1 = X ; A1 = A), max_list_(Xs, A1, M).

min_list([X|Xs], M) :- min_list_(Xs, X, M).
min_list_([], M, M).
min_list_([X|Xs], A, M) :- (X < A -> A1 = X ; A1 = A), min_list_(Xs, A1, M).

% msort/2: sort without removing duplicates (keysort/2 is stable).
msort(L, S) :- msort_keys_(L, K), keysort(K, SK), msort_vals_(SK, S).
msort_keys_([], []).
msort_keys_([X|Xs], [X-x|Ks]) :- msort_keys_(Xs, Ks).
msort_vals_([], []).
msort_vals_([X-_|Ks], [X|Xs]) :- msort_vals_(Ks, Xs).

% pairs
pairs_keys_values([], [], []).
pairs_keys_values([K-V|Ps], [K|Ks], [V|Vs]) :- pairs_keys_values(Ps, Ks, Vs).

pairs_values([], []).
pairs_values([_-V|Ps], [V|Vs]) :- pairs_values(Ps, Vs).

list_to_set(L, S) :- lts_(L, [], S).
lts_([], _, []).
lts_([X|Xs], Seen, R) :-
  (   memberchk(X, Seen)
  ->  R = R1
  ;   R = [X|R1]
  ),
  lts_(Xs, [X|Seen], R1).

exclude(_, [], []).
exclude(P, [X|Xs], R) :-
  (   call(P, X)
  ->  R = R1
  ;   R = [X|R1]
  ),
  exclude(P, Xs, R1).

include(_, [], []).
include(P, [X|Xs], R) :-
  (   call(P, X)
  ->  R = [X|R1]
  ;   R = R1
  ),
  include(P, Xs, R1).

% Higher order

maplist(_, []).
maplist(G, [E1|E1s]) :- call(G, E1), maplist(G, E1s).

maplist(_, [], []).
maplist(G, [E1|E1s], [E2|E2s]) :- call(G, E1, E2), maplist(G, E1s, E2s).

maplist(_, [], [], []).
maplist(G, [E1|E1s], [E2|E2s], [E3|E3s]) :-
  call(G, E1, E2, E3),
  maplist(G, E1s, E2s, E3s).

foldl(G, L, V0, V) :- foldl_(L, G, V0, V).
foldl_([], _, V, V).
foldl_([X|Xs], G, V0, V) :- call(G, X, V0, V1), foldl_(Xs, G, V1, V).

foldl(G, L1, L2, V0, V) :- foldl_(L1, L2, G, V0, V).
foldl_([], [], _, V, V).
foldl_([X|Xs], [Y|Ys], G, V0, V) :- call(G, X, Y, V0, V1), foldl_(Xs, Ys, G, V1, V).

forall(Cond, Action) :- \+ (Cond, \+ Action).

aggregate_all(count, G, C) :- !, findall(x, G, L), length(L, C).
aggregate_all(sum(E), G, S) :- !, findall(E, G, L), sum_list(L, S).
aggregate_all(max(E), G, M) :- !, findall(E, G, L), L \== [], max_list(L, M).
aggregate_all(bag(E), G, L) :- !, findall(E, G, L).
aggregate_all(set(E), G, S) :- !, findall(E, G, L), sort(L, S).
