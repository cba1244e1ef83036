/*  compile.pl -- which candidate units are active: the pipeline Go calls.

    compile_units(+Input, +Units, -compiled(In, Out)) decides every
    candidate (see units.pl for the terms):

      In   [in(N, because(RuleID, Premises)), ...]   the active units
      Out  [out(N, because(RuleID, Premises)), ...]  every other candidate

    both in candidate order. Go decodes this by shape (every candidate
    exactly once) and packs In to the token budget; it never reads a rule
    ID to learn a decision.

    The steps, one concern per file:
      1. decide_unit/3 (here): refused (select.pl: host denial,
         extra_reject/4), unauthorized (capabilities.pl), wanted
         (select.pl), or idle (available, not selected);
      2. closure.pl: the wanted units pull in what they require and
         suggest; a unit whose requirement cannot be active is out;
      3. conflicts.pl: supersession, then conflicts; the losers are banned
         and step 2 runs again without them, until no conflict is left.
*/

%! compile_units(+Input, +Units, -Compiled) is det.
compile_units(In, Units, compiled(Ins, Outs)) :-
    T =.. [units|Units],
    decide_all(Units, In, Ds),
    S =.. [states|Ds],
    partition_states(Ds, 1, Refused, Wanted),
    requiring_units(Units, Req),
    compile_rounds(T, Req, Refused, Wanted, [], Active, NotViable, Banned),
    verdicts(Units, S, Active, NotViable, Banned, Ins, Outs).

%! decide_unit(+Input, +Unit, -State) is det.
%  State is refused(Because), wanted(Because) or idle(Because).
decide_unit(In, U, D) :-
    (   refuse_rule(In, U, B)
    ->  D = refused(B)
    ;   unauthorized(In, U, B)
    ->  D = refused(B)
    ;   want_rule(In, U, B)
    ->  D = wanted(B)
    ;   idle_because(U, B),
        D = idle(B)
    ).

decide_all([], _, []).
decide_all([U|Us], In, [D|Ds]) :-
    decide_unit(In, U, D),
    decide_all(Us, In, Ds).

% partition_states(+States, +N, -Refused, -Wanted): the numbers of the
% refused units, and N-Because of the wanted ones.
partition_states([], _, [], []).
partition_states([D|Ds], N, R, W) :-
    N1 is N + 1,
    (   D = refused(_)
    ->  R = [N|R1], W = W1
    ;   D = wanted(B)
    ->  R = R1, W = [N-B|W1]
    ;   R = R1, W = W1
    ),
    partition_states(Ds, N1, R1, W1).

% requiring_units(+Units, -Req): N-Requires for the units that require something.
requiring_units([], []).
requiring_units([U|Us], Req) :-
    unit_prop(requires(Rs), U),
    (   Rs == []
    ->  Req = Req1
    ;   unit_prop(n(N), U),
        Req = [N-Rs|Req1]
    ),
    requiring_units(Us, Req1).

% compile_rounds(+T, +Req, +Refused, +Wanted, +Banned0, -Active, -NotViable, -Banned)
compile_rounds(T, Req, Refused, Wanted, Banned0, Active, NotViable, Banned) :-
    pairs_keys_values(Banned0, BannedNs, _),
    append(Refused, BannedNs, Blocked),
    close_units(T, Req, Blocked, Wanted, Active0, NotViable0),
    conflict_losers(T, Active0, Losers),
    (   Losers == []
    ->  Active = Active0, NotViable = NotViable0, Banned = Banned0
    ;   append(Banned0, Losers, Banned1),
        compile_rounds(T, Req, Refused, Wanted, Banned1, Active, NotViable, Banned)
    ).

% verdicts(+Units, +States, +Active, +NotViable, +Banned, -Ins, -Outs):
% a banned unit is out for its conflict; a wanted unit that is not viable
% for its requirement; any other for its state.
verdicts(Units, S, Active, NotViable, Banned, Ins, Outs) :-
    length(Units, Len),
    functor(V, v, Len),
    mark_verdicts(Active, V, in),
    mark_verdicts(Banned, V, out),
    mark_verdicts(NotViable, V, out),
    emit_verdicts(1, Len, V, S, Ins, Outs).

mark_verdicts([], _, _).
mark_verdicts([N-W|Xs], V, F) :-
    arg(N, V, X),
    (   var(X)
    ->  X =.. [F, W]
    ;   true
    ),
    mark_verdicts(Xs, V, F).

emit_verdicts(N, Len, _, _, [], []) :-
    N > Len, !.
emit_verdicts(N, Len, V, S, Ins, Outs) :-
    arg(N, V, X),
    (   var(X)
    ->  arg(N, S, St),
        arg(1, St, W),
        Ins = Ins1, Outs = [out(N, W)|Outs1]
    ;   X = in(W)
    ->  Ins = [in(N, W)|Ins1], Outs = Outs1
    ;   X = out(W),
        Ins = Ins1, Outs = [out(N, W)|Outs1]
    ),
    N1 is N + 1,
    emit_verdicts(N1, Len, V, S, Ins1, Outs1).
