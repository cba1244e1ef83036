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

test(a_hybrid_step_names_bm25_as_its_fallback_without_vectors) :-
    features_from_list([tokens(3), content(3), text("parse multipart form"), words(["parse", "multipart", "form"])], F),
    explain_features(F, [exact, structural, graph, lexical, vector, hybrid, embedder(learned)],
                     explanation(conceptual, [S], _, Cs)),
    S = step(hybrid, _, _),
    memberchk(if(S, vectors_unavailable(hybrid), [step(lexical, _, evidence)], because(fb_bm25_without_vectors, _)), Cs).
