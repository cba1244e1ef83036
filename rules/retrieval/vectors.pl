/*  vectors.pl -- when is vector evidence trusted?

    The backend's capabilities (the Available list of plan_features/3 and
    next_scored/8) say what its embedder is: embedder(lexical) for a
    hashing embedder whose vectors are made of the text's own words and
    character n-grams (the offline local one, providers.LocalEmbedder),
    embedder(learned) for a trained model (an embedding endpoint); without
    either, the embedder is unknown.

    A lexical embedder's similarity is word overlap, the evidence BM25
    already weighs better: fusing it into BM25 by reciprocal rank reorders
    BM25's ranking with a cruder copy of itself (rlm eval, description
    task: docs/BENCHMARKS.md). So its vectors are not trusted to rank a
    description: a description is answered by BM25, and by hybrid search
    only when BM25 finds nothing. Learned (and unknown) embedders are
    trusted: hybrid search answers a description, as before this was data.
    The relevance floor (floor.pl) judges each embedder's scores on its
    own scale.

    An embedder can fail while a search runs (an endpoint that is down,
    or a search index built without vectors because it was): Go then
    answers the vector or hybrid step with no hits, notes the failure,
    and says so to the rules as data, unavailable(Strategy) in the
    Available list of next_scored/8 from that step on. That step found
    nothing because it could not look, not because nothing matches: its
    verdict is gap(vectors_unavailable(S)) (ev_vectors_unavailable), and
    the fallback (fb_bm25_without_vectors, a clause of strategy.pl's
    fallback/6) is BM25 over the query's text, unless the search already
    ran that BM25 step (then the gap stays, and the answer is BM25's).
*/

:- multifile(rule_id/2).
:- multifile(extra_strategy/5).

rule_id(st_hybrid_after_bm25, "a description with a lexical embedder: hybrid search only after BM25, which runs first and is enough when it finds hits").
rule_id(ev_vectors_unavailable, "the embedder failed: the vector or hybrid step could not run, which is no evidence that nothing matches").
rule_id(fb_bm25_without_vectors, "the embedder failed: BM25 over the query's text answers instead").

%! trusted_vectors(+Available) is semidet.
%  The backend's vectors may rank a description: its embedder is not a
%  lexical one.
trusted_vectors(Avail) :-
    \+ memberchk(embedder(lexical), Avail).

extra_strategy(conceptual, F, Avail, step(hybrid, [text(T2), emphasis(doc)], evidence),
               because(st_hybrid_after_bm25, [class(conceptual), embedder(lexical)|Xs])) :-
    memberchk(hybrid, Avail),
    \+ trusted_vectors(Avail),
    feature(text(T), F),
    expand_text(F, T, T2, Xs).

%! next_unavailable(+Class, +Features, +Available, +History, +Pending, -Next, -Outcome) is semidet.
%  The newest step of History is a vector or hybrid step that could not
%  run (Available holds unavailable(S) for its strategy S): its verdict is
%  gap(vectors_unavailable(S)), acted on as any gap (evidence.pl's act/8:
%  a fallback, or the gap reported). Fails for any other step.
next_unavailable(Class, F, Avail, [R|Older], Pending, Next, outcome(Events, [Why|Whys])) :-
    R = result(step(S, _, _), 0, _),
    ( S == vector ; S == hybrid ),
    memberchk(unavailable(S), Avail), !,
    Why = because(ev_vectors_unavailable, [strategy(S)]),
    act(gap(vectors_unavailable(S)), Class, F, [R|Older], Pending, Next, Whys, Events).

%! vectors_fallback(+Class, +Features, +Gap, +History, -Steps, -Because) is semidet.
%  For gap(vectors_unavailable(S)): BM25 over the query's text (expanded
%  as a description's is, with emphasis(doc) for a description), an
%  evidence step, unless History holds a BM25 step of that text already.
vectors_fallback(Class, F, vectors_unavailable(S), H, [step(lexical, [text(T2)|Es], evidence)],
                 because(fb_bm25_without_vectors, [gap(vectors_unavailable(S))|Xs])) :-
    feature(text(T), F),
    T = [_|_],
    expand_text(F, T, T2, Xs),
    \+ tried(H, lexical, text(T2)),
    (   memberchk(Class, [conceptual, description])
    ->  Es = [emphasis(doc)]
    ;   Es = []
    ).
