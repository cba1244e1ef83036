% Tests for strategy.pl.

callers_features(F) :- features_from_list([tokens(3), content(0), idents([id("ServeHTTP", pascal)]), paths([]),
                  quoted([]), relation(callers), relation_object("ServeHTTP"),
                  cue(none), text("what calls ServeHTTP?")], F).

test(steps_are_in_cost_order) :-
    callers_features(F),
    plan_features(F, plan(relationship, Steps, _)),
    Steps = [step(exact, [name("ServeHTTP")], check),
             step(graph, [relation(callers), name("ServeHTTP"), match(resolved)], evidence)].

test(plan_names_class_rule_first) :-
    callers_features(F),
    plan_features(F, plan(_, _, [because(cls_relation, _)|Whys])),
    memberchk(because(st_check_target, _), Whys),
    memberchk(because(st_resolved_callers, _), Whys).

test(callees_follow_edges_by_name) :-
    features_from_list([tokens(4), content(0), idents([id("ServeHTTP", pascal)]), relation(callees),
                        relation_object("ServeHTTP")], F),
    plan_features(F, plan(relationship, Steps, Whys)),
    memberchk(step(graph, [relation(callees), name("ServeHTTP")], evidence), Steps),
    memberchk(because(st_graph_relation, _), Whys).

test(conceptual_with_focus_runs_exact_before_bm25) :-
    features_from_list([tokens(5), content(2), idents([id("Request", pascal)]), paths([]),
                   quoted([]), relation(none), relation_object(none), cue(none),
                   text("how does Request parse forms"), words(["parse", "forms"])], F1),
    plan_features(F1,
                  plan(conceptual, [step(S1, _, _), step(S2, _, _)], _)),
    S1 == exact,
    S2 == lexical.

test(identifier_plan_is_one_exact_step) :-
    features_from_list([tokens(1), content(0), idents([id("Server", pascal)]), paths([]),
                   quoted([]), relation(none), relation_object(none), cue(none),
                   text("Server")], F2),
    plan_features(F2, plan(identifier, Steps, _)),
    Steps == [step(exact, [name("Server")], evidence)].

test(fallback_case_insensitive_first) :-
    fallback(identifier, symbol_not_found("serve"), [], Steps, because(R, _)),
    R == fb_case_insensitive,
    Steps == [step(exact, [name("serve"), case(insensitive)], evidence)].

test(fallback_near_spelling_after_case_insensitive) :-
    H = [result(step(exact, [name("serve"), case(insensitive)], check), 0, [])],
    fallback(relationship, symbol_not_found("serve"), H, Steps, because(R, _)),
    R == fb_near_spelling,
    Steps == [step(exact, [name("serve"), spelling(near)], check)].

test(an_identifier_is_tried_as_bm25_text_after_near_spelling) :-
    H = [result(step(exact, [name("serve"), spelling(near)], evidence), 0, []),
         result(step(exact, [name("serve"), case(insensitive)], evidence), 0, [])],
    fallback(identifier, symbol_not_found("serve"), H, Steps, because(R, _)),
    R == fb_fuzzy_name,
    Steps == [step(lexical, [text("serve")], evidence)].

test(a_relationship_target_is_never_retargeted_by_bm25) :-
    H = [result(step(exact, [name("findHandlr"), spelling(near)], check), 0, []),
         result(step(exact, [name("findHandlr"), case(insensitive)], check), 0, [])],
    \+ fallback(relationship, symbol_not_found("findHandlr"), H, _, _).

test(no_fallback_left) :-
    H = [result(step(lexical, [text("zz")], evidence), 0, []),
         result(step(exact, [name("zz"), spelling(near)], evidence), 0, []),
         result(step(exact, [name("zz"), case(insensitive)], evidence), 0, [])],
    \+ fallback(identifier, symbol_not_found("zz"), H, _, _).

test(retarget_relation) :-
    features_from_list([relation(callers)], F),
    retarget(relationship, F, "ServeHTTP", Steps, because(R, _)),
    R == fb_retarget_relation,
    Steps == [step(graph, [relation(callers), name("ServeHTTP"), match(resolved)], evidence)].

test(retarget_without_a_relation_is_the_definition) :-
    features_from_list([relation(none)], F),
    retarget(relationship, F, "ServeHTTP", Steps, because(R, _)),
    R == fb_retarget_definition,
    Steps == [step(exact, [name("ServeHTTP")], evidence)].

test(every_strategy_has_a_cost) :-
    forall(member(S, [exact, structural, graph, lexical, vector, hybrid]), cost(S, _)).

test(qualified_name_falls_back_to_last_segment) :-
    fallback(identifier, symbol_not_found("http.ListenAndServe"), [], Steps, because(R, _)),
    R == fb_last_segment,
    Steps == [step(exact, [name("ListenAndServe")], evidence)].

test(last_segment_tried_then_case_insensitive) :-
    H = [result(step(exact, [name("ListenAndServe")], evidence), 0, [])],
    fallback(identifier, symbol_not_found("http.ListenAndServe"), H, _, because(R, _)),
    R == fb_case_insensitive.

test(hybrid_replaces_bm25_for_descriptions_when_available) :-
    features_from_list([tokens(4), content(4), text("parse multipart form boundaries")], F),
    plan_features(F, [exact, structural, graph, lexical, vector, hybrid], plan(conceptual, Steps, Whys)),
    Steps == [step(hybrid, [text("parse multipart form boundaries"), emphasis(doc), demote(test), demote(example), quoted("parse multipart form boundaries")], evidence)],
    memberchk(because(st_hybrid_description, _), Whys).

test(no_embedding_steps_without_embeddings) :-
    features_from_list([tokens(4), content(4), text("parse multipart form boundaries")], F),
    plan_features(F, [exact, structural, graph, lexical], plan(conceptual, [step(S, _, _)], _)),
    S == lexical.

test(broad_adds_vector_after_bm25) :-
    features_from_list([tokens(1), idents([id("cookie", plain)]), text("cookie")], F),
    plan_features(F, [exact, lexical, vector], plan(broad, Steps, _)),
    Steps = [step(exact, _, _), step(lexical, _, _), step(vector, _, _)].

% Cost order: the table, and a plan sorted by it whatever order the rules
% propose candidates in.

test(cost_order_is_lookups_walks_bm25_embeddings) :-
    findall(C-S, cost(S, C), Pairs),
    keysort(Pairs, Sorted),
    pairs_values(Sorted, Order),
    Order == [exact, structural, graph, lexical, vector, hybrid].

test(steps_are_planned_by_cost_not_by_proposal) :-
    features_from_list([tokens(5), content(2), idents([id("Request", pascal)]),
                        text("how does Request parse forms"), words(["parse", "forms"])], F),
    Avail = [exact, structural, graph, lexical, vector, hybrid],
    findall(S, candidate(conceptual, F, Avail, step(S, _, _), _), Proposed),
    Proposed == [hybrid, exact],
    plan_features(F, Avail, plan(conceptual, Steps, _)),
    Steps = [step(exact, _, _), step(hybrid, _, _)].
