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
*/

:- multifile(rule_id/2).
:- multifile(extra_strategy/5).

rule_id(st_hybrid_after_bm25, "a description with a lexical embedder: hybrid search only after BM25, which runs first and is enough when it finds hits").

%! trusted_vectors(+Available) is semidet.
%  The backend's vectors may rank a description: its embedder is not a
%  lexical one.
trusted_vectors(Avail) :-
    \+ memberchk(embedder(lexical), Avail).

extra_strategy(conceptual, F, Avail, step(hybrid, [text(T2)], evidence),
               because(st_hybrid_after_bm25, [class(conceptual), embedder(lexical)|Xs])) :-
    memberchk(hybrid, Avail),
    \+ trusted_vectors(Avail),
    feature(text(T), F),
    expand_text(F, T, T2, Xs).
