% Tests for compile.pl: the whole pipeline on small candidate lists.

% git(-Units): git_diff (a good match) requires git_status; project_search
% is a faint match; git_push needs git.write; style is always on.
git([D, St, Ps, Pu, Sy]) :-
    unit_from_list([n(1), id("git_diff"), kind(tool), rank(1), percent(100), requires([2])], D),
    unit_from_list([n(2), id("git_status"), kind(tool), rank(3), percent(20)], St),
    unit_from_list([n(3), id("project_search"), kind(tool), rank(2), percent(15)], Ps),
    unit_from_list([n(4), id("git_push"), kind(tool), rank(4), percent(60), capabilities(["git.write"])], Pu),
    unit_from_list([n(5), id("style"), kind(instruction), activation(always)], Sy).

% run(+In, +Units, -Compiled): every unit called, as Go would pass
% always-on and host-flagged units; nothing ranked.
run(In, Us, C) :-
    T =.. [units|Us],
    findall(N, (member(U, Us), u_n(U, N)), Ns),
    compile_units(In, T, Ns, [], C).

% setarg_host(+Unit, +Host, -Unit1): Unit with another host flag.
setarg_host(U0, H, U) :-
    U0 =.. [unit, N, Id, K, A, _|Rest],
    U =.. [unit, N, Id, K, A, H|Rest].

test(every_candidate_is_decided_once) :-
    git(Us),
    input_from_list([granted(["git.read"])], In),
    run(In, Us, compiled(Ins, Outs, _)),
    findall(N, (member(I, Ins), arg(1, I, N)), InNs0),
    findall(N, member(out(N, _), Outs), OutNs0),
    msort(InNs0, InNs),
    msort(OutNs0, OutNs),
    InNs == [1, 2, 5],
    OutNs == [3, 4].

test(the_reasons_name_the_rules) :-
    git(Us),
    input_from_list([], In),
    run(In, Us, compiled(Ins, Outs, _)),
    memberchk(in(1, because(sel_relevant, _)), Ins),
    memberchk(in(2, because(cl_required, [by("git_diff")]), pulled), Ins),
    memberchk(in(5, because(sel_always, [])), Ins),
    memberchk(out(3, because(sel_not_relevant, [lexical_rank(2), score_percent(15)])), Outs),
    memberchk(out(4, because(cap_missing, [missing(["git.write"])])), Outs).

test(only_units_active_for_another_are_pulled) :-
    unit_from_list([n(1), id("migrate"), kind(skill), rank(1), percent(100), requires([2, 3])], M),
    unit_from_list([n(2), id("helper"), kind(resource)], H),
    unit_from_list([n(3), id("rollback"), kind(skill), rank(2), percent(90)], R),
    input_from_list([], In),
    run(In, [M, H, R], compiled(Ins0, [], _)),
    msort(Ins0, Ins),
    Ins == [in(1, because(sel_relevant, [lexical_rank(1), score_percent(100)])),
            in(3, because(sel_relevant, [lexical_rank(2), score_percent(90)])),
            in(2, because(cl_required, [by("migrate")]), pulled)].

test(all_tools_mode_activates_every_authorized_tool) :-
    git(Us),
    input_from_list([mode(all_tools), granted(["git.write"])], In),
    run(In, Us, compiled(Ins, Outs, _)),
    findall(N, (member(I, Ins), arg(1, I, N)), InNs0),
    msort(InNs0, InNs),
    InNs == [1, 2, 3, 4, 5],
    Outs == [].

test(denying_a_requirement_takes_its_dependent_out) :-
    git([D, St0, Ps, Pu, Sy]),
    setarg_host(St0, denied, St),
    input_from_list([], In),
    run(In, [D, St, Ps, Pu, Sy], compiled(Ins, Outs, _)),
    \+ memberchk(in(1, _), Ins),
    memberchk(out(1, because(cl_requires_unavailable, [requires("git_status")])), Outs),
    memberchk(out(2, because(sel_host_denied, [])), Outs).

test(a_conflict_loser_is_out_and_its_dependents_with_it) :-
    unit_from_list([n(1), id("ripgrep"), kind(tool), rank(1), percent(100), conflicts([3])], A),
    unit_from_list([n(2), id("rg_help"), kind(skill), activation(always), requires([1])], B),
    unit_from_list([n(3), id("grep"), kind(tool), activation(always)], C),
    input_from_list([], In),
    run(In, [A, B, C], compiled(Ins, Outs, _)),
    Ins == [in(3, because(sel_always, []))],
    memberchk(out(1, because(cf_conflict, [with("grep")])), Outs),
    memberchk(out(2, because(cl_requires_unavailable, [requires("ripgrep")])), Outs).


% (With an extension hook of select.pl loaded every Ranked unit is
% examined, so Outs may then name unit 2.)
test(ranked_units_past_the_lexical_cut_are_out) :-
    lexical_cut(MaxRank, _),
    Far is MaxRank + 1,
    unit_from_list([n(1), id("near"), kind(tool), rank(1), percent(100)], A),
    unit_from_list([n(2), id("weak"), kind(tool), rank(2), percent(1)], B),
    unit_from_list([n(3), id("far"), kind(tool), rank(Far), percent(90), requires([4])], C),
    unit_from_list([n(4), id("dep"), kind(tool)], D),
    unit_from_list([n(5), id("base"), kind(skill), activation(always), requires([3, 4])], E),
    input_from_list([], In),
    compile_units(In, units(A, B, C, D, E), [5], [1, 2, 3, 4], compiled(Ins0, Outs, Default)),
    msort(Ins0, Ins),
    Ins == [in(1, because(sel_relevant, [lexical_rank(1), score_percent(100)])),
            in(5, because(sel_always, [])),
            in(3, because(cl_required, [by("base")]), pulled),
            in(4, because(cl_required, [by("base")]), pulled)],
    \+ memberchk(out(1, _), Outs),
    \+ memberchk(out(5, _), Outs),
    Default = because(sel_not_relevant, [lexical_cut(_, _)]).

% A wanted unit that requires and suggests nothing but lists supersedes or
% conflicts is not plain: its relations still rule units out.
test(a_unit_that_pulls_nothing_still_supersedes) :-
    unit_from_list([n(1), id("style_v2"), kind(instruction), rank(1), percent(100), supersedes([2])], A),
    unit_from_list([n(2), id("style_v1"), kind(instruction), activation(always)], B),
    input_from_list([], In),
    compile_units(In, units(A, B), [2], [1], compiled(Ins, Outs, _)),
    Ins == [in(1, because(sel_relevant, [lexical_rank(1), score_percent(100)]))],
    Outs == [out(2, because(cf_superseded, [by("style_v2")]))].

test(a_unit_that_pulls_nothing_still_conflicts) :-
    unit_from_list([n(1), id("grep"), kind(tool), rank(1), percent(100), conflicts([2])], A),
    unit_from_list([n(2), id("ripgrep"), kind(tool), activation(always)], B),
    input_from_list([], In),
    compile_units(In, units(A, B), [2], [1], compiled(Ins, Outs, _)),
    Ins == [in(2, because(sel_always, []))],
    Outs == [out(1, because(cf_conflict, [with("ripgrep")]))].

% A wanted unit that suggests something is not plain: what it suggests
% comes with it.
test(a_wanted_unit_brings_what_it_suggests) :-
    unit_from_list([n(1), id("deploy"), kind(tool), rank(1), percent(100), suggests([2])], A),
    unit_from_list([n(2), id("rollback_notes"), kind(skill)], B),
    input_from_list([], In),
    compile_units(In, units(A, B), [], [1, 2], compiled(Ins0, Outs, _)),
    msort(Ins0, Ins),
    Ins == [in(1, because(sel_relevant, [lexical_rank(1), score_percent(100)])),
            in(2, because(cl_suggested, [by("deploy")]), pulled)],
    Outs == [].

% A unit that requires another and lists conflicts is checked for
% conflicts even when no plain unit lists any.
test(a_unit_with_requirements_still_conflicts) :-
    unit_from_list([n(1), id("ripgrep"), kind(tool), rank(1), percent(100), requires([2]), conflicts([3])], A),
    unit_from_list([n(2), id("rg_config"), kind(resource)], B),
    unit_from_list([n(3), id("grep"), kind(tool), activation(always)], C),
    input_from_list([], In),
    compile_units(In, units(A, B, C), [3], [1, 2], compiled(Ins, Outs, _)),
    Ins == [in(3, because(sel_always, []))],
    memberchk(out(1, because(cf_conflict, [with("grep")])), Outs).
