/*  select.pl -- which candidate units the task wants, and which the host
    refuses.

    A candidate is refused (refuse_rule/3: the host denied it, or an
    extra_reject/4 clause refuses it), wanted (want_rule/3) or idle
    (idle_because/2: available, but nothing selected it; closure.pl may
    still pull it in for a unit that requires or suggests it). Capabilities
    are checked between refusal and wanting, in capabilities.pl.

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

rule_id(sel_host_denied, "the host denied the unit for this call").
rule_id(sel_host_selected, "the host selected the unit for this call").
rule_id(sel_always, "the unit's activation is always").
rule_id(sel_all_tools, "mode all_tools: every tool in the catalog is offered").
rule_id(sel_need, "the task needs what the unit's keywords or capabilities name").
rule_id(sel_signal, "a trusted signal of the host triggers the unit").
rule_id(sel_relevant, "the unit is among the best lexical matches of the task").
rule_id(sel_not_relevant, "a relevant unit that nothing selected").

%! lexical_cut(?MaxRank, ?MinPercent) is det.
%  A lexical match selects a relevant unit when its rank is at most
%  MaxRank and its BM25 score at least MinPercent of the best match's.
lexical_cut(8, 40).

%! refuse_rule(+Input, +Unit, -Because) is semidet.
refuse_rule(_, U, because(sel_host_denied, [])) :-
    unit_prop(host(denied), U), !.
refuse_rule(In, U, because(R, Ps)) :-
    extra_reject(R, In, U, Ps), !.

%! want_rule(+Input, +Unit, -Because) is semidet.
want_rule(In, U, because(R, Ps)) :-
    extra_select(R, In, U, Ps), !.
want_rule(_, U, because(sel_host_selected, [])) :-
    unit_prop(host(selected), U), !.
want_rule(_, U, because(sel_always, [])) :-
    unit_prop(activation(always), U), !.
want_rule(In, U, because(sel_all_tools, [mode(all_tools)])) :-
    input_prop(mode(all_tools), In),
    unit_prop(kind(K), U),
    tool_kind(K), !.
want_rule(_, U, because(sel_need, [needs(Ns)])) :-
    unit_prop(needs(Ns), U),
    Ns \== [], !.
want_rule(_, U, because(sel_signal, [signals(Ss)])) :-
    unit_prop(signals(Ss), U),
    Ss \== [], !.
want_rule(_, U, because(sel_relevant, [lexical_rank(R), score_percent(P)])) :-
    unit_prop(rank(R), U),
    R > 0,
    lexical_cut(MaxRank, MinPercent),
    R =< MaxRank,
    unit_prop(percent(P), U),
    P >= MinPercent, !.

%! idle_because(+Unit, -Because) is det.
%  Why a relevant unit that nothing wanted is not selected.
idle_because(U, because(sel_not_relevant, [no_lexical_match])) :-
    unit_prop(rank(0), U), !.
idle_because(U, because(sel_not_relevant, [lexical_rank(R), score_percent(P)])) :-
    unit_prop(rank(R), U),
    unit_prop(percent(P), U).
