/*  capabilities.pl -- a unit is visible only if the host granted every
    capability it needs.

    Seeing a unit grants nothing (the executor re-checks every call), but a
    model should not be shown what it may not use: a unit that needs a
    capability the input does not grant is out, whatever selected it,
    mandatory units included.
*/

:- multifile(rule_id/2).

rule_id(cap_missing, "the unit needs a capability the host did not grant").

%! unauthorized(+Input, +Unit, -Because) is semidet.
%  Succeeds when Unit needs capabilities that Input does not grant;
%  Because names them.
%  (Most units need no capability: the first goal reads the field with
%  arg/3 itself, u_caps/2's body, and the reason is built last.)
unauthorized(In, U, B) :-
    arg(10, U, [C|Cs]),                 % Caps
    in_granted(In, G),
    missing_capabilities([C|Cs], G, [M|Ms]),
    B = because(cap_missing, [missing([M|Ms])]).

%! missing_capabilities(+Needed, +Granted, -Missing) is det.
missing_capabilities([], _, []).
missing_capabilities([C|Cs], G, Ms) :-
    memberchk(C, G), !,
    missing_capabilities(Cs, G, Ms).
missing_capabilities([C|Cs], G, [C|Ms]) :-
    missing_capabilities(Cs, G, Ms).
