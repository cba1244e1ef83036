/*  floor.pl -- a relevance floor: weak evidence is no evidence.

    Go reports, beside each result(Step, Count, Tops) of the history, a
    summary of the step's scores as data, newest first:

      scores(Total, Top, Kind, Margin)
          Total   how many hits the step found: exact for exact, graph and
                  structural steps (Go asks for all of them), else the
                  hits it returned (at most the answer's limit)
          Top     the best hit's score (0 if none)
          Kind    the score kind: exact, bm25, cosine_similarity,
                  l2_distance, rank, count, or unknown
          Margin  Top minus the second hit's score (0 if fewer than two)

    next_scored/8 is the planner's entry point after each step: it judges
    the newest step's scores against the floor of their kind and of the
    backend's embedder, then asks evidence.pl's next/6. Hits under the
    floor are discarded: Go drops them from the answer (outcome event
    discard(RuleID)), and next/6 judges the step as if it had found
    nothing, so its gap is the one the answer reports.

    Which embedder scored is data: the backend's capabilities (the
    Available list of plan_features/3, the third argument here) hold
    embedder(lexical) for a hashing embedder whose vectors are made of the
    text's own words (the offline local one, providers.LocalEmbedder),
    embedder(learned) for a trained model (an embedding endpoint), and no
    embedder(_) when Go did not say (then the embedder is unknown).

    Floors (floor/3), calibrated on the offline local embedder (lexical:
    character n-grams): nonsense words ("frobnicate", "zzqx", "quuxify")
    reach cosine 0.17-0.33 on encoding/json and 0.02-0.04 on a
    10-definition tree, real single words 0.37 and more. Embedding hits
    are kept when an exact or BM25 step of the same search found hits, or
    when the best is at or over the floor. The floor is the lexical
    embedder's, and an unknown embedder's (as before the embedder was
    data). A learned embedder's cosines are on another scale, and its hits
    that share no word with the query are the evidence it is configured
    for: it has no floor by default (no endpoint was at hand to calibrate
    one); a host calibrates its own with extra_floor/3.

    Extension hooks (declare them multifile in your own file):
      extra_floor(Kind, Embedder, Floor)   tried first; Embedder is
                                           lexical, learned or unknown
      extra_floor(Kind, Floor)             then this, for every embedder
*/

:- multifile(rule_id/2).
:- multifile(extra_floor/2).
:- dynamic(extra_floor/2).
:- multifile(extra_floor/3).
:- dynamic(extra_floor/3).

rule_id(ev_under_floor, "embedding hits that no exact or BM25 hit supports score under the floor of their kind and embedder: not evidence").

%! floor(?Kind, ?Embedder, ?Floor) is nondet.
floor(Kind, E, Floor) :- extra_floor(Kind, E, Floor), !.
floor(Kind, _, Floor) :- extra_floor(Kind, Floor), !.
floor(cosine_similarity, E, 0.45) :- E \== learned.

%! embedder_nature(+Available, -Nature) is det.
%  The nature of the backend's embedder: lexical, learned or unknown.
embedder_nature(Avail, E) :-
    memberchk(embedder(E0), Avail), !,
    E = E0.
embedder_nature(_, unknown).

%! next_scored(+Class, +Features, +Available, +History, +Pending, +Scores, -Next, -Outcome) is det.
%  next/6 after the relevance floor: Available are the backend's
%  capabilities (strategies and embedder(Nature)), and unavailable(S) for
%  each vector or hybrid strategy S whose step could not run in this
%  search because the embedder failed (vectors.pl's next_unavailable/7
%  judges such a step); Scores the scores/4 summaries of History's
%  results, newest first.
next_scored(Class, F, Avail, H, Pending, _, Next, Outcome) :-
    next_unavailable(Class, F, Avail, H, Pending, Next, Outcome), !.
next_scored(Class, F, Avail, [result(Step, C, _)|Older], Pending, [scores(_, Top, Kind, _)|_], Next,
            outcome([discard(ev_under_floor)|Events], [Why|Whys])) :-
    Step = step(S, _, evidence),
    ( S == vector ; S == hybrid ),
    C > 0,
    embedder_nature(Avail, E),
    floor(Kind, E, Floor),
    Top < Floor,
    \+ lexical_support(Older), !,
    Why = because(ev_under_floor, [strategy(S), score_kind(Kind), embedder(E), top(Top), floor(Floor)]),
    next(Class, F, [result(Step, 0, [])|Older], Pending, Next, outcome(Events, Whys)).
next_scored(Class, F, _, H, Pending, _, Next, Outcome) :-
    next(Class, F, H, Pending, Next, Outcome).

%! next_scored(+Class, +Features, +History, +Pending, +Scores, -Next, -Outcome) is det.
%  next_scored/8 for a backend whose embedder is unknown (the REPL,
%  hosts' rule tests written before the embedder was data).
next_scored(Class, F, H, Pending, Scores, Next, Outcome) :-
    next_scored(Class, F, [], H, Pending, Scores, Next, Outcome).

%! lexical_support(+Older) is semidet.
%  An exact or BM25 step of the search found hits.
lexical_support(Older) :-
    member(result(step(S, _, _), C, _), Older),
    ( S == exact ; S == lexical ),
    C > 0, !.
