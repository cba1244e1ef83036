/*  swi.pl -- run rlm's planning rules in SWI-Prolog for the plan benchmark.

    swipl -q -g main -t halt bench/plan/swi.pl FEATURES_FILE N

    Loads the rule files rlm's planner loads for plan_features/2, unchanged
    and in the engine's order (the .pl files of rules/concepts, then
    those of rules/retrieval, each folder's in name order; the _test.pl
    files left out): the rules are written in portable ISO Prolog plus
    predicates SWI's library also has. The host predicate word_forms/2
    comes as facts in FEATURES_FILE, beside one q(I, Class, Features) fact
    per query. For each query it prints the plan's signature once
    ("plan I Class|Strategies|RuleIDs", compared with rlm's by the Go
    side), then calls plan_features/2 N times untabled and N times through
    tabled_plan/2 (SWI's own tabling, `:- table`, of the same call: the
    first call, which fills the table, is not timed), printing
    "I Class Mode Nanoseconds" per call.
*/
:- set_prolog_flag(double_quotes, chars).

:- table tabled_plan/2.
tabled_plan(F, Plan) :- plan_features(F, Plan).

main :-
    current_prolog_flag(argv, [Facts, NA|_]),
    atom_number(NA, N),
    rule_files(Files),
    load_files(Files, [silent(true)]),
    load_files([Facts], [silent(true)]),
    forall(q(I, Class, F), bench(I, Class, F, N)).

rule_files(Files) :-
    rule_folder('rules/concepts', Cs),
    rule_folder('rules/retrieval', Rs),
    append(Cs, Rs, Files).

rule_folder(Dir, Files) :-
    atom_concat(Dir, '/*.pl', Pattern),
    expand_file_name(Pattern, All),
    exclude([F]>>sub_atom(F, _, _, 0, '_test.pl'), All, Files0),
    msort(Files0, Files).

bench(I, Class, F, N) :-
    once(plan_features(F, plan(C, Steps, Whys))),
    findall(S, member(step(S, _, _), Steps), Ss),
    findall(R, member(because(R, _), Whys), Rs),
    atomic_list_concat(Ss, ',', SA),
    atomic_list_concat(Rs, ',', RA),
    format("plan ~w ~w|~w|~w~n", [I, C, SA, RA]),
    W is max(1, N // 10),
    forall(between(1, W, _), once(plan_features(F, _))),
    forall(between(1, N, _), time_call(I, Class, untabled, plan_features(F, _))),
    once(tabled_plan(F, _)),
    forall(between(1, N, _), time_call(I, Class, tabled, tabled_plan(F, _))).

time_call(I, Class, Mode, G) :-
    get_time(T0),
    once(G),
    get_time(T1),
    Ns is round((T1 - T0) * 1.0e9),
    format("~w ~w ~w ~w~n", [I, Class, Mode, Ns]).
