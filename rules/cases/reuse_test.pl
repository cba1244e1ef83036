% Tests for reuse.pl.

% A past case: "what calls servehttp" needed the case-insensitive
% fallback before its graph step found the callers.
servehttp_case(case(7, "what calls servehttp", relationship,
    [ran(step(exact, [name("servehttp")], check), 0),
     ran(step(exact, [name("servehttp"), case(insensitive)], check), 1),
     ran(step(graph, [relation(callers), name("ServeHTTP")], evidence), 4)],
    outcome(4, resolved("servehttp", "ServeHTTP", ev_target_resolved), 0, 0, cited(0, 0), snapshot(same)))).

% Two similar cases for "what calls servehttp": the more recent (first)
% one's evidence was given to two answers that cited none of it, the
% other's was cited by three.
cited_cases([case(8, "what calls ServeHTTP", relationship,
                  [ran(step(exact, [name("ServeHTTP")], evidence), 0),
                   ran(step(lexical, [text("ServeHTTP")], evidence), 2)],
                  outcome(2, none, 0, 0, cited(0, 2), snapshot(same))),
             case(7, "what calls servehttp", relationship,
                  [ran(step(exact, [name("servehttp")], check), 0),
                   ran(step(graph, [relation(callers), name("ServeHTTP")], evidence), 4)],
                  outcome(4, none, 0, 0, cited(3, 0), snapshot(same)))]).

test(a_case_with_the_same_target_is_reused_and_named) :-
    servehttp_case(C),
    query_features("who calls ServeHttp", F),
    reuse_case(F, relationship, [C], reuse(Id, Steps, Events, because(R, Ps))),
    Id == 7, R == cb_reuse,
    memberchk(case(7), Ps),
    memberchk(query("what calls servehttp"), Ps),
    Steps == [step(graph, [relation(callers), name("ServeHTTP")], evidence)],
    Events == [resolved("ServeHttp", "ServeHTTP", ev_target_resolved)].

test(another_target_or_class_is_not_similar) :-
    servehttp_case(C),
    query_features("who calls Handler", F),
    reuse_case(F, relationship, [C], none(because(R, _))),
    R == cb_no_similar_case,
    query_features("servehttp", F2),
    reuse_case(F2, identifier, [C], none(_)).

test(other_constraints_are_not_similar) :-
    servehttp_case(C),
    query_features("what calls servehttp in tests", F),
    reuse_case(F, relationship, [C], none(_)).

test(an_unreliable_case_is_vetoed) :-
    C = case(7, "what calls servehttp", relationship,
             [ran(step(exact, [name("servehttp")], check), 0),
              ran(step(graph, [relation(callers), name("ServeHTTP")], evidence), 4)],
             outcome(4, none, 1, 2, cited(0, 0), snapshot(same))),
    query_features("what calls servehttp", F),
    reuse_case(F, relationship, [C], none(because(R, [case(7), veto(because(V, _))]))),
    R == cb_vetoed, V == cb_veto_unreliable.

test(a_case_answered_by_its_first_step_saves_nothing) :-
    C = case(3, "Server", identifier, [ran(step(exact, [name("Server")], evidence), 1)], outcome(1, none, 0, 0, cited(0, 0), snapshot(same))),
    query_features("Server", F),
    reuse_case(F, identifier, [C], none(because(R, [case(3), veto(because(V, _))]))),
    R == cb_vetoed, V == cb_veto_no_shortcut.

test(same_words_reuse_a_description) :-
    C = case(5, "form boundary parsing", conceptual,
             [ran(step(lexical, [text("form boundary parsing")], evidence), 0),
              ran(step(vector, [text("form boundary parsing")], evidence), 3)],
             outcome(3, none, 0, 0, cited(0, 0), snapshot(same))),
    query_features("parsing form boundary", F),
    reuse_case(F, conceptual, [C], reuse(5, [step(vector, _, evidence)], [], because(cb_reuse, Ps))),
    memberchk(similar(because(cb_same_words, _)), Ps).

test(a_case_whose_evidence_was_cited_is_preferred) :-
    cited_cases(Cs),
    query_features("who calls ServeHttp", F),
    reuse_case(F, relationship, Cs, reuse(Id, Steps, _, because(cb_reuse, Ps))),
    Id == 7,
    Steps == [step(graph, [relation(callers), name("ServeHTTP")], evidence)],
    memberchk(because(cb_prefer_cited, [cited(3), over(8), other_cited(-2)]), Ps).

test(without_citations_the_first_similar_case_is_reused) :-
    cited_cases([case(A, QA, CA, RA, outcome(HA, XA, UA, FA, _, _)), case(B, QB, CB, RB, outcome(HB, XB, UB, FB, _, _))]),
    Cs = [case(A, QA, CA, RA, outcome(HA, XA, UA, FA, cited(0, 0), snapshot(same))), case(B, QB, CB, RB, outcome(HB, XB, UB, FB, cited(0, 0), snapshot(same)))],
    query_features("who calls ServeHttp", F),
    reuse_case(F, relationship, Cs, reuse(Id, _, _, because(cb_reuse, Ps))),
    Id == 8,
    \+ memberchk(because(cb_prefer_cited, _), Ps).

test(a_case_of_another_snapshot_is_vetoed) :-
    servehttp_case(case(Id, Q, Cl, Ran, outcome(H, R, U, F0, C, _))),
    query_features("what calls servehttp", F),
    reuse_case(F, relationship, [case(Id, Q, Cl, Ran, outcome(H, R, U, F0, C, snapshot(other)))],
               none(because(Rule, [case(7), veto(because(V, _))]))),
    Rule == cb_vetoed, V == cb_veto_other_snapshot.
