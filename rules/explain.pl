/*  explain.pl -- why this plan, and what would happen on a gap.
*/

%! explain_features(+Features, -Explanation) is det.
%  Explanation is explanation(Class, Steps, Because, Contingencies) where
%  Contingencies lists if(Step, Gap, FallbackSteps, Because): what
%  strategy.pl would do if Step left Gap, before any search has run.
explain_features(F, explanation(Class, Steps, Whys, Cs)) :-
    plan_features(F, plan(Class, Steps, Whys)),
    findall(if(S, G, FSteps, FWhy),
            ( member(S, Steps),
              possible_gap(S, G),
              fallback(Class, G, [], FSteps, FWhy) ),
            Cs).

%! possible_gap(+Step, -Gap) is nondet.
%  The gaps a step can leave.
possible_gap(step(exact, A, _), symbol_not_found(T)) :-
    memberchk(name(T), A).
possible_gap(step(lexical, _, _), no_lexical_hits).
possible_gap(step(structural, A, _), path_not_found(P)) :-
    memberchk(path(P), A).
