% Tests for label.pl.

src(P, H, G, Obs, premise(source(P, H, G), Obs)).

test(unchanged_source_is_in) :-
    src("a.go", "h1", 1, current("h1", 1), P),
    label_nodes([node(0, answer, in, [P], [])], [label(0, L, because(R, _), A, _)]),
    L == in, R == tms_premises_hold, A == keep.

test(changed_hash_is_out_naming_the_file) :-
    src("a.go", "h1", 1, current("h2", 2), P),
    label_nodes([node(0, answer, in, [P], [])], [label(0, L, because(R, Ps), A, because(AR, _))]),
    L == out, R == tms_source_changed,
    memberchk(source("a.go"), Ps), memberchk(was("h1"), Ps), memberchk(now("h2"), Ps),
    A == withdraw, AR == tms_withdraw_on_out.

test(hash_decides_not_generation) :-
    src("a.go", "h1", 1, current("h1", 3), P),
    label_nodes([node(0, context, out, [P], [])], [label(0, L, _, A, because(AR, _))]),
    L == in, A == restore, AR == tms_restore_on_in.

test(gone_source_is_out) :-
    src("a.go", "h1", 1, absent, P),
    label_nodes([node(0, context, in, [P], [])], [label(0, out, because(R, _), A, _)]),
    R == tms_source_gone, A == rederive.

test(dependants_follow_transitively) :-
    src("a.go", "h1", 1, current("h2", 2), P),
    src("b.go", "h9", 1, current("h9", 1), Q),
    label_nodes([node(0, retrieval, in, [P], []),
                node(1, context, in, [Q], [ante(0, "r")]),
                node(2, context, in, [Q], [ante(1, "c1")])], Ls),
    Ls = [label(0, out, _, _, _),
          label(1, out, because(R1, [antecedent(A1)]), Act, _),
          label(2, out, because(R2, [antecedent(A2)]), _, _)],
    R1 == tms_antecedent_out, A1 == "r", Act == rederive,
    R2 == tms_antecedent_out, A2 == "c1".

test(held_antecedent_label_counts) :-
    src("b.go", "h9", 1, current("h9", 1), Q),
    label_nodes([node(0, context, in, [Q], [held(out, "r")])], [label(0, L, _, _, _)]),
    L == out,
    label_nodes([node(0, context, in, [Q], [held(in, "r")])], [label(0, L2, _, _, _)]),
    L2 == in.

test(rules_and_embedder_premises) :-
    label_nodes([node(0, answer, in, [premise(rules_version("v1"), current("v2"))], [])],
               [label(0, out, because(R1, _), _, _)]),
    R1 == tms_rules_changed,
    label_nodes([node(0, answer, in, [premise(embedder("m/8"), current("n/8"))], [])],
               [label(0, out, because(R2, _), _, _)]),
    R2 == tms_embedder_changed,
    label_nodes([node(0, answer, in, [premise(rule("st_exact_name"), unregistered)], [])],
               [label(0, out, because(R3, _), _, _)]),
    R3 == tms_rule_gone,
    label_nodes([node(0, answer, in, [premise(rule("st_exact_name"), unknown)], [])],
               [label(0, in, _, _, _)]).

test(a_change_elsewhere_that_mentions_the_terms_withdraws_an_answer) :-
    label_nodes([node(0, answer, in, [premise(elsewhere(["serve"]), changed(3, ["c.go"]))], [])],
               [label(0, out, because(R, Ps), withdraw, _)]),
    R == tms_new_match_elsewhere, memberchk(path("c.go"), Ps),
    label_nodes([node(0, answer, in, [premise(elsewhere(["serve"]), changed(3, []))], [])],
               [label(0, in, _, _, _)]).

test(embedding_answers_rest_on_every_file) :-
    label_nodes([node(0, answer, in, [premise(elsewhere(any), changed(1, []))], [])],
               [label(0, out, because(R, _), _, _)]),
    R == tms_changed_elsewhere,
    label_nodes([node(0, answer, in, [premise(elsewhere(any), changed(0, []))], [])],
               [label(0, in, _, _, _)]).

test(every_kind_has_an_action_on_out) :-
    forall(member(K, [answer, retrieval, context, resolved, plan]), tms_on_out(_, K, _)).

test(an_unknown_derivation_snapshot_withdraws) :-
    label_nodes([node(0, answer, in, [premise(elsewhere(["x"]), unknown)], [])],
               [label(0, out, because(R, _), _, _)]),
    R == tms_snapshot_unknown.
