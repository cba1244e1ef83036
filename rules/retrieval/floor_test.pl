% Tests for floor.pl.

nonsense(F) :- features_from_list([tokens(1), content(0), idents([id("frobnicate", plain)])], F).

weak_vector_history(H) :-
    H = [result(step(vector, [text("frobnicate")], evidence), 10, ["a"]),
         result(step(lexical, [text("frobnicate")], evidence), 0, [])].

test(weak_embedding_hits_alone_are_discarded) :-
    nonsense(F),
    H = [result(step(vector, [text("frobnicate")], evidence), 10, ["a"]),
         result(step(lexical, [text("frobnicate")], evidence), 0, []),
         result(step(exact, [name("frobnicate"), case(insensitive)], evidence), 0, [])],
    next_scored(broad, F, H, [], [scores(10, 0.26, cosine_similarity, 0.01)|_], Next, outcome(Events, [because(R, _)|Whys])),
    R == ev_under_floor,
    Next == [],
    memberchk(discard(ev_under_floor), Events),
    memberchk(gap(no_semantic_hits), Events),
    memberchk(because(ev_no_semantic_hits, _), Whys).

test(embedding_hits_with_bm25_support_are_kept) :-
    nonsense(F),
    H = [result(step(vector, [text("x")], evidence), 10, ["a"]),
         result(step(lexical, [text("x")], evidence), 3, ["a"])],
    next_scored(broad, F, H, [], [scores(10, 0.26, cosine_similarity, 0.01)|_], _, outcome(Events, [because(R, _)|_])),
    R == ev_semantic_hits,
    \+ memberchk(discard(_), Events).

test(strong_embedding_hits_are_kept) :-
    nonsense(F),
    H = [result(step(vector, [text("x")], evidence), 10, ["a"])],
    next_scored(broad, F, H, [], [scores(10, 0.8, cosine_similarity, 0.1)], _, outcome(Events, [because(R, _)|_])),
    R == ev_semantic_hits,
    \+ memberchk(discard(_), Events).

test(other_score_kinds_have_no_floor) :-
    nonsense(F),
    H = [result(step(lexical, [text("x")], evidence), 2, ["a"])],
    next_scored(broad, F, H, [], [scores(2, 0.01, bm25, 0)], _, outcome(Events, _)),
    \+ memberchk(discard(_), Events).

% The embedder is data (the backend's capabilities, third argument of
% next_scored/8): the calibrated floor is the lexical embedder's.

test(a_lexical_embedders_weak_hits_are_discarded) :-
    nonsense(F), weak_vector_history(H),
    next_scored(broad, F, [vector, embedder(lexical)], H, [], [scores(10, 0.30, cosine_similarity, 0.01)|_], _,
                outcome(Events, [because(R, Ps)|_])),
    R == ev_under_floor,
    memberchk(embedder(lexical), Ps),
    memberchk(discard(ev_under_floor), Events).

test(a_learned_embedders_hits_are_not_judged_on_the_lexical_scale) :-
    nonsense(F), weak_vector_history(H),
    next_scored(broad, F, [vector, embedder(learned)], H, [], [scores(10, 0.30, cosine_similarity, 0.01)|_], _,
                outcome(Events, [because(R, _)|_])),
    R == ev_semantic_hits,
    \+ memberchk(discard(_), Events).
