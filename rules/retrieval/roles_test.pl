% Tests for roles.pl: descriptions demote tests and examples, nothing else
% does, and a query about a role keeps it.

all_strategies_available([exact, structural, graph, lexical, vector, hybrid]).

evidence_args(Q, Class, Args) :-
    query_features(Q, F),
    all_strategies_available(Avail),
    plan_features(F, Avail, plan(Class, Steps, _)),
    member(step(_, Args, evidence), Steps).

test(a_description_demotes_tests_and_examples_with_its_rules) :-
    query_features("shipping cost of a parcel weight", F),
    all_strategies_available(Avail),
    plan_features(F, Avail, plan(conceptual, [step(hybrid, Args, evidence)], [_, because(_, Ps)])),
    memberchk(demote(test), Args),
    memberchk(demote(example), Args),
    memberchk(quoted("shipping cost of a parcel weight"), Args),
    memberchk(because(rk_demote_tests, [class(conceptual)]), Ps),
    memberchk(because(rk_demote_examples, [class(conceptual)]), Ps),
    memberchk(because(rk_quoted_kept, [class(conceptual)]), Ps).

test(a_sentence_worded_as_a_description_demotes_too) :-
    query_features("returns the shipping cost of a heavy parcel from its weight in kilograms", F),
    all_strategies_available(Avail),
    plan_features(F, Avail, plan(description, Steps, _)),
    forall(member(step(_, Args, evidence), Steps),
           ( memberchk(demote(test), Args), memberchk(demote(example), Args), memberchk(quoted(_), Args) )).

test(a_demoting_step_spares_what_the_query_names) :-
    query_features("the ShippingCost helper for parcel weights", F),
    rank_roles(conceptual, F, step(exact, [name("ShippingCost")], evidence), because(r, []), step(_, A1, _), because(r, Ps)),
    memberchk(demote(test), A1),
    \+ memberchk(quoted(_), A1),
    memberchk(named("ShippingCost"), A1),
    memberchk(because(rk_named_kept, [names(["ShippingCost"])]), Ps),
    rank_roles(conceptual, F, step(hybrid, [text("t")], evidence), because(r, []), step(_, A3, _), because(r, Ps3)),
    memberchk(quoted(Q), A3),
    Q = [_|_],
    memberchk(because(rk_quoted_kept, [class(conceptual)]), Ps3),
    query_features("which tests and examples check the shipping cost", F2),
    rank_roles(conceptual, F2, step(lexical, [text("x")], evidence), because(r, []), step(_, A2, _), _),
    A2 == [text("x")].

test(a_description_demotes_on_bm25_too) :-
    query_features("shipping cost of a parcel weight", F),
    plan_features(F, [exact, structural, graph, lexical], plan(conceptual, [step(lexical, Args, evidence)], _)),
    memberchk(demote(test), Args),
    memberchk(demote(example), Args).

test(a_question_about_tests_keeps_tests_in_place) :-
    forall(member(Q, ["which tests check the shipping cost of a parcel",
                      "test for the shipping cost of a parcel weight",
                      "fixtures that build parcel weights",
                      "Issue 9305: the shipping cost of a parcel weight rounds up"]),
           ( evidence_args(Q, conceptual, Args),
             \+ memberchk(demote(test), Args),
             memberchk(demote(example), Args) )).

test(a_question_about_examples_keeps_examples_in_place) :-
    evidence_args("an example of the shipping cost of a parcel", conceptual, Args),
    \+ memberchk(demote(example), Args),
    memberchk(demote(test), Args).

test(a_role_filter_replaces_its_demotion) :-
    evidence_args("shipping cost of a parcel weight tests only", conceptual, A1),
    memberchk(tests(only), A1),
    \+ memberchk(demote(test), A1),
    memberchk(demote(example), A1),
    evidence_args("shipping cost of a parcel weight without examples", conceptual, A2),
    memberchk(examples(exclude), A2),
    \+ memberchk(demote(example), A2),
    memberchk(demote(test), A2).

test(only_descriptions_demote) :-
    forall(member(Q-Class, ["ShippingCost"-identifier,
                            "where is shipping_cost defined"-identifier,
                            "what calls ShippingCost"-relationship,
                            "shipping"-broad,
                            "cost in shipping/"-path]),
           forall(evidence_args(Q, Class, Args),
                  \+ memberchk(demote(_), Args))).

test(check_steps_are_not_demoted) :-
    query_features("what calls ShippingCost", F),
    rank_roles(conceptual, F, step(exact, [name("ShippingCost")], check), because(r, []), S, W),
    S == step(exact, [name("ShippingCost")], check),
    W == because(r, []).

test(a_retargeted_description_step_is_demoted_too) :-
    query_features("the ShippingCost helper for parcel weights", F),
    act(resolved("ShippingCost"), conceptual, F, [], [], Next, _, _),
    Next = [step(exact, Args, evidence)],
    memberchk(demote(test), Args),
    memberchk(demote(example), Args),
    act(resolved("ShippingCost"), identifier, F, [], [], [step(exact, IArgs, evidence)], _, _),
    \+ memberchk(demote(_), IArgs).

test(demotion_is_not_repeated) :-
    query_features("shipping cost of a parcel weight", F),
    rank_roles(conceptual, F, step(lexical, [text("x"), demote(test)], evidence), because(r, []), step(_, Args, _), _),
    findall(x, member(demote(test), Args), [_]).
