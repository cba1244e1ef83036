% Tests for conflicts.pl.

test(a_superseded_unit_is_out) :-
    unit_from_list([n(1), id("style_v2"), supersedes([2])], A),
    unit_from_list([n(2), id("style_v1"), activation(always)], B),
    conflict_losers(units(A, B), [1-w, 2-w], L),
    L == [2-because(cf_superseded, [by("style_v2")])].

test(mutual_supersession_keeps_the_stronger) :-
    unit_from_list([n(1), id("a"), supersedes([2]), priority(1)], A),
    unit_from_list([n(2), id("b"), supersedes([1]), priority(5)], B),
    conflict_losers(units(A, B), [1-w, 2-w], L),
    L == [1-because(cf_superseded, [by("b")])].

test(the_stronger_of_two_conflicting_units_wins_whatever_their_order) :-
    unit_from_list([n(1), id("grep"), conflicts([2]), rank(3)], A),
    unit_from_list([n(2), id("search"), rank(1)], B),
    conflict_losers(units(A, B), [1-w, 2-w], L1),
    L1 == [1-because(cf_conflict, [with("search")])],
    conflict_losers(units(A, B), [2-w, 1-w], L2),
    L2 == L1.

test(a_conflict_listed_by_the_winner_also_counts) :-
    unit_from_list([n(1), id("a"), conflicts([2]), activation(always)], A),
    unit_from_list([n(2), id("b"), rank(1)], B),
    conflict_losers(units(A, B), [1-w, 2-w], L),
    L == [2-because(cf_conflict, [with("a")])].

test(equal_strength_is_broken_by_the_smaller_id) :-
    unit_from_list([n(1), id("zeta"), conflicts([2])], A),
    unit_from_list([n(2), id("alpha")], B),
    conflict_losers(units(A, B), [1-w, 2-w], L),
    L == [1-because(cf_conflict, [with("alpha")])].

test(host_selection_beats_priority) :-
    unit_from_list([n(1), id("a"), conflicts([2]), host(selected)], A),
    unit_from_list([n(2), id("b"), priority(100), mandatory(true)], B),
    conflict_losers(units(A, B), [1-w, 2-w], L),
    L == [2-because(cf_conflict, [with("a")])].

test(units_without_conflicts_all_stay) :-
    unit_from_list([n(1), id("a")], A),
    unit_from_list([n(2), id("b")], B),
    conflict_losers(units(A, B), [1-w, 2-w], L),
    L == [].
