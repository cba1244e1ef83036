% Tests for interfaces.pl, run with the default rules beneath it.

asks_for_interfaces(F) :-
    features_from_list([tokens(4), content(3), words(["interfaces", "write", "output"]),
                        text("which interfaces write output?")], F).

test(interface_question_gets_its_own_class) :-
    asks_for_interfaces(F),
    classify(F, C, because(R, _)),
    C == interface_listing,
    R == cls_interface_listing.

test(interface_listing_plans_bm25_over_interfaces_with_the_other_words) :-
    asks_for_interfaces(F),
    plan_features(F, [exact, structural, graph, lexical], plan(interface_listing, Steps, [_, because(R, _)])),
    Steps == [step(lexical, [text("write output"), kind(interface)], evidence)],
    R == st_interfaces_bm25.

test(no_matching_interface_lists_them_all) :-
    asks_for_interfaces(F),
    next(interface_listing, F, [result(step(lexical, [text("write output"), kind(interface)], evidence), 0, [])],
         [], Next, outcome(_, [_, because(R, _)])),
    Next == [step(structural, [kind(interface)], evidence)],
    R == fb_all_interfaces.

test(other_questions_keep_their_class) :-
    features_from_list([tokens(3), idents([id("ServeHTTP", pascal)]), relation(callers),
                        relation_object("ServeHTTP"), text("what calls ServeHTTP?")], F),
    classify(F, C, _),
    C == relationship.
