% Tests for select.pl.

test(host_denial_refuses_even_an_always_unit) :-
    unit_from_list([activation(always), host(denied)], U),
    input_from_list([], In),
    refuse_rule(In, U, because(R, _)),
    R == sel_host_denied.

test(always_is_wanted_without_any_match) :-
    unit_from_list([activation(always), rank(0)], U),
    input_from_list([], In),
    \+ refuse_rule(In, U, _),
    want_rule(In, U, because(R, _)),
    R == sel_always.

test(host_selection_comes_first) :-
    unit_from_list([activation(always), host(selected)], U),
    input_from_list([], In),
    want_rule(In, U, because(R, _)),
    R == sel_host_selected.

test(all_tools_wants_every_tool_but_not_other_kinds) :-
    unit_from_list([kind(mcp_tool)], T),
    unit_from_list([kind(skill)], S),
    input_from_list([mode(all_tools)], In),
    want_rule(In, T, because(R, _)),
    R == sel_all_tools,
    \+ want_rule(In, S, _).

test(compiled_mode_does_not_want_an_unmatched_tool) :-
    unit_from_list([kind(tool)], T),
    input_from_list([mode(compiled)], In),
    \+ want_rule(In, T, _),
    idle_because(T, because(R, Ps)),
    R == sel_not_relevant,
    Ps == [no_lexical_match].

test(a_need_or_a_signal_selects) :-
    unit_from_list([needs(["git"])], N),
    unit_from_list([signals(["git_repo"])], S),
    input_from_list([], In),
    want_rule(In, N, because(R1, P1)), R1 == sel_need, P1 == [needs(["git"])],
    want_rule(In, S, because(R2, _)), R2 == sel_signal.

test(a_good_lexical_match_is_relevant_a_weak_one_is_not) :-
    lexical_cut(MaxRank, MinPercent),
    Weak is MinPercent - 1,
    Far is MaxRank + 1,
    unit_from_list([rank(1), percent(100)], Best),
    unit_from_list([rank(2), percent(Weak)], Faint),
    unit_from_list([rank(Far), percent(90)], Deep),
    input_from_list([], In),
    want_rule(In, Best, because(R, _)), R == sel_relevant,
    \+ want_rule(In, Faint, _),
    \+ want_rule(In, Deep, _),
    idle_because(Faint, because(sel_not_relevant, [lexical_rank(2), score_percent(Weak)])).
