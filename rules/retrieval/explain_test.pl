% Tests for explain.pl.

test(explanation_lists_contingencies) :-
    features_from_list([tokens(1), content(0), idents([id("Server", pascal)]), paths([]),
                      quoted([]), relation(none), relation_object(none), cue(none),
                      text("Server")], F1),
    explain_features(F1,
                     explanation(Class, Steps, _, Cs)),
    Class == identifier,
    Steps = [S],
    memberchk(if(S, symbol_not_found("Server"), _, because(fb_case_insensitive, _)), Cs).
