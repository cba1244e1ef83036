/*  swi.pl -- run rlm's planning rules in SWI-Prolog for the plan benchmark.

    swipl -q -g main -t halt bench/plan/swi.pl FEATURES_FILE N

    Loads rules/retrieval/classify.pl, strategy.pl and expand.pl and
    rules/concepts/code.pl unchanged (the rules are
    written in portable ISO Prolog plus predicates SWI's library also has),
    then for each q(I, Class, Features) fact calls plan_features/2 N times,
    printing "I Class Nanoseconds" per call.
*/
:- set_prolog_flag(double_quotes, chars).


main :-
    current_prolog_flag(argv, [Facts, NA|_]),
    atom_number(NA, N),
    load_files(['rules/retrieval/classify.pl', 'rules/retrieval/strategy.pl', 'rules/retrieval/expand.pl',
                'rules/concepts/code.pl'], [silent(true)]),
    load_files([Facts], [silent(true)]),
    forall(q(I, Class, F), bench(I, Class, F, N)).

bench(I, Class, F, N) :-
    W is max(1, N // 10),
    forall(between(1, W, _), once(plan_features(F, _))),
    forall(between(1, N, _),
           ( get_time(T0),
             once(plan_features(F, _)),
             get_time(T1),
             Ns is round((T1 - T0) * 1.0e9),
             format("~w ~w ~w~n", [I, Class, Ns]) )).
