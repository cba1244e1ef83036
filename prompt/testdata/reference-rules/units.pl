/*  units.pl -- the terms the prompt rules read.

    Go (package prompt) finds the candidate units of one compile -- the
    catalog's best lexical matches for the task, the always-on, mandatory,
    host-selected, needed and signalled units, and everything they require
    or suggest -- and calls

      compile_units(+Input, +Table, +Called, +Ranked, -Compiled)

    Table is units(U1, ..., Un), the candidates by number (arg(N, Table, U)
    reads one in constant time). Called holds the numbers of the candidates
    that something besides a lexical match calls for (activation always,
    mandatory, a host flag, a need, a signal, or mode all_tools for a
    tool); Ranked the
    numbers of the others, best lexical match first, candidates without a
    lexical match last. Each candidate is

      unit(N, Id, Kind, Activation, Host, Rank, Percent, Needs, Signals,
           Caps, Requires, Suggests, Conflicts, Supersedes, Priority, Mandatory)

      N           the candidate's number
      Id          the unit's id, a string (ids, titles and texts may come
                  from untrusted MCP servers: never atoms, never goals)
      Kind        tool, mcp_tool, instruction, skill, resource or context
      Activation  always or relevant
      Host        selected, denied or none: what the host said of this unit
      Rank        the unit's place among the BM25 matches of the task
                  (1 is best; 0 means no lexical match)
      Percent     its BM25 score as a whole percentage of the best match's
      Needs       the task's needs that the unit's keywords or
                  capabilities name (strings)
      Signals     the host's trusted signals among its triggers (strings)
      Caps        the capabilities the unit needs (strings)
      Requires    every candidate the unit requires, directly or through
                  another unit (Go closes the relation; candidate numbers)
      Suggests, Conflicts, Supersedes
                  what the unit itself lists (candidate numbers)
      Priority    an integer; higher packs first
      Mandatory   true or false: mandatory context may never be packed out

    The compile's input is

      input(Mode, Granted, Signals, Needs)

      Mode        compiled or all_tools
      Granted     the capabilities the host granted (strings)
      Signals     the host's trusted signals (strings)
      Needs       what the task needs, as the host said (strings)

    Read a field with its accessor (u_kind(U, K), in_mode(In, M), ...):
    each is one arg/3. ichiban/prolog unifies a head pattern such as
    unit(_, _, K, ...) by binding every one of its variables, so the
    default rules never match unit terms against patterns; unit_prop/2
    reads the same fields by name for hooks and tests.
*/

u_n(U, X)          :- arg(1, U, X).
u_id(U, X)         :- arg(2, U, X).
u_kind(U, X)       :- arg(3, U, X).
u_activation(U, X) :- arg(4, U, X).
u_host(U, X)       :- arg(5, U, X).
u_rank(U, X)       :- arg(6, U, X).
u_percent(U, X)    :- arg(7, U, X).
u_needs(U, X)      :- arg(8, U, X).
u_signals(U, X)    :- arg(9, U, X).
u_caps(U, X)       :- arg(10, U, X).
u_requires(U, X)   :- arg(11, U, X).
u_suggests(U, X)   :- arg(12, U, X).
u_conflicts(U, X)  :- arg(13, U, X).
u_supersedes(U, X) :- arg(14, U, X).
u_priority(U, X)   :- arg(15, U, X).
u_mandatory(U, X)  :- arg(16, U, X).

in_mode(In, X)     :- arg(1, In, X).
in_granted(In, X)  :- arg(2, In, X).
in_signals(In, X)  :- arg(3, In, X).
in_needs(In, X)    :- arg(4, In, X).

%! unit_prop(?Property, +Unit) is semidet.
%  Property is one of n/1, id/1, kind/1, activation/1, host/1, rank/1,
%  percent/1, needs/1, signals/1, capabilities/1, requires/1, suggests/1,
%  conflicts/1, supersedes/1, priority/1, mandatory/1.
unit_prop(n(X), U)            :- u_n(U, X).
unit_prop(id(X), U)           :- u_id(U, X).
unit_prop(kind(X), U)         :- u_kind(U, X).
unit_prop(activation(X), U)   :- u_activation(U, X).
unit_prop(host(X), U)         :- u_host(U, X).
unit_prop(rank(X), U)         :- u_rank(U, X).
unit_prop(percent(X), U)      :- u_percent(U, X).
unit_prop(needs(X), U)        :- u_needs(U, X).
unit_prop(signals(X), U)      :- u_signals(U, X).
unit_prop(capabilities(X), U) :- u_caps(U, X).
unit_prop(requires(X), U)     :- u_requires(U, X).
unit_prop(suggests(X), U)     :- u_suggests(U, X).
unit_prop(conflicts(X), U)    :- u_conflicts(U, X).
unit_prop(supersedes(X), U)   :- u_supersedes(U, X).
unit_prop(priority(X), U)     :- u_priority(U, X).
unit_prop(mandatory(X), U)    :- u_mandatory(U, X).

%! input_prop(?Property, +Input) is semidet.
%  Property is one of mode/1, granted/1, signals/1, needs/1.
input_prop(mode(X), In)    :- in_mode(In, X).
input_prop(granted(X), In) :- in_granted(In, X).
input_prop(signals(X), In) :- in_signals(In, X).
input_prop(needs(X), In)   :- in_needs(In, X).

%! tool_kind(?Kind) is nondet.
%  The kinds whose units are tool schemas (sent through the tool channel).
tool_kind(tool).
tool_kind(mcp_tool).

%! unit_id(+Table, +N, -Id) is det.
%  Id of candidate N of Table.
unit_id(T, N, Id) :-
    arg(N, T, U),
    arg(2, U, Id).

%! unit_from_list(+Properties, -Unit) is det.
%  Builds a unit term from unit_prop/2 properties; a property left out
%  takes its empty value (0, [], none, relevant, false). For tests and the
%  REPL.
unit_from_list(Ps, unit(N, Id, K, A, H, R, P, Ns, Ss, C, Rq, Sg, Cf, Sp, Pr, M)) :-
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
