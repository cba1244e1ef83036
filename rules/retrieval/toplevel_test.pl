% Tests for toplevel.pl: the REPL's entry points compute features in Go
% (query_features/2) and plan for the backend's strategies
% (available_strategies/1); the test runner registers both as the planner
% does, with the strategies every backend has.

test(plan_from_text_plans_like_plan_features) :-
    plan("what calls ServeHTTP?", plan(Class, Steps, _)),
    Class == relationship,
    Steps = [step(exact, [name(N)], check), step(graph, [relation(callers), name(N), match(resolved)], evidence)],
    N == "ServeHTTP".

test(plan_uses_the_available_strategies) :-
    available_strategies(Avail),
    \+ memberchk(hybrid, Avail),
    plan("parse multipart form boundaries", plan(conceptual, [step(S, _, _)], _)),
    S == lexical.

test(features_come_from_go) :-
    features("where is Server defined?", F),
    feature(cue(C), F),
    C == definition,
    feature(idents(Ids), F),
    memberchk(id("Server", pascal), Ids).

test(explain_lists_contingencies_for_the_same_plan) :-
    explain("Server", explanation(identifier, Steps, _, Cs)),
    plan("Server", plan(identifier, Steps, _)),
    Cs = [_|_].
