% Tests for validate.pl.

test(every_check_has_a_rule) :-
    forall(member(C, [passed, unknown_intent, bad_slot, bad_arguments, capability_denied,
                      side_effect_denied, bad_model_output, unknown_value]),
           ( validation(C, [x], because(R, P)), atom(R), P == [x] )).

test(unknown_checks_have_none) :-
    \+ validation(made_up, [], _).
