/*  toplevel.pl -- entry points for the REPL and for hosts, from query text.

    These call the host predicate query_features/2 (registered by the
    bridge package), which computes the feature list from the text in Go;
    the text is never parsed as Prolog, and available_strategies/1
    (registered by the planner): the strategies of the backend the
    planner plans for, so that plan/2 here is the plan search would run.
*/

%! plan(+Text, -Plan) is det.
%  Plan for the query Text (a string), as plan_features/2 gives it.
plan(Text, Plan) :-
    query_features(Text, F),
    available_strategies(Avail),
    plan_features(F, Avail, Plan).

%! explain(+Text, -Explanation) is det.
%  Explanation for the query Text, as explain_features/2 gives it.
explain(Text, E) :-
    query_features(Text, F),
    available_strategies(Avail),
    explain_features(F, Avail, E).

%! features(+Text, -Features) is det.
%  The feature list Go computes for Text.
features(Text, F) :-
    query_features(Text, F).

%! whynot(+Text, +Strategy, -Verdict) is det.
%  Why Strategy is or is not in the plan for the query Text, as
%  whynot_strategy/4 gives it.
whynot(Text, S, Verdict) :-
    query_features(Text, F),
    available_strategies(Avail),
    whynot_strategy(F, Avail, S, Verdict).
