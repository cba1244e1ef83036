:- module(rules, [allowed/1]).

allowed(X) :- member(X, [a, b]).
