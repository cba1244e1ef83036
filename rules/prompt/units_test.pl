% Tests for units.pl.

test(properties_read_their_own_positions) :-
    unit_from_list([n(3), id("git_diff"), kind(tool), rank(2), percent(80),
                    requires([1]), supersedes([2]), priority(5), mandatory(true)], U),
    unit_prop(n(N), U), N == 3,
    unit_prop(id(Id), U), Id == "git_diff",
    unit_prop(kind(K), U), K == tool,
    unit_prop(activation(A), U), A == relevant,
    unit_prop(rank(R), U), R == 2,
    unit_prop(percent(P), U), P == 80,
    unit_prop(requires(Rq), U), Rq == [1],
    unit_prop(conflicts(Cf), U), Cf == [],
    unit_prop(supersedes(Sp), U), Sp == [2],
    unit_prop(priority(Pr), U), Pr == 5,
    unit_prop(mandatory(M), U), M == true.

test(input_defaults_to_compiled_mode) :-
    input_from_list([granted(["git.read"])], In),
    input_prop(mode(M), In), M == compiled,
    input_prop(granted(G), In), G == ["git.read"],
    input_prop(needs(Ns), In), Ns == [].

test(unit_id_reads_a_table_by_number) :-
    unit_from_list([n(1), id("a")], A),
    unit_from_list([n(2), id("b")], B),
    unit_id(units(A, B), 2, Id),
    Id == "b".

test(only_tool_kinds_are_tool_kinds) :-
    tool_kind(tool), tool_kind(mcp_tool),
    \+ tool_kind(skill), \+ tool_kind(instruction).
