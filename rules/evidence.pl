/*  evidence.pl -- is the evidence enough, and what is missing?

    After each step Go reports result(Step, Count, Tops): the step as
    planned, how many hits it found and the symbol names of the first few
    (strings). verdict/4 judges one result; next/6 turns the verdict into
    the new agenda, asking strategy.pl for a fallback on a gap.

    Verdicts:
      enough        the evidence answers the query; stop
      continue      go on with the pending steps
      settled(W)    the question is answered in the negative (W says how)
      gap(G)        something is missing; strategy:fallback/5 may help
      resolved(N)   a check step found the target under the name N
*/

%! verdict(+Class, +Result, -Verdict, -Because) is det.
verdict(conceptual, result(step(exact, _, _), C, _), continue,
        because(ev_focus_checked, [count(C)])) :- !.
verdict(broad, result(step(exact, _, _), C, _), continue,
        because(ev_broad_names, [count(C)])) :- !.
verdict(broad, result(step(lexical, _, evidence), C, _), continue,
        because(ev_broad_bm25, [count(C)])) :-
    C > 0, !.
verdict(_, result(step(exact, _, evidence), C, _), enough,
        because(ev_definition_found, [count(C)])) :-
    C > 0, !.
verdict(_, result(step(exact, A, check), C, [N|_]), resolved(N),
        because(ev_target_resolved, [count(C), symbol(N)])) :-
    C > 0,
    memberchk(case(insensitive), A), !.
verdict(_, result(step(exact, _, check), C, _), continue,
        because(ev_target_exists, [count(C)])) :-
    C > 0, !.
verdict(_, result(step(exact, A, _), 0, _), gap(symbol_not_found(T)),
        because(ev_symbol_not_found, [name(T)])) :-
    memberchk(name(T), A), !.
verdict(_, result(step(graph, A, _), C, _), enough,
        because(ev_edges_found, [relation(R), count(C)])) :-
    C > 0,
    memberchk(relation(R), A), !.
verdict(_, result(step(graph, A, _), 0, _), settled(no_edges(R, T)),
        because(ev_no_edges, [relation(R), name(T)])) :-
    memberchk(relation(R), A),
    memberchk(name(T), A), !.
verdict(_, result(step(lexical, _, check), C, [N|_]), resolved(N),
        because(ev_fuzzy_resolved, [count(C), symbol(N)])) :-
    C > 0, !.
verdict(_, result(step(lexical, _, evidence), C, _), enough,
        because(ev_bm25_hits, [count(C)])) :-
    C > 0, !.
verdict(_, result(step(lexical, _, _), 0, _), gap(no_lexical_hits),
        because(ev_no_lexical_hits, [])) :- !.
verdict(_, result(step(S, _, evidence), C, _), enough,
        because(ev_semantic_hits, [strategy(S), count(C)])) :-
    ( S == hybrid ; S == vector ),
    C > 0, !.
verdict(_, result(step(S, _, _), 0, _), gap(no_semantic_hits),
        because(ev_no_semantic_hits, [strategy(S)])) :-
    ( S == hybrid ; S == vector ), !.
verdict(_, result(step(structural, _, _), C, _), enough,
        because(ev_path_listing, [count(C)])) :-
    C > 0, !.
verdict(_, result(step(structural, A, _), 0, _), gap(path_not_found(P)),
        because(ev_path_not_found, [path(P)])) :-
    memberchk(path(P), A), !.
verdict(_, result(_, C, _), continue, because(ev_default_continue, [count(C)])).

%! next(+Class, +Features, +History, +Pending, -Next, -Because) is det.
%  History is [Latest|Older] results; Pending the steps not yet run. Next is
%  the new agenda ([] ends the search); Because lists the verdict and any
%  fallback or retarget rule that fired.
next(Class, F, [R|Older], Pending, Next, [VerdictWhy|Whys]) :-
    verdict(Class, R, Verdict, VerdictWhy),
    act(Verdict, Class, F, [R|Older], Pending, Next, Whys).

act(enough, _, _, _, _, [], []).
act(continue, _, _, _, Pending, Pending, []).
act(settled(_), _, _, _, _, [], []).
act(gap(G), Class, _, H, Pending, Next, [Why]) :-
    fallback(Class, G, H, Steps, Why), !,
    append(Steps, Pending, Next).
act(gap(G), _, _, [result(step(_, _, check), _, _)|_], _, [],
    [because(ev_gap_unfilled, [gap(G), stop(premise_failed)])]) :- !.
act(gap(G), _, _, _, Pending, Pending, [because(ev_gap_unfilled, [gap(G)])]).
act(resolved(N), Class, F, _, _, Next, [Why]) :-
    retarget(Class, F, N, Next, Why).
