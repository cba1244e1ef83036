% Tests for vectors.pl: a lexical embedder's vectors do not rank a
% description; learned (and unknown) ones do.

conceptual(F) :-
    features_from_list([tokens(3), content(3), text("parse multipart form"), words(["parse", "multipart", "form"])], F).

test(a_lexical_embedder_is_not_trusted_and_a_learned_one_is) :-
    \+ trusted_vectors([lexical, vector, hybrid, embedder(lexical)]),
    trusted_vectors([lexical, vector, hybrid, embedder(learned)]),
    trusted_vectors([lexical, vector, hybrid]).

test(with_a_lexical_embedder_a_description_is_answered_by_bm25_then_hybrid) :-
    conceptual(F),
    plan_features(F, [exact, structural, graph, lexical, vector, hybrid, embedder(lexical)], plan(conceptual, Steps, [_|Whys])),
    Steps = [step(lexical, [text(_)|_], evidence), step(hybrid, [text(_)|_], evidence)],
    Whys = [because(st_bm25_description, _), because(st_hybrid_after_bm25, _)].

test(with_a_learned_embedder_a_description_is_answered_by_hybrid_search) :-
    conceptual(F),
    plan_features(F, [exact, structural, graph, lexical, vector, hybrid, embedder(learned)], plan(conceptual, Steps, _)),
    Steps = [step(hybrid, [text(_)|_], evidence)].

test(hybrid_runs_after_bm25_only_when_bm25_found_nothing) :-
    conceptual(F),
    Pending = [step(hybrid, [text("parse multipart form")], evidence)],
    next(conceptual, F, [result(step(lexical, [text("parse multipart form")], evidence), 4, ["a"])], Pending, Next, _),
    Next == [],
    next(conceptual, F, [result(step(lexical, [text("parse multipart form")], evidence), 0, [])], Pending, Next2, _),
    Next2 == Pending.

test(a_focus_identifier_is_checked_not_taken_for_the_answer) :-
    features_from_list([tokens(5), content(4), idents([id("FeedParser", pascal)]), text("Like FeedParser, but accepts bytes"),
                        words(["like", "but", "accepts", "bytes"])], F),
    plan_features(F, [exact, structural, graph, lexical, vector, hybrid, embedder(lexical)], plan(conceptual, [First|_], _)),
    First = step(exact, [name(N)], Role),
    N == "FeedParser",
    Role == check.

test(a_vector_step_that_could_not_run_falls_back_to_bm25) :-
    conceptual(F),
    Avail = [exact, lexical, hybrid, embedder(learned), unavailable(hybrid)],
    H = [result(step(hybrid, [text("parse multipart form")], evidence), 0, [])],
    next_scored(conceptual, F, Avail, H, [], [scores(0, 0, unknown, 0)], Next, outcome(Events, Whys)),
    Next = [step(lexical, Args, evidence)],
    memberchk(text(_), Args),
    Events == [],
    Whys = [because(ev_vectors_unavailable, [strategy(hybrid)]), because(fb_bm25_without_vectors, _)],
    % Without unavailable(hybrid) the empty step is judged as before.
    next_scored(conceptual, F, [exact, lexical, hybrid, embedder(learned)], H, [], [scores(0, 0, unknown, 0)], [], outcome(Events2, _)),
    Events2 == [gap(no_semantic_hits)].

test(after_bm25_ran_a_vector_step_that_could_not_run_leaves_its_gap) :-
    conceptual(F),
    Avail = [exact, lexical, hybrid, embedder(lexical), unavailable(hybrid)],
    query_text_step(F, Lexical),
    H = [result(step(hybrid, [text("x")], evidence), 0, []), result(Lexical, 0, [])],
    next_scored(conceptual, F, Avail, H, [], [scores(0, 0, unknown, 0), scores(0, 0, unknown, 0)], Next, outcome(Events, _)),
    Next == [],
    Events == [gap(vectors_unavailable(hybrid))].

% The BM25 step a description of F is planned with.
query_text_step(F, Step) :-
    plan_features(F, [exact, structural, graph, lexical], plan(conceptual, [Step|_], _)).
