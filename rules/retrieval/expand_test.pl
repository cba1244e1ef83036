% Tests for expand.pl: concept expansion and constraints, from the
% features Go computes for the query text.

test(a_description_gains_the_synonyms_of_its_words) :-
    query_features("check the auth token expiry", F),
    plan_features(F, [exact, structural, graph, lexical], plan(conceptual, [step(lexical, [text(T)|_], evidence)], [_, because(R, Ps)])),
    R == st_bm25_description,
    T == "check the auth token expiry authenticate authentication authorization login credential",
    memberchk(because(cx_synonym, [word("auth"), adds(["authenticate", "authentication", "authorization", "login", "credential"])]), Ps).

test(narrower_terms_expand_and_known_words_are_not_repeated) :-
    query_features("retry with backoff", F),
    expand_text(F, "retry with backoff", T, Whys),
    T == "retry with backoff attempt",
    Whys == [because(cx_narrower, [word("retry"), adds(["attempt"])])].

test(broader_terms_expand_only_when_a_harness_asks) :-
    query_features("backoff jitter delay", F),
    expand_text(F, "backoff jitter delay", T, Whys),
    T == "backoff jitter delay",
    Whys == [].

test(an_inflected_word_gains_its_base_forms) :-
    query_features("decodes the headers", F),
    expand_text(F, "decodes the headers", T, Whys),
    memberchk(because(cx_inflection, [word("headers"), adds(["header"])]), Whys),
    memberchk(because(cx_inflection, [word("decodes"), adds(Ds)]), Whys),
    memberchk("decode", Ds),
    append("decodes the headers ", _, T).

test(a_single_word_expands_too) :-
    query_features("auth", F),
    plan_features(F, [exact, structural, graph, lexical], plan(broad, Steps, _)),
    memberchk(step(lexical, [text(T)], evidence), Steps),
    append("auth ", _, T).

test(expansion_is_bounded) :-
    max_expansion(Max),
    features_from_list([words(["auth", "authentication", "login", "retry", "concurrency", "database"])], F),
    expand_text(F, "q", _, Whys),
    findall(A, ( member(because(_, Ps), Whys), memberchk(adds(As), Ps), member(A, As) ), All),
    length(All, N),
    N =< Max.

test(constraints_filter_every_evidence_step) :-
    query_features("where is Store defined in sourcefacts/", F),
    plan_features(F, [exact, structural, graph, lexical], plan(identifier, [step(exact, A, evidence)], [_, because(_, Ps)])),
    A == [name("Store"), path("sourcefacts/")],
    memberchk(because(cn_constraint, [path("sourcefacts/")]), Ps).

test(language_and_tests_constraints) :-
    query_features("retry logic python only", F),
    plan_features(F, [exact, structural, graph, lexical], plan(conceptual, [step(lexical, A, evidence)], _)),
    memberchk(language(python), A),
    query_features("non-test helpers for parsing", F2),
    plan_features(F2, [exact, structural, graph, lexical], plan(conceptual, [step(lexical, A2, evidence)], _)),
    memberchk(tests(exclude), A2),
    query_features("tests only retry attempts", F3),
    plan_features(F3, [exact, structural, graph, lexical], plan(conceptual, [step(lexical, A3, evidence)], _)),
    memberchk(tests(only), A3).

test(check_steps_are_not_filtered) :-
    query_features("what calls Serve in tests", F),
    plan_features(F, [exact, structural, graph, lexical], plan(relationship, Steps, _)),
    Steps = [step(exact, CheckArgs, check), step(graph, GraphArgs, evidence)],
    \+ memberchk(tests(_), CheckArgs),
    memberchk(tests(only), GraphArgs).

test(a_fallback_step_is_filtered_too) :-
    query_features("where is Nope defined in sourcefacts/", F),
    H = [result(step(exact, [name("Nope"), path("sourcefacts/")], evidence), 0, [])],
    next(identifier, F, H, [], [step(exact, A, evidence)|_], _),
    memberchk(path("sourcefacts/"), A).

test(recency_and_provenance_constraints_filter_the_steps) :-
    query_features("retry logic changed since last index", F),
    plan_features(F, [exact, structural, graph, lexical], plan(conceptual, [step(lexical, A, evidence)], [_, because(_, Ps)])),
    memberchk(changed(last), A),
    memberchk(because(cn_constraint, [changed(last)]), Ps),
    query_features("retry logic changed since generation 7 tree-sitter only", F2),
    plan_features(F2, [exact, structural, graph, lexical], plan(conceptual, [step(lexical, A2, evidence)], _)),
    memberchk(changed(7), A2),
    memberchk(parser('tree-sitter'), A2).

test(a_query_of_filters_alone_lists_what_passes_them) :-
    query_features("what changed since the last index", F),
    plan_features(F, [exact, structural, graph, lexical], plan(broad, Steps, [_, because(R, _)])),
    R == st_filter_listing,
    Steps == [step(structural, [changed(last)], evidence)],
    query_features("prolog facts", F2),
    plan_features(F2, [exact, structural, graph, lexical], plan(broad, [step(structural, A2, evidence)], _)),
    A2 == [parser('ichiban-prolog')].

test(an_acronym_the_words_spell_is_added_once_after_the_concepts) :-
    features_from_list([words(["stock", "keep", "unit"]),
                        acronyms([acronym(["stock", "keep", "unit"], "sku"),
                                  acronym(["keeping", "unit", "price"], "sku"),
                                  acronym(["unit", "price", "tag"], "unit")])], F),
    expand_text(F, "stock keep unit", T, Whys),
    T == "stock keep unit sku",
    Whys == [because(cx_acronym, [words(["stock", "keep", "unit"]), adds(["sku"])])].

test(acronyms_count_toward_the_expansion_bound) :-
    max_expansion(Max),
    As = [acronym(["x", "y", "z"], "xyz"), acronym(["a", "b", "c"], "t1"), acronym(["a", "b", "c"], "t2"),
          acronym(["a", "b", "c"], "t3"), acronym(["a", "b", "c"], "t4"), acronym(["a", "b", "c"], "t5"),
          acronym(["a", "b", "c"], "t6"), acronym(["a", "b", "c"], "t7"), acronym(["a", "b", "c"], "t8"),
          acronym(["a", "b", "c"], "t9"), acronym(["a", "b", "c"], "t10"), acronym(["a", "b", "c"], "t11"),
          acronym(["a", "b", "c"], "t12"), acronym(["a", "b", "c"], "t13")],
    length(As, NA), NA > Max,
    features_from_list([words(["retry"]), acronyms(As)], F),
    expand_text(F, "retry", _, Whys),
    findall(A, ( member(because(_, Ps), Whys), memberchk(adds(Ts), Ps), member(A, Ts) ), All),
    length(All, Max),
    memberchk("attempt", All),
    memberchk("xyz", All).
