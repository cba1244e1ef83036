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
unauthorized(In, U, because(cap_missing, [missing(Ms)])) :-
    unit_prop(capabilities(Cs), U),
    Cs \== [],
    input_prop(granted(G), In),
    missing_capabilities(Cs, G, Ms),
    Ms \== [].

%! missing_capabilities(+Needed, +Granted, -Missing) is det.
missing_capabilities([], _, []).
missing_capabilities([C|Cs], G, Ms) :-
    (   memberchk(C, G)
    ->  Ms = Ms1
    ;   Ms = [C|Ms1]
    ),
    missing_capabilities(Cs, G, Ms1).
