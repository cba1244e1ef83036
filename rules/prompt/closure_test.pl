% Tests for closure.pl.

% table(-T): a requires b, b requires c; d suggests e; f requires g.
table(units(A, B, C, D, E, F, G)) :-
    unit_from_list([n(1), id("a"), requires([2])], A),
    unit_from_list([n(2), id("b"), requires([3])], B),
    unit_from_list([n(3), id("c")], C),
    unit_from_list([n(4), id("d"), suggests([5])], D),
    unit_from_list([n(5), id("e")], E),
    unit_from_list([n(6), id("f"), requires([7])], F),
    unit_from_list([n(7), id("g")], G).

requiring_units([1-[2], 2-[3], 6-[7]]).

test(requires_are_pulled_in_transitively) :-
    table(T), requiring_units(Req),
    close_units(T, Req, [], [1-because(sel_always, [])], Active, NV),
    NV == [],
    memberchk(1-because(sel_always, []), Active),
    memberchk(2-because(cl_required, [by("a")]), Active),
    memberchk(3-because(cl_required, [by("b")]), Active),
    length(Active, 3).

test(suggests_are_pulled_in_unless_blocked) :-
    table(T), requiring_units(Req),
    close_units(T, Req, [], [4-because(sel_always, [])], A1, _),
    memberchk(5-because(cl_suggested, [by("d")]), A1),
    close_units(T, Req, [5], [4-because(sel_always, [])], A2, NV),
    A2 == [4-because(sel_always, [])],
    NV == [].

test(a_blocked_requirement_rules_out_its_dependents_transitively) :-
    table(T), requiring_units(Req),
    close_units(T, Req, [3], [1-because(sel_always, []), 6-because(sel_always, [])], Active, NV),
    memberchk(2-because(cl_requires_unavailable, [requires("c")]), NV),
    memberchk(1-because(cl_requires_unavailable, [requires("b")]), NV),
    \+ memberchk(1-_, Active),
    memberchk(6-_, Active),
    memberchk(7-because(cl_required, [by("f")]), Active).

test(a_requirement_cycle_is_viable) :-
    unit_from_list([n(1), id("x"), requires([2])], X),
    unit_from_list([n(2), id("y"), requires([1])], Y),
    close_units(units(X, Y), [1-[2], 2-[1]], [], [1-because(sel_always, [])], Active, NV),
    NV == [],
    length(Active, 2).
