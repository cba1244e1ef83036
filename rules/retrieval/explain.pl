/*  explain.pl -- why this plan, and what would happen on a gap.
*/

%! explain_features(+Features, -Explanation) is det.
%  explain_features/3 with the strategies every backend has.
explain_features(F, E) :-
    default_strategies(Avail),
    explain_features(F, Avail, E).

%! explain_features(+Features, +Available, -Explanation) is det.
%  Explanation is explanation(Class, Steps, Because, Contingencies) for a
%  backend offering the strategies Available (the same plan search runs:
%  plan_features/3), where Contingencies lists if(Step, Gap,
%  FallbackSteps, Because): what strategy.pl would do if Step left Gap,
%  before any search has run.
explain_features(F, Avail, explanation(Class, Steps, Whys, Cs)) :-
    plan_features(F, Avail, plan(Class, Steps, Whys)),
    contingencies(F, Class, Steps, Cs).

%! contingencies(+Class, +Steps, -Contingencies) is det.
%  Contingencies lists if(Step, Gap, FallbackSteps, Because) for the
%  planned Steps: every gap each step can leave and the fallback
%  strategy.pl would plan for it, before any search has run.
contingencies(Class, Steps, Cs) :-
    features_from_list([], F),
    contingencies(F, Class, Steps, Cs).

%! contingencies(+Features, +Class, +Steps, -Contingencies) is det.
%  contingencies/3 for a query with Features: a fallback's evidence steps
%  carry the query's constraints and role ranking, as they would when the
%  search runs them.
contingencies(F, Class, Steps, Cs) :-
    findall(if(S, G, FSteps, FWhy),
            ( member(S, Steps),
              possible_gap(S, G),
              fallback(Class, F, G, [], FSteps0, FWhy),
              constrain_steps(F, FSteps0, FSteps1),
              rank_steps(Class, F, FSteps1, FSteps) ),
            Cs).

%! possible_gap(+Step, -Gap) is nondet.
%  The gaps a step can leave.
possible_gap(step(exact, A, _), symbol_not_found(T)) :-
    memberchk(name(T), A).
possible_gap(step(lexical, _, _), no_lexical_hits).
possible_gap(step(graph, A, _), no_resolved_calls(T)) :-
    memberchk(match(resolved), A),
    memberchk(name(T), A).
possible_gap(step(structural, A, _), path_not_found(P)) :-
    memberchk(path(P), A).
possible_gap(step(S, _, _), vectors_unavailable(S)) :-
    ( S == vector ; S == hybrid ).
