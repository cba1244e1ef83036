/*  reuse.pl -- case-based reuse: which past case's plan to reuse.

    Go keeps cases (one per question that needed more than one step to
    find its evidence) per knowledge base and, for a new query, offers the
    rules a bounded list of candidates as data:

      case(Id, Query, Class, Ran, Outcome)
        Id       an integer
        Query    the case's query text (a string)
        Class    the class its plan was made for
        Ran      ran(Step, Count) for each step its search ran, in order
        Outcome  outcome(Hits, Resolved, Uses, Failures, Cited, Snapshot):
                 the hits it found, resolved(From, To, RuleID) or none,
                 how often it was reused, how often a reuse found nothing,
                 cited(C, I): how many answers downstream (the completion
                 loop) cited its evidence, and how many were given it and
                 cited none of it, and snapshot(same) or snapshot(other):
                 whether it was retained on the snapshot the query runs on

    The policy interface (a learned or bandit policy answers with the same
    shapes, through reuse_policy/4; the rules are the default policy):

      reuse_case(+Features, +Class, +Cases, -Decision)
        Decision is reuse(Id, Steps, Events, Because): run Steps (the
        case's steps that found evidence) instead of planning, report
        Events (outcome events, e.g. the case's resolved/3) and explain
        with Because, which names the case; or none(Because).

    Retrieve: similar/4 (same class, the same target or the same words,
    the same constraints). Reuse: the case's evidence steps with hits;
    among several similar cases, the one whose evidence answers cited
    most (net of answers that cited none of it) is preferred, in the
    given order on a tie (cb_prefer_cited). Revise and retain are Go's:
    a reuse that finds nothing counts a failure and the query is planned
    afresh; the citations of an answer revise the case its evidence came
    from; a search that needed more than one step is retained.

    Extension hooks (declare them multifile in your own file):
      veto_reuse(Features, Case, Because)   a rule that forbids reusing
                                            Case for this query
      reuse_policy(Features, Class, Cases, Decision)  another policy,
                                            tried before the rules
      allow_other_snapshot(Features, Case)  lifts cb_veto_other_snapshot
                                            for Case (a harness that knows
                                            its skipped steps cannot start
                                            to succeed; a reuse that finds
                                            nothing is planned afresh)
*/

:- multifile(rule_id/2).
:- multifile(veto_reuse/3).
:- multifile(allow_other_snapshot/2).
:- dynamic(allow_other_snapshot/2).
:- dynamic(veto_reuse/3).
:- multifile(reuse_policy/4).
:- dynamic(reuse_policy/4).

rule_id(cb_reuse, "a similar past case found its evidence with fewer steps: reuse them").
rule_id(cb_prefer_cited, "among similar cases, the one whose evidence answers cited most is reused").
rule_id(cb_same_target, "the case asked about the same target (ignoring case) with the same class and constraints").
rule_id(cb_same_words, "the case asked with the same content words, class and constraints").
rule_id(cb_no_similar_case, "no kept case is similar enough").
rule_id(cb_vetoed, "a rule vetoed reusing the only similar cases").
rule_id(cb_veto_unreliable, "a case whose reuses failed more often than they helped is not reused").
rule_id(cb_veto_no_shortcut, "a case whose evidence came from its first step saves nothing").
rule_id(cb_veto_other_snapshot, "a case retained on another snapshot is not reused: the steps it skipped failed there and may find evidence on this one").

%! reuse_case(+Features, +Class, +Cases, -Decision) is det.
reuse_case(F, Class, Cases, D) :-
    reuse_policy(F, Class, Cases, D), !.
reuse_case(F, Class, Cases, reuse(Id, Steps, Events, because(cb_reuse, [case(Id), query(Q), similar(Why), steps(N)|Pref]))) :-
    reusable(F, Class, Cases, C, Why, Steps),
    \+ better_cited(F, Class, Cases, C), !,
    C = case(Id, Q, _, _, outcome(_, Resolved, _, _, _, _)),
    length(Steps, N),
    preference(F, Class, Cases, C, Pref),
    resolved_events(F, Resolved, Events).
reuse_case(F, Class, Cases, none(because(cb_vetoed, [case(Id), veto(V)]))) :-
    member(C, Cases),
    C = case(Id, _, _, _, _),
    similar(F, Class, C, _),
    vetoed(F, C, V), !.
reuse_case(_, _, _, none(because(cb_no_similar_case, []))).

%! reusable(+Features, +Class, +Cases, -Case, -Similar, -Steps) is nondet.
%  Case, of Cases in order, is similar, not vetoed, and has evidence
%  steps that found hits (Steps).
reusable(F, Class, Cases, C, Why, Steps) :-
    member(C, Cases),
    C = case(_, _, _, Ran, _),
    similar(F, Class, C, Why),
    \+ vetoed(F, C, _),
    found_steps(Ran, Steps),
    Steps = [_|_].

%! cited_score(+Case, -Score) is det.
%  The answers that cited the case's evidence less those that cited none.
cited_score(case(_, _, _, _, outcome(_, _, _, _, cited(C, I), _)), S) :-
    S is C - I.

%! better_cited(+Features, +Class, +Cases, +Case) is semidet.
%  Another reusable case's evidence was cited more than Case's.
better_cited(F, Class, Cases, C) :-
    cited_score(C, S),
    reusable(F, Class, Cases, C2, _, _),
    cited_score(C2, S2),
    S2 > S, !.

%! preference(+Features, +Class, +Cases, +Case, -Premises) is det.
%  [because(cb_prefer_cited, ...)] when Case was preferred over the first
%  reusable case for its cited evidence, else [].
preference(F, Class, Cases, C, Pref) :-
    once(reusable(F, Class, Cases, First, _, _)),
    (   First \== C
    ->  First = case(Other, _, _, _, _),
        cited_score(C, S), cited_score(First, S0),
        Pref = [because(cb_prefer_cited, [cited(S), over(Other), other_cited(S0)])]
    ;   Pref = []
    ).

%! similar(+Features, +Class, +Case, -Because) is semidet.
similar(F, Class, case(_, Q, Class, _, _), because(cb_same_target, [target(T)])) :-
    query_features(Q, CF),
    same_constraints(F, CF),
    target(F, T),
    target(CF, CT),
    same_fold(T, CT), !.
similar(F, Class, case(_, Q, Class, _, _), because(cb_same_words, [words(Ws)])) :-
    query_features(Q, CF),
    same_constraints(F, CF),
    feature(words(Ws), F), Ws = [_|_],
    feature(words(CWs), CF),
    msort(Ws, S), msort(CWs, S).

same_constraints(F, CF) :-
    feature(constraints(A), F),
    feature(constraints(B), CF),
    msort(A, S), msort(B, S).

%! vetoed(+Features, +Case, -Because) is semidet.
vetoed(F, C, Why) :-
    veto_reuse(F, C, Why), !.
vetoed(F, C, because(cb_veto_other_snapshot, [])) :-
    C = case(_, _, _, _, outcome(_, _, _, _, _, snapshot(other))),
    \+ allow_other_snapshot(F, C), !.
vetoed(_, case(_, _, _, _, outcome(_, _, Uses, Failures, _, _)), because(cb_veto_unreliable, [uses(Uses), failures(Failures)])) :-
    Failures > Uses, !.
vetoed(_, case(_, _, _, [ran(step(_, _, evidence), C)|_], _), because(cb_veto_no_shortcut, [])) :-
    C > 0.

%! found_steps(+Ran, -Steps) is det.
%  The evidence steps of a case that found hits, in order.
found_steps(Ran, Steps) :-
    findall(S, ( member(ran(S, C), Ran), S = step(_, _, evidence), C > 0 ), Steps).

%! resolved_events(+Features, +Resolved, -Events) is det.
%  The case's answer was about To rather than its query's target: so is
%  this one's, unless this query names To itself.
resolved_events(_, none, []).
resolved_events(F, resolved(_, To, R), Events) :-
    (   target(F, T), T \== To
    ->  Events = [resolved(T, To, R)]
    ;   Events = []
    ).

%! same_fold(+A, +B) is semidet.
%  A and B are the same text ignoring ASCII case; equal characters are
%  not folded.
same_fold([], []).
same_fold([A|As], [B|Bs]) :-
    (   A == B
    ->  true
    ;   fold_char(A, L),
        fold_char(B, L)
    ),
    same_fold(As, Bs).

fold_char(C, L) :-
    char_code(C, X),
    X >= 0'A, X =< 0'Z, !,
    Y is X + 32,
    char_code(L, Y).
fold_char(C, C).
