/*  select.pl -- which candidate units the task wants, and which the host
    refuses.

    A candidate is refused (refuse_rule/3: the host denied it, or an
    extra_reject/4 clause refuses it), wanted (want_rule/3) or idle
    (idle_because/2: available, but nothing selected it; closure.pl may
    still pull it in for a unit that requires or suggests it). Capabilities
    are checked between refusal and wanting, in capabilities.pl.

    The Ranked candidates (compile.pl) come best lexical match first, so
    once one falls outside the lexical cut so do all after it: unless an
    extension hook is loaded, they are not examined one by one and are out
    with not_examined_because/1.

    Wanted, in this order (the first rule that holds gives the reason):
      extra_select/4 clauses, the host's selection, activation always, mode
      all_tools (every tool), a need the unit's keywords or capabilities
      name, a trusted signal among its triggers, and a good lexical match
      (rank at most MaxRank and a score of at least MinPercent of the best
      match's: lexical_cut/2).

    Extension hooks (declare them multifile in your own file and add
    clauses; register each RuleID with rule_id/2):
      extra_reject(RuleID, Input, Unit, Premises)
          refuses Unit before anything else may select it.
      extra_select(RuleID, Input, Unit, Premises)
          selects Unit before the default rules; the first clause that
          succeeds gives the reason.
*/

:- multifile(rule_id/2).
:- multifile(extra_reject/4).
:- dynamic(extra_reject/4).
:- multifile(extra_select/4).
:- dynamic(extra_select/4).
:- multifile(rule_id_head/1).

rule_id(sel_host_denied, "the host denied the unit for this call").
rule_id(sel_host_selected, "the host selected the unit for this call").
rule_id(sel_always, "the unit's activation is always").
rule_id(sel_all_tools, "mode all_tools: every tool in the catalog is offered").
rule_id(sel_need, "the task needs what the unit's keywords or capabilities name").
rule_id(sel_signal, "a trusted signal of the host triggers the unit").
rule_id(sel_relevant, "the unit is among the best lexical matches of the task").
rule_id(sel_not_relevant, "a relevant unit that nothing selected").

%! rule_id_head(?NameArity) is nondet.
%  The hooks whose clauses carry their rule ID in the first argument, so
%  that the rule-ID registry check (go test ./rules/, rlm test-rules)
%  counts a hook clause in any file as a use of its ID.
rule_id_head(extra_reject/4).
rule_id_head(extra_select/4).

%! lexical_cut(?MaxRank, ?MinPercent) is det.
%  A lexical match selects a relevant unit when its rank is at most
%  MaxRank and its BM25 score at least MinPercent of the best match's.
lexical_cut(12, 40).

%! decide_unit(+Input, +Unit, -State) is det.
%  State is refused(Because) (here or capabilities.pl), wanted(Because)
%  or idle(Because).
%
%  The default prompt rules use no control constructs (->, ;, \+,
%  findall/3, ...) where large terms are in reach -- ichiban/prolog
%  compiles such a goal, walking every term in it, each time it runs --
%  and read fields with the accessors of units.pl. Clauses with cuts
%  choose instead.
decide_unit(In, U, St) :-
    refuse_rule(In, U, B), !,
    St = refused(B).
decide_unit(In, U, St) :-
    unauthorized(In, U, B), !,
    St = refused(B).
decide_unit(In, U, St) :-
    want_rule(In, U, B), !,
    St = wanted(B).
decide_unit(_, U, idle(B)) :-
    idle_because(U, B).

%! ensure_state(+Input, +Table, +SV, +N, +Seen0, -Seen) is det.
%  Decides unit N (binding its place in the state vector SV, compile.pl)
%  unless it is decided already; Seen is Seen0 with N if it was not.
ensure_state(In, T, SV, N, Seen0, Seen) :-
    arg(N, SV, St),
    decide_once(St, In, T, N, Seen0, Seen).

decide_once(St, In, T, N, Seen0, [N|Seen0]) :-
    var(St), !,
    arg(N, T, U),
    decide_unit(In, U, St).
decide_once(_, _, _, _, Seen, Seen).

%! refuse_rule(+Input, +Unit, -Because) is semidet.
refuse_rule(_, U, B) :-
    u_host(U, denied), !,
    B = because(sel_host_denied, []).
refuse_rule(In, U, because(R, Ps)) :-
    extra_reject(R, In, U, Ps), !.

%! want_rule(+Input, +Unit, -Because) is semidet.
want_rule(In, U, because(R, Ps)) :-
    extra_select(R, In, U, Ps), !.
want_rule(_, U, B) :-
    u_host(U, selected), !,
    B = because(sel_host_selected, []).
want_rule(_, U, B) :-
    u_activation(U, always), !,
    B = because(sel_always, []).
want_rule(In, U, B) :-
    in_mode(In, all_tools),
    u_kind(U, K),
    tool_kind(K), !,
    B = because(sel_all_tools, [mode(all_tools)]).
want_rule(_, U, B) :-
    u_needs(U, [N|Ns]), !,
    B = because(sel_need, [needs([N|Ns])]).
want_rule(_, U, B) :-
    u_signals(U, [S|Ss]), !,
    B = because(sel_signal, [signals([S|Ss])]).
want_rule(_, U, B) :-
    u_rank(U, R),
    u_percent(U, P),
    in_lexical_cut(R, P), !,
    relevant_because(R, P, B).

%! relevant_because(+Rank, +Percent, -Because) is det.
%  (Terms an output argument receives are built in the body: a structure
%  in a head costs ichiban/prolog a binding per argument, and is paid
%  again each time a clause head is tried.)
relevant_because(R, P, B) :-
    B = because(sel_relevant, [lexical_rank(R), score_percent(P)]).

%! decide_ranked(+Input, +Unit, +Rank, +Percent, -State) is det.
%  The state of a Ranked unit inside the lexical cut (compile.pl), when no
%  extension hook of this file is loaded: decide_unit/3 cut short. A
%  Ranked unit has activation relevant, no host flag, need or signal, is
%  not mandatory and is not a tool in mode all_tools (else Go would have
%  put it in Called),
%  so only host denial's absence, capabilities and sel_relevant apply.
decide_ranked(In, U, _, _, St) :-
    unauthorized(In, U, B), !,
    St = refused(B).
decide_ranked(_, _, R, P, wanted(B)) :-
    relevant_because(R, P, B).

%! in_lexical_cut(+Rank, +Percent) is semidet.
%  A lexical match of this rank and score is good enough (lexical_cut/2).
in_lexical_cut(R, P) :-
    R > 0,
    lexical_cut(MaxRank, MinPercent),
    R =< MaxRank,
    P >= MinPercent.

%! idle_because(+Unit, -Because) is det.
%  Why a relevant unit that nothing wanted is not selected.
idle_because(U, because(sel_not_relevant, [no_lexical_match])) :-
    u_rank(U, 0), !.
idle_because(U, because(sel_not_relevant, [lexical_rank(R), score_percent(P)])) :-
    u_rank(U, R),
    u_percent(U, P).

%! not_examined_because(-Because) is det.
%  The reason of the Ranked candidates past the lexical cut, which the
%  default rules do not examine one by one (compile.pl).
not_examined_because(because(sel_not_relevant, [lexical_cut(MaxRank, MinPercent)])) :-
    lexical_cut(MaxRank, MinPercent).
