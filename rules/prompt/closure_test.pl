% Tests for closure.pl.

% table(-T): a requires b and (through b) c; d suggests e; f requires g;
% h suggests f.
table(units(A, B, C, D, E, F, G, H)) :-
    unit_from_list([n(1), id("a"), requires([2, 3])], A),
    unit_from_list([n(2), id("b"), requires([3])], B),
    unit_from_list([n(3), id("c")], C),
    unit_from_list([n(4), id("d"), suggests([5])], D),
    unit_from_list([n(5), id("e")], E),
    unit_from_list([n(6), id("f"), requires([7])], F),
    unit_from_list([n(7), id("g")], G),
    unit_from_list([n(8), id("h"), suggests([6])], H).

% close(+Wanted, +Refused, +Banned, -Active, -NotViable)
close(Wanted, Refused, Banned, Active, NV) :-
    table(T),
    input_from_list([], In),
    functor(T, _, Len),
    functor(SV, states, Len),
    set_slots(Refused, SV, refused(because(sel_host_denied, []))),
    set_wanted(Wanted, SV),
    functor(BanV, banned, Len),
    set_slots(Banned, BanV, yes),
    close_units(In, T, SV, BanV, Wanted, [], _, _, Active, NV).

% set_slots(+Ns, +V, +X): binds V's place of each of Ns to X (forall/2
% would undo the bindings).
set_slots([], _, _).
set_slots([N|Ns], V, X) :- arg(N, V, X), set_slots(Ns, V, X).
set_wanted([], _).
set_wanted([N-B|Ws], SV) :- arg(N, SV, wanted(B)), set_wanted(Ws, SV).

test(requires_are_pulled_in) :-
    close([1-because(sel_always, [])], [], [], Active, NV),
    NV == [],
    memberchk(in(1, because(sel_always, [])), Active),
    memberchk(in(2, because(cl_required, [by("a")]), pulled), Active),
    memberchk(in(3, because(cl_required, [by("a")]), pulled), Active),
    length(Active, 3).

test(suggests_are_pulled_in_unless_blocked) :-
    close([4-because(sel_always, [])], [], [], A1, _),
    memberchk(in(5, because(cl_suggested, [by("d")]), pulled), A1),
    close([4-because(sel_always, [])], [5], [], A2, NV),
    A2 == [in(4, because(sel_always, []))],
    NV == [].

test(a_suggested_unit_comes_with_what_it_requires_or_not_at_all) :-
    close([8-because(sel_always, [])], [], [], A1, _),
    memberchk(in(6, because(cl_suggested, [by("h")]), pulled), A1),
    memberchk(in(7, because(cl_required, [by("f")]), pulled), A1),
    close([8-because(sel_always, [])], [7], [], A2, _),
    A2 == [in(8, because(sel_always, []))].

test(a_blocked_requirement_rules_out_the_wanted_unit) :-
    close([1-because(sel_always, []), 6-because(sel_always, [])], [3], [], Active, NV),
    NV == [1-because(cl_requires_unavailable, [requires("c")])],
    \+ memberchk(in(1, _), Active),
    memberchk(in(6, _), Active),
    memberchk(in(7, because(cl_required, [by("f")]), pulled), Active).

test(a_banned_unit_is_neither_active_nor_reported_here) :-
    close([6-because(sel_always, [])], [], [6], Active, NV),
    Active == [],
    NV == [].

test(undecided_units_are_decided_when_reached) :-
    table(T),
    input_from_list([], In),
    functor(T, _, Len),
    functor(SV, states, Len),
    arg(1, SV, wanted(w)),
    functor(BanV, banned, Len),
    close_units(In, T, SV, BanV, [1-w], [1], Seen, _, _, _),
    msort(Seen, Decided),
    Decided == [1, 2, 3],
    arg(2, SV, St),
    St == idle(because(sel_not_relevant, [no_lexical_match])),
    arg(4, SV, Undecided),
    var(Undecided).
