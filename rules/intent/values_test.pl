% Tests for values.pl: a catalog of two genres for one slot.

catalog(play, what).
in_catalog(play, what, ["jazz"]).
in_catalog(play, what, ["hard", "rock"]).

test(a_value_in_the_catalog_is_known) :-
    value_check(play, what, ["hard", "rock"], V),
    V = known([because(R, _)]),
    R == val_in_catalog.

test(a_value_outside_the_catalog_is_unknown) :-
    value_check(play, what, ["the", "kettle"], V),
    V = unknown([because(R, [_, _, words(Ws)])]),
    R == val_not_in_catalog, Ws == ["the", "kettle"].

test(a_slot_without_a_catalog_is_unchecked) :-
    value_check(play, who, ["anything"], V),
    V == unchecked,
    value_check(call, what, ["jazz"], V2),
    V2 == unchecked.

test(catalogs_are_listed_for_go) :-
    catalogs(Ps),
    Ps == [play-what].
