/*  callers.pl -- who calls a name: the calls resolved to it first
    (issue 10, faults 4 and 5).

    Go resolves every call from the syntax of its file and the
    declarations of the tree (sourcefacts: imports and their aliases, the
    declared types of receivers, parameters, variables and fields, the
    result types of calls, the caller's own package or module) and marks
    each hit of a callers step with how its calls matched the name asked
    about (Hit.Match): resolved (to one of the name's definitions),
    external (the tree does not define the name; the calls resolve
    through an import to a module outside it) or by name (the syntax
    does not say whose name it is). A qualified name is resolved as the
    tree writes it: "body.Read" is the method of body, "json.Unmarshal"
    the Unmarshal of a package or module named json. These rules decide
    what of that is evidence:

      - a callers step keeps only resolved and external calls
        (match(resolved), st_resolved_callers); calls matched by name
        alone are the evidence only when no call resolves
        (ev_no_resolved_calls, then fb_callers_by_name), and every such
        hit says so;
      - a name the tree does not define is first asked for its call sites
        (fb_call_sites), before any other name is tried: "what calls
        Sprintf?" lists the callers of fmt.Sprintf, marked external;
      - a qualified name ("strings.HasPrefix") names one thing: when the
        tree has neither a definition nor a call site of it, nothing
        calls it (ev_no_call_sites) — the answer is never the callers of
        another name found by its last segment or by BM25
        (strategy.pl's fb_fuzzy_name does not run for it either).

    Entry points (called by strategy.pl and evidence.pl):
      relation_graph_step(Relation, Name, Step)
      callers_verdict(Class, Features, Result, Older, Verdict, Because)
      callers_fallback(Class, Features, Gap, History, Steps, Because)
*/

:- multifile(rule_id/2).

rule_id(st_resolved_callers, "a callers question follows the calls resolved to the target's definitions (or, for a name the tree does not define, to a module outside it)").
rule_id(ev_no_resolved_calls, "no call resolves to the target").
rule_id(ev_no_call_sites, "the tree neither defines the name nor calls it").
rule_id(fb_call_sites, "a name the tree does not define: look for its call sites (calls resolved through imports to a module outside the tree)").
rule_id(fb_callers_by_name, "no call resolves to the target: the calls of its name, marked as matched by name alone").

%! relation_graph_step(+Relation, +Name, -Step) is det.
%  The graph step that answers Relation for Name: callers keep only
%  resolved calls.
relation_graph_step(callers, T, step(graph, [relation(callers), name(T), match(resolved)], evidence)) :- !.
relation_graph_step(R, T, step(graph, [relation(R), name(T)], evidence)).

%! callers_verdict(+Class, +Features, +Result, +Older, -Verdict, -Because) is semidet.
%  Verdicts on a callers step that found nothing, which depend on what
%  the earlier steps (Older, newest first) found: whether the name is
%  defined, and whether it is qualified.
callers_verdict(_, _, result(step(graph, A, evidence), 0, _), Older, V, Why) :-
    memberchk(relation(callers), A),
    memberchk(name(T), A),
    (   memberchk(match(resolved), A)
    ->  resolved_none(T, Older, V, Why)
    ;   \+ defined_in(T, Older),
        V = gap(symbol_not_found(T)),
        Why = because(ev_no_call_sites, [name(T), by_name(none)])
    ).

%! resolved_none(+Name, +Older, -Verdict, -Because) is det.
resolved_none(T, Older, gap(no_resolved_calls(T)), because(ev_no_resolved_calls, [name(T), defined(yes)])) :-
    defined_in(T, Older), !.
resolved_none(T, _, settled(no_call_sites(T)), because(ev_no_call_sites, [name(T), qualified(yes)])) :-
    qualified_name(T), !.
resolved_none(T, _, gap(no_resolved_calls(T)), because(ev_no_resolved_calls, [name(T), defined(no)])).

%! callers_fallback(+Class, +Features, +Gap, +History, -Steps, -Because) is semidet.
callers_fallback(relationship, F, symbol_not_found(T), H, [Step],
                 because(fb_call_sites, [gap(symbol_not_found(T))])) :-
    feature(relation(callers), F),
    target(F, T),
    \+ tried_graph(H, T, resolved), !,
    relation_graph_step(callers, T, Step).
callers_fallback(relationship, _, no_resolved_calls(T), H, [step(graph, [relation(callers), name(T)], evidence)],
                 because(fb_callers_by_name, [gap(no_resolved_calls(T))])) :-
    \+ tried_graph(H, T, by_name).

%! tried_graph(+History, +Name, ?Match) is semidet.
%  A callers step for Name ran, keeping resolved calls only (resolved) or
%  every call (by_name).
tried_graph(H, T, M) :-
    member(result(step(graph, A, _), _, _), H),
    memberchk(relation(callers), A),
    memberchk(name(T), A),
    (   memberchk(match(resolved), A)
    ->  M = resolved
    ;   M = by_name
    ), !.

%! defined_in(+Name, +History) is semidet.
%  An exact or BM25 step of History found Name: as the name it looked up,
%  or among its first hits (a case-insensitive or fuzzy resolution).
defined_in(T, H) :-
    member(result(step(S, A, _), C, Tops), H),
    C > 0,
    ( S == exact ; S == lexical ),
    ( memberchk(name(T), A) ; memberchk(T, Tops) ), !.

%! qualified_name(+Name) is semidet.
%  Name has a qualifier: a package, module or type before a dot.
qualified_name(T) :-
    append(Q, ['.'|N], T),
    Q = [_|_], N = [_|_], !.
