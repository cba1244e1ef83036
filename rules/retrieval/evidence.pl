/*  evidence.pl -- is the evidence enough, and what is missing?

    After each step Go reports result(Step, Count, Tops): the step as
    planned, how many hits it found and the symbol names of the first few
    (strings). verdict/5 judges one result; next/6 turns the verdict into
    the new agenda, asking strategy.pl for a fallback on a gap, and says
    what the search has come to as outcome events Go decodes by shape.

    Verdicts:
      enough        the evidence answers the query; stop
      continue      go on with the pending steps
      settled(W)    the question is answered in the negative (W says how)
      gap(G)        something is missing; strategy:fallback/5 may help
      resolved(N)   a check step found the target under the name N

    Outcome events (the closed vocabulary of bridge.OutcomeEvents):
      gap(G)                 the gap G is left unfilled
      resolved(From, To, R)  the answer is about the name To, not the
                             query's target From; rule R found To

    Extension hook (declare it multifile in your own file):
      extra_verdict(Class, Features, Result, Verdict, Because)
          tried before the default verdicts.
*/

:- multifile(rule_id/2).
:- multifile(extra_verdict/5).
:- dynamic(extra_verdict/5).

rule_id(ev_focus_checked, "a description's focus identifier was looked up; go on").
rule_id(ev_broad_names, "a broad word was tried as a name; go on").
rule_id(ev_broad_bm25, "BM25 found hits for a broad query; go on to the other strategies").
rule_id(ev_definition_found, "an exact look-up found the definition").
rule_id(ev_target_resolved, "the target exists under another case").
rule_id(ev_target_renamed, "the target exists under another name (e.g. its last segment)").
rule_id(ev_target_misspelled, "the target is one name a few edits away: the query misspells it").
rule_id(ev_spelling_ambiguous, "several names are equally near the target's spelling: none is chosen").
rule_id(ev_near_names_found, "definitions of the names nearest the query's spelling").
rule_id(ev_target_exists, "the target exists; go on").
rule_id(ev_symbol_not_found, "no symbol has that name").
rule_id(ev_edges_found, "the graph step found edges").
rule_id(ev_no_edges, "the target exists but has no such edges").
rule_id(ev_fuzzy_resolved, "BM25 over names found a likely target").
rule_id(ev_bm25_hits, "BM25 found hits").
rule_id(ev_no_lexical_hits, "BM25 found nothing").
rule_id(ev_semantic_hits, "embedding search found hits").
rule_id(ev_no_semantic_hits, "embedding search found nothing").
rule_id(ev_path_listing, "the path holds definitions").
rule_id(ev_path_not_found, "no definitions under that path").
rule_id(ev_default_continue, "no verdict applies; go on").
rule_id(ev_gap_unfilled, "no fallback is left for the gap").

%! verdict(+Class, +Features, +Result, -Verdict, -Because) is det.
verdict(Class, F, R, V, Why) :-
    extra_verdict(Class, F, R, V, Why), !.
verdict(conceptual, _, result(step(exact, _, _), C, _), continue,
        because(ev_focus_checked, [count(C)])) :- !.
verdict(broad, _, result(step(exact, _, _), C, _), continue,
        because(ev_broad_names, [count(C)])) :- !.
verdict(broad, _, result(step(lexical, _, evidence), C, _), continue,
        because(ev_broad_bm25, [count(C)])) :-
    C > 0, !.
verdict(_, _, result(step(exact, A, evidence), C, Tops), enough,
        because(ev_near_names_found, [count(C), names(Ns)])) :-
    C > 0,
    memberchk(spelling(near), A), !,
    sort(Tops, Ns).
verdict(_, _, result(step(exact, _, evidence), C, _), enough,
        because(ev_definition_found, [count(C)])) :-
    C > 0, !.
verdict(_, _, result(step(exact, A, check), C, [N|_]), resolved(N),
        because(ev_target_resolved, [count(C), symbol(N)])) :-
    C > 0,
    memberchk(case(insensitive), A), !.
verdict(_, _, result(step(exact, A, check), C, [N|Ns]), resolved(N),
        because(ev_target_misspelled, [count(C), symbol(N)])) :-
    C > 0,
    memberchk(spelling(near), A),
    one_name(Ns, N), !.
verdict(_, _, result(step(exact, A, check), C, Tops), gap(symbol_not_found(T)),
        because(ev_spelling_ambiguous, [name(T), candidates(Ns)])) :-
    C > 0,
    memberchk(spelling(near), A),
    memberchk(name(T), A), !,
    sort(Tops, Ns).
verdict(_, F, result(step(exact, A, check), C, _), resolved(N),
        because(ev_target_renamed, [count(C), symbol(N)])) :-
    C > 0,
    memberchk(name(N), A),
    target(F, T), N \== T, !.
verdict(_, _, result(step(exact, _, check), C, _), continue,
        because(ev_target_exists, [count(C)])) :-
    C > 0, !.
verdict(_, _, result(step(exact, A, _), 0, _), gap(symbol_not_found(T)),
        because(ev_symbol_not_found, [name(T)])) :-
    memberchk(name(T), A), !.
verdict(_, _, result(step(graph, A, _), C, _), enough,
        because(ev_edges_found, [relation(R), count(C)])) :-
    C > 0,
    memberchk(relation(R), A), !.
verdict(_, _, result(step(graph, A, _), 0, _), settled(no_edges(R, T)),
        because(ev_no_edges, [relation(R), name(T)])) :-
    memberchk(relation(R), A),
    memberchk(name(T), A), !.
verdict(_, _, result(step(lexical, _, check), C, [N|_]), resolved(N),
        because(ev_fuzzy_resolved, [count(C), symbol(N)])) :-
    C > 0, !.
verdict(_, _, result(step(lexical, _, evidence), C, _), enough,
        because(ev_bm25_hits, [count(C)])) :-
    C > 0, !.
verdict(_, _, result(step(lexical, _, _), 0, _), gap(no_lexical_hits),
        because(ev_no_lexical_hits, [])) :- !.
verdict(_, _, result(step(S, _, evidence), C, _), enough,
        because(ev_semantic_hits, [strategy(S), count(C)])) :-
    ( S == hybrid ; S == vector ),
    C > 0, !.
verdict(_, _, result(step(S, _, _), 0, _), gap(no_semantic_hits),
        because(ev_no_semantic_hits, [strategy(S)])) :-
    ( S == hybrid ; S == vector ), !.
verdict(_, _, result(step(structural, _, _), C, _), enough,
        because(ev_path_listing, [count(C)])) :-
    C > 0, !.
verdict(_, _, result(step(structural, A, _), 0, _), gap(path_not_found(P)),
        because(ev_path_not_found, [path(P)])) :-
    memberchk(path(P), A), !.
verdict(_, _, result(_, C, _), continue, because(ev_default_continue, [count(C)])).

%! next(+Class, +Features, +History, +Pending, -Next, -Outcome) is det.
%  History is [Latest|Older] results; Pending the steps not yet run. Next is
%  the new agenda ([] ends the search). Outcome is outcome(Events, Whys):
%  Events as in the header (what Go reports to the caller), Whys the
%  verdict's because/2 and then any fallback or retarget rule that fired.
next(Class, F, [R|Older], Pending, Next, outcome(Events, [VerdictWhy|Whys])) :-
    judge(Class, F, R, Older, Verdict, VerdictWhy),
    act(Verdict, Class, F, [R|Older], Pending, Next, Whys, ActEvents),
    findall(E, answered_for(Verdict, F, [R|Older], VerdictWhy, E), Found),
    append(Found, ActEvents, Events).

%! judge(+Class, +Features, +Result, +Older, -Verdict, -Because) is det.
%  The harness's extra_verdict/5, then the verdicts that depend on the
%  earlier results (callers.pl), then verdict/5.
judge(Class, F, R, _, V, Why) :-
    extra_verdict(Class, F, R, V, Why), !.
judge(Class, F, R, Older, V, Why) :-
    callers_verdict(Class, F, R, Older, V, Why), !.
judge(Class, F, R, _, V, Why) :-
    verdict(Class, F, R, V, Why).

%! act(+Verdict, +Class, +Features, +History, +Pending, -Next, -Whys, -Events) is det.
%  A fallback's steps go first; a pending step equal to one of them is
%  not run twice.
act(enough, _, _, _, _, [], [], []).
act(continue, _, _, _, Pending, Pending, [], []).
act(settled(_), _, _, _, _, [], [], []).
act(gap(G), Class, F, H, Pending, Next, [Why], []) :-
    fallback(Class, F, G, H, Steps0, Why), !,
    constrain_steps(F, Steps0, Steps1),
    rank_steps(Class, F, Steps1, Steps),
    exclude_steps(Pending, Steps, Rest),
    append(Steps, Rest, Next).
act(gap(G), _, _, [result(step(_, _, check), _, _)|_], _, [],
    [because(ev_gap_unfilled, [gap(G), stop(premise_failed)])], [gap(G)]) :- !.
act(gap(G), _, _, _, Pending, Pending, [because(ev_gap_unfilled, [gap(G)])], [gap(G)]).
act(resolved(N), Class, F, _, _, Next, [Why], []) :-
    retarget(Class, F, N, Next0, Why),
    constrain_steps(F, Next0, Next1),
    rank_steps(Class, F, Next1, Next).

%! exclude_steps(+Steps, +Drop, -Rest) is det.
%  Rest is Steps without those in Drop.
exclude_steps([], _, []).
exclude_steps([S|Ss], Drop, Rest) :-
    (   memberchk(S, Drop)
    ->  Rest = Rest1
    ;   Rest = [S|Rest1]
    ),
    exclude_steps(Ss, Drop, Rest1).

%! answered_for(+Verdict, +Features, +History, +Because, -Event) is nondet.
%  What the latest result (the head of History) means for the answer as a
%  whole: a check step resolved the target to N (the search is retargeted
%  to N), or an exact evidence step found definitions under another name (a
%  last segment, or another case) — resolved/3; or the evidence is BM25
%  neighbours of a name no symbol has (the fuzzy fallback), or the calls
%  by name alone of a qualified name no call resolves to (Header.encode:
%  the calls of any encode, the qualifier not honoured) — the gap stays
%  open, gap/1, even though hits are returned.
answered_for(resolved(N), F, _, because(Rule, _), resolved(T, N, Rule)) :-
    target(F, T), N \== T.
answered_for(enough, F, [result(step(exact, A, evidence), _, [N|Ns])|_], because(Rule, _), Event) :-
    memberchk(spelling(near), A), !,
    target(F, T),
    near_event(T, N, Ns, Rule, Event).
answered_for(enough, F, [result(step(exact, A, evidence), _, Tops)|_], because(Rule, _), resolved(T, N, Rule)) :-
    found_name(A, Tops, N),
    target(F, T), N \== T.
answered_for(enough, _, [result(step(graph, A, evidence), _, _)|Older], _, gap(no_resolved_calls(T))) :-
    memberchk(relation(callers), A),
    memberchk(name(T), A),
    \+ memberchk(match(resolved), A),
    qualified_name(T),
    member(result(step(graph, A2, evidence), 0, _), Older),
    memberchk(relation(callers), A2),
    memberchk(match(resolved), A2), !.
answered_for(enough, _, [result(step(lexical, L, evidence), _, _)|Older], _, gap(symbol_not_found(T))) :-
    memberchk(text(T), L),
    member(result(step(exact, A, _), 0, _), Older),
    memberchk(name(T), A), !.

%! near_event(+Target, +Top, +OtherTops, +Rule, -Event) is det.
%  The definitions of one near name answer for it (resolved/3); those of
%  several equally near names leave the target not found (gap/1), though
%  they are returned.
near_event(T, N, Ns, Rule, resolved(T, N, Rule)) :-
    one_name(Ns, N), !.
near_event(T, _, _, _, gap(symbol_not_found(T))).

%! one_name(+Names, +Name) is semidet.
%  Every element of Names is Name (the first hits are all of one name).
one_name([], _).
one_name([M|Ms], N) :-
    M == N,
    one_name(Ms, N).

%! found_name(+Args, +Tops, -Name) is semidet.
found_name(A, [N|_], N) :-
    memberchk(case(insensitive), A), !.
found_name(A, _, N) :-
    memberchk(name(N), A).
