% Tests for packing.pl.

test(every_packing_event_has_one_explanation) :-
    findall(E, pack_because(E, _), Es),
    msort(Es, Sorted),
    Sorted == [dependency_packed_out, over_budget, requirer_packed_out],
    forall(member(E, Es), (pack_because(E, because(R, Ps)), atom(R), Ps == [])).
