/*  shapes.pl -- a small module for extraction tests.
*/
:- module(shapes, [area/2, describe//1]).
:- use_module(library(lists)).
:- use_module(library(apply), [maplist/3]).
:- ensure_loaded('util/helpers').

%! area(+Shape, -Area) is det.
%  Area of a shape.
area(square(S), A) :-
    A is S * S.
area(rect(W, H), A) :-
    (   W > 100
    ->  log(big)
    ;   \+ small(W),
        true
    ),
    findall(X, member(X, [W, H]), Xs),
    forall(member(Y, Xs), check(Y)),
    lists:append(Xs, [], _),
    maplist(double, Xs, _),
    catch(risky(W), _, recover),
    A is W * H.

/** describe(+Shape)// is det.
 *  Words for a shape. */
describe(S) --> [shape], name(S), { atom(S) }.

name(S) --> [S].

'quoted name'(0'., 'it''s', "a.b") :- halt_not_called.
