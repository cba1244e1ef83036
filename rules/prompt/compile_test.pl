% Tests for compile.pl: the whole pipeline on small candidate lists.

% git(-Units): git_diff (a good match) requires git_status; project_search
% is a faint match; git_push needs git.write; style is always on.
git([D, St, Ps, Pu, Sy]) :-
    unit_from_list([n(1), id("git_diff"), kind(tool), rank(1), percent(100), requires([2])], D),
    unit_from_list([n(2), id("git_status"), kind(tool), rank(3), percent(20)], St),
    unit_from_list([n(3), id("project_search"), kind(tool), rank(2), percent(15)], Ps),
    unit_from_list([n(4), id("git_push"), kind(tool), rank(4), percent(60), capabilities(["git.write"])], Pu),
    unit_from_list([n(5), id("style"), kind(instruction), activation(always)], Sy).

test(every_candidate_is_decided_once_in_candidate_order) :-
    git(Us),
    input_from_list([granted(["git.read"])], In),
    compile_units(In, Us, compiled(Ins, Outs)),
    findall(N, member(in(N, _), Ins), InNs),
    findall(N, member(out(N, _), Outs), OutNs),
    InNs == [1, 2, 5],
    OutNs == [3, 4].

test(the_reasons_name_the_rules) :-
    git(Us),
    input_from_list([], In),
    compile_units(In, Us, compiled(Ins, Outs)),
    memberchk(in(1, because(sel_relevant, _)), Ins),
    memberchk(in(2, because(cl_required, [by("git_diff")])), Ins),
    memberchk(in(5, because(sel_always, [])), Ins),
    memberchk(out(3, because(sel_not_relevant, [lexical_rank(2), score_percent(15)])), Outs),
    memberchk(out(4, because(cap_missing, [missing(["git.write"])])), Outs).

test(all_tools_mode_activates_every_authorized_tool) :-
    git(Us),
    input_from_list([mode(all_tools), granted(["git.write"])], In),
    compile_units(In, Us, compiled(Ins, Outs)),
    findall(N, member(in(N, _), Ins), InNs),
    InNs == [1, 2, 3, 4, 5],
    Outs == [].

test(denying_a_requirement_takes_its_dependent_out) :-
    git([D, St0, Ps, Pu, Sy]),
    setarg_host(St0, denied, St),
    input_from_list([], In),
    compile_units(In, [D, St, Ps, Pu, Sy], compiled(Ins, Outs)),
    \+ memberchk(in(1, _), Ins),
    memberchk(out(1, because(cl_requires_unavailable, [requires("git_status")])), Outs),
    memberchk(out(2, because(sel_host_denied, [])), Outs).

test(a_conflict_loser_is_out_and_its_dependents_with_it) :-
    unit_from_list([n(1), id("ripgrep"), kind(tool), rank(1), percent(100), conflicts([3])], A),
    unit_from_list([n(2), id("rg_help"), kind(skill), activation(always), requires([1])], B),
    unit_from_list([n(3), id("grep"), kind(tool), activation(always)], C),
    input_from_list([], In),
    compile_units(In, [A, B, C], compiled(Ins, Outs)),
    Ins == [in(3, because(sel_always, []))],
    memberchk(out(1, because(cf_conflict, [with("grep")])), Outs),
    memberchk(out(2, because(cl_requires_unavailable, [requires("ripgrep")])), Outs).

% setarg_host(+Unit, +Host, -Unit1): Unit with another host flag.
setarg_host(unit(N, Id, K, A, _, R, C, L, P, M), H, unit(N, Id, K, A, H, R, C, L, P, M)).
