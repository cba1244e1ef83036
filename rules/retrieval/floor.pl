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

    next_scored/7 is the planner's entry point after each step: it judges
    the newest step's scores against the floor of their kind and then
    asks evidence.pl's next/6. Hits under the floor are discarded: Go
    drops them from the answer (outcome event discard(RuleID)), and next/6
    judges the step as if it had found nothing, so its gap is the one the
    answer reports.

    Floors (floor/2), calibrated on the offline local embedder (a hashing
    embedder: it is lexical, character n-grams): nonsense words
    ("frobnicate", "zzqx", "quuxify") reach cosine 0.17-0.33 on
    encoding/json and 0.02-0.04 on a 10-definition tree, real single words
    0.37 and more. Embedding hits are kept when an exact or BM25 step of
    the same search found hits, or when the best is at or over the floor.
    The floor does not know which embedder scored (that is not yet data);
    with a neural embedder, raise or drop it in your own rules directory
    (a file floor.pl replaces this one).

    Extension hook (declare it multifile in your own file):
      extra_floor(Kind, Floor)   tried before floor/2
*/

:- multifile(rule_id/2).
:- multifile(extra_floor/2).
:- dynamic(extra_floor/2).

rule_id(ev_under_floor, "embedding hits that no exact or BM25 hit supports score under the floor of their kind: not evidence").

%! floor(?Kind, ?Floor) is nondet.
floor(Kind, Floor) :- extra_floor(Kind, Floor), !.
floor(cosine_similarity, 0.45).

%! next_scored(+Class, +Features, +History, +Pending, +Scores, -Next, -Outcome) is det.
%  next/6 after the relevance floor: Scores are the scores/4 summaries
%  of History's results, newest first.
next_scored(Class, F, [result(Step, C, _)|Older], Pending, [scores(_, Top, Kind, _)|_], Next,
            outcome([discard(ev_under_floor)|Events], [Why|Whys])) :-
    Step = step(S, _, evidence),
    ( S == vector ; S == hybrid ),
    C > 0,
    floor(Kind, Floor),
    Top < Floor,
    \+ lexical_support(Older), !,
    Why = because(ev_under_floor, [strategy(S), score_kind(Kind), top(Top), floor(Floor)]),
    next(Class, F, [result(Step, 0, [])|Older], Pending, Next, outcome(Events, Whys)).
next_scored(Class, F, H, Pending, _, Next, Outcome) :-
    next(Class, F, H, Pending, Next, Outcome).

%! lexical_support(+Older) is semidet.
%  An exact or BM25 step of the search found hits.
lexical_support(Older) :-
    member(result(step(S, _, _), C, _), Older),
    ( S == exact ; S == lexical ),
    C > 0, !.
