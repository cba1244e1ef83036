/*  units.pl -- the candidate-unit and input terms the prompt rules read.

    Go (package prompt) finds the candidate units of one compile -- the
    catalog's best lexical matches for the task, the always-on,
    host-selected, needed and signalled units, and everything they require
    or suggest -- and hands each to the rules as a ground data term, in
    candidate order (N = 1, 2, ...):

      unit(N, Id, Kind, Activation, Host, Rel, Caps, Links, Priority, Mandatory)

      N           the candidate's number
      Id          the unit's id, a string (ids, titles and texts may come
                  from untrusted MCP servers: never atoms, never goals)
      Kind        tool, mcp_tool, instruction, skill, resource or context
      Activation  always or relevant
      Host        selected, denied or none: what the host said of this unit
      Rel         rel(Rank, Percent, Needs, Signals):
                    Rank     the unit's place among the BM25 matches of the
                             task (1 is best; 0 means no lexical match)
                    Percent  its BM25 score as a whole percentage of the
                             best match's score (0..100)
                    Needs    the task's needs that the unit's keywords or
                             capabilities name (strings)
                    Signals  the host's trusted signals among the unit's
                             triggers (strings)
      Caps        the capabilities the unit needs (strings)
      Links       links(Requires, Suggests, Conflicts, Supersedes), each a
                  list of candidate numbers
      Priority    an integer; higher packs first
      Mandatory   true or false: mandatory context may never be packed out

    The compile's input is

      input(Mode, Granted, Signals, Needs)

      Mode        compiled or all_tools
      Granted     the capabilities the host granted (strings)
      Signals     the host's trusted signals (strings)
      Needs       what the task needs, as the host said (strings)

    Read a property with unit_prop/2 or input_prop/2, e.g.
    unit_prop(kind(K), U). The property comes first so that every wrong
    clause fails on its first argument (ichiban/prolog does no indexing).
*/

%! unit_prop(?Property, +Unit) is semidet.
%  Property is one of n/1, id/1, kind/1, activation/1, host/1, rank/1,
%  percent/1, needs/1, signals/1, capabilities/1, requires/1, suggests/1,
%  conflicts/1, supersedes/1, priority/1, mandatory/1.
unit_prop(n(X),            unit(X, _, _, _, _, _, _, _, _, _)).
unit_prop(id(X),           unit(_, X, _, _, _, _, _, _, _, _)).
unit_prop(kind(X),         unit(_, _, X, _, _, _, _, _, _, _)).
unit_prop(activation(X),   unit(_, _, _, X, _, _, _, _, _, _)).
unit_prop(host(X),         unit(_, _, _, _, X, _, _, _, _, _)).
unit_prop(rank(X),         unit(_, _, _, _, _, rel(X, _, _, _), _, _, _, _)).
unit_prop(percent(X),      unit(_, _, _, _, _, rel(_, X, _, _), _, _, _, _)).
unit_prop(needs(X),        unit(_, _, _, _, _, rel(_, _, X, _), _, _, _, _)).
unit_prop(signals(X),      unit(_, _, _, _, _, rel(_, _, _, X), _, _, _, _)).
unit_prop(capabilities(X), unit(_, _, _, _, _, _, X, _, _, _)).
unit_prop(requires(X),     unit(_, _, _, _, _, _, _, links(X, _, _, _), _, _)).
unit_prop(suggests(X),     unit(_, _, _, _, _, _, _, links(_, X, _, _), _, _)).
unit_prop(conflicts(X),    unit(_, _, _, _, _, _, _, links(_, _, X, _), _, _)).
unit_prop(supersedes(X),   unit(_, _, _, _, _, _, _, links(_, _, _, X), _, _)).
unit_prop(priority(X),     unit(_, _, _, _, _, _, _, _, X, _)).
unit_prop(mandatory(X),    unit(_, _, _, _, _, _, _, _, _, X)).

%! input_prop(?Property, +Input) is semidet.
%  Property is one of mode/1, granted/1, signals/1, needs/1.
input_prop(mode(X),    input(X, _, _, _)).
input_prop(granted(X), input(_, X, _, _)).
input_prop(signals(X), input(_, _, X, _)).
input_prop(needs(X),   input(_, _, _, X)).

%! tool_kind(?Kind) is nondet.
%  The kinds whose units are tool schemas (sent through the tool channel).
tool_kind(tool).
tool_kind(mcp_tool).

%! unit_id(+Table, +N, -Id) is det.
%  Id of candidate N of Table (units(U1, ..., Un), see compile.pl).
unit_id(T, N, Id) :-
    arg(N, T, U),
    unit_prop(id(Id), U).

%! unit_from_list(+Properties, -Unit) is det.
%  Builds a unit term from unit_prop/2 properties; a property left out
%  takes its empty value (0, [], none, relevant, false). For tests and the
%  REPL.
unit_from_list(Ps, U) :-
    U = unit(N, Id, K, A, H, rel(R, P, Ns, Ss), C, links(Rq, Sg, Cf, Sp), Pr, M),
    ufl_default(n(N), Ps, 1),
    ufl_default(id(Id), Ps, "unit"),
    ufl_default(kind(K), Ps, instruction),
    ufl_default(activation(A), Ps, relevant),
    ufl_default(host(H), Ps, none),
    ufl_default(rank(R), Ps, 0),
    ufl_default(percent(P), Ps, 0),
    ufl_default(needs(Ns), Ps, []),
    ufl_default(signals(Ss), Ps, []),
    ufl_default(capabilities(C), Ps, []),
    ufl_default(requires(Rq), Ps, []),
    ufl_default(suggests(Sg), Ps, []),
    ufl_default(conflicts(Cf), Ps, []),
    ufl_default(supersedes(Sp), Ps, []),
    ufl_default(priority(Pr), Ps, 0),
    ufl_default(mandatory(M), Ps, false).

%! input_from_list(+Properties, -Input) is det.
%  Builds an input term from input_prop/2 properties; mode defaults to
%  compiled, the lists to [].
input_from_list(Ps, input(M, G, S, N)) :-
    ufl_default(mode(M), Ps, compiled),
    ufl_default(granted(G), Ps, []),
    ufl_default(signals(S), Ps, []),
    ufl_default(needs(N), Ps, []).

ufl_default(P, Ps, _) :- memberchk(P, Ps), !.
ufl_default(P, _, D) :- arg(1, P, D).
