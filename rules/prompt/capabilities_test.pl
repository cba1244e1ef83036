% Tests for capabilities.pl.

test(a_unit_needing_nothing_is_authorized) :-
    unit_from_list([], U),
    input_from_list([], In),
    \+ unauthorized(In, U, _).

test(every_needed_capability_must_be_granted) :-
    unit_from_list([capabilities(["git.read", "git.write"])], U),
    input_from_list([granted(["git.read"])], In),
    unauthorized(In, U, because(R, Ps)),
    R == cap_missing,
    Ps == [missing(["git.write"])].

test(all_granted_is_authorized) :-
    unit_from_list([capabilities(["git.read", "git.write"])], U),
    input_from_list([granted(["git.write", "fs.read", "git.read"])], In),
    \+ unauthorized(In, U, _).
