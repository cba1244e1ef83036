% Tests for whynot.pl.

description(F) :-
    features_from_list([tokens(4), content(4), text("parse multipart form boundaries"),
                        words(["parse", "multipart", "form", "boundaries"])], F).

test(a_planned_strategy_names_its_planning_rule) :-
    description(F),
    whynot_strategy(F, [exact, lexical], lexical, planned(because(R, Ps))),
    R == wn_planned,
    memberchk(planned_by(st_bm25_description), Ps).

test(excluded_because_the_backend_lacks_it) :-
    description(F),
    whynot_strategy(F, [exact, structural, graph, lexical], hybrid, excluded(because(R, _), Change)),
    R == wn_not_available,
    Change == available(hybrid).

test(excluded_because_superseded) :-
    description(F),
    whynot_strategy(F, [exact, structural, graph, lexical, vector, hybrid], lexical, excluded(because(R, Ps), Change)),
    R == wn_superseded,
    memberchk(superseded_by(hybrid), Ps),
    Change == not_available(hybrid).

test(excluded_because_the_class_never_plans_it) :-
    description(F),
    whynot_strategy(F, [exact, structural, graph, lexical], graph, excluded(because(R, Ps), Change)),
    R == wn_class_excludes,
    memberchk(class(conceptual), Ps),
    memberchk(class_rule(cls_descriptive), Ps),
    Change == class(relationship, cls_relation).

test(excluded_because_the_query_lacks_what_the_step_needs) :-
    description(F),
    whynot_strategy(F, [exact, structural, graph, lexical], exact, excluded(because(R, _), Change)),
    R == wn_condition_unmet,
    Change == strong_identifier.

test(class_plans_lists_every_default_candidate) :-
    all_strategies(All),
    forall(( member(Ps, [[tokens(1), idents([id("Server", pascal)]), text("Server")],
                         [tokens(3), relation(callers), relation_object("Serve"), idents([id("Serve", pascal)]), text("what calls Serve")],
                         [tokens(5), content(2), idents([id("Request", pascal)]), text("how does Request parse forms")],
                         [tokens(1), paths(["net/http"]), text("net/http")],
                         [tokens(3), content(2), paths(["net/http"]), text("cookies in net/http")],
                         [tokens(1), idents([id("cookie", plain)]), text("cookie")],
                         [tokens(4), constraints([changed(last)]), text("changed since last index")]]),
             features_from_list(Ps, F),
             classify(F, C, _),
             candidate(C, F, All, step(S, _, _), _) ),
           class_plans(C, S, _)).

test(a_symbol_in_the_answer_is_not_excluded) :-
    whynot_symbol("Serve", ["Serve"], [], [], 10, in_answer(because(R, _))),
    R == wn_in_answer.

test(a_symbol_with_no_definition_is_absent) :-
    whynot_symbol("Nope", [], [], [ran(step(exact, [name("Nope")], evidence), 0)], 10, excluded(because(R, _), Change)),
    R == wn_symbol_absent,
    Change == defined("Nope").

test(a_test_definition_filtered_out_names_the_filter) :-
    Ran = [ran(step(lexical, [text("serve"), tests(exclude)], evidence), 3)],
    whynot_symbol("TestServe", [], [def("a_test.go", "function", "go", test, 1, "tree-sitter")], Ran, 10, excluded(because(R, Ps), Change)),
    R == wn_filtered,
    memberchk(filter(tests(exclude)), Ps),
    Change == without(tests(exclude)).

test(a_path_filter_names_the_path) :-
    Ran = [ran(step(lexical, [text("serve"), path("net/")], evidence), 3)],
    whynot_symbol("Serve", [], [def("cmd/serve.go", "function", "go", source, 1, "tree-sitter")], Ran, 10, excluded(because(R, _), Change)),
    R == wn_filtered,
    Change == without(path("net/")).

test(a_name_step_for_another_name_never_sought_it) :-
    Ran = [ran(step(exact, [name("Server")], evidence), 1)],
    whynot_symbol("Serve", ["Server"], [def("s.go", "method", "go", source, 1, "tree-sitter")], Ran, 10, excluded(because(R, _), Change)),
    R == wn_not_sought,
    Change == query_names("Serve").

test(a_text_step_that_could_find_it_ranked_it_out) :-
    Ran = [ran(step(lexical, [text("serve requests")], evidence), 10)],
    whynot_symbol("Serve", ["A", "B"], [def("s.go", "method", "go", source, 1, "tree-sitter")], Ran, 10, excluded(because(R, _), Change)),
    R == wn_ranked_out,
    Change == limit_over(10).

test(a_step_that_found_fewer_than_the_limit_did_not_rank_it_out) :-
    Ran = [ran(step(exact, [name("_formatparam")], check), 1),
           ran(step(graph, [relation(callers), name("_formatparam"), match(resolved)], evidence), 3)],
    whynot_symbol("Parser", ["A", "B", "C"], [def("parser.py", "class", "python", source, 1, "tree-sitter")], Ran, 10,
                  excluded(because(R, Ps), Change)),
    R == wn_not_matched,
    memberchk(hits(3), Ps),
    Change == matches(step(graph, [relation(callers), name("_formatparam"), match(resolved)], evidence)).

test(the_target_of_a_relationship_was_only_checked) :-
    Ran = [ran(step(exact, [name("Fetch")], check), 1),
           ran(step(graph, [relation(callers), name("Fetch")], evidence), 1)],
    whynot_symbol("Fetch", ["Retry"], [def("c.go", "function", "go", source, 1, "tree-sitter")], Ran, 10, excluded(because(R, _), Change)),
    R == wn_only_checked,
    Change == asks_definition("Fetch").

test(a_definition_older_than_a_recency_filter_is_filtered_out) :-
    Ran = [ran(step(exact, [name("ConcB"), changed(3)], evidence), 0)],
    whynot_symbol("ConcB", [], [def("b.go", "function", "go", source, 2, "tree-sitter")], Ran, 10,
                  excluded(because(R, Ps), Change)),
    R == wn_filtered,
    memberchk(filter(changed(3)), Ps),
    Change == without(changed(3)).

test(a_definition_of_another_parser_is_filtered_out) :-
    Ran = [ran(step(lexical, [text("facts"), parser('ichiban-prolog')], evidence), 0)],
    whynot_symbol("Facts", [], [def("f.go", "function", "go", source, 1, "tree-sitter")], Ran, 10,
                  excluded(because(R, _), _)),
    R == wn_filtered.

test(an_example_filtered_out_names_the_filter) :-
    Ran = [ran(step(lexical, [text("serve"), examples(exclude)], evidence), 3)],
    whynot_symbol("ExampleServe", [], [def("example_test.go", "function", "go", example, 1, "tree-sitter")], Ran, 10,
                  excluded(because(R, _), Change)),
    R == wn_filtered,
    Change == without(examples(exclude)).

test(only_tests_filters_out_examples) :-
    Ran = [ran(step(lexical, [text("serve"), tests(only)], evidence), 3)],
    whynot_symbol("ExampleServe", [], [def("example_test.go", "function", "go", example, 1, "tree-sitter")], Ran, 10,
                  excluded(because(R, _), Change)),
    R == wn_filtered,
    Change == without(tests(only)).

test(a_demoted_definition_ranked_out_names_the_demotion) :-
    Ran = [ran(step(hybrid, [text("serve requests"), demote(test), demote(example)], evidence), 10)],
    whynot_symbol("serveHelper", ["A", "B"], [def("s_test.go", "function", "go", test, 1, "tree-sitter")], Ran, 10,
                  excluded(because(R, Ps), Change)),
    R == wn_demoted,
    memberchk(role(test), Ps),
    Change == without(demote(test)).

test(a_source_definition_ranked_out_is_not_blamed_on_demotion) :-
    Ran = [ran(step(hybrid, [text("serve requests"), demote(test)], evidence), 10)],
    whynot_symbol("Serve", ["A", "B"], [def("s.go", "function", "go", source, 1, "tree-sitter")], Ran, 10,
                  excluded(because(R, _), _)),
    R == wn_ranked_out.
