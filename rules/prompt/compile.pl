/*  compile.pl -- which candidate units are active: the pipeline Go calls.

    compile_units(+Input, +Table, +Called, +Ranked, -compiled(In, Out, Default))
    (see units.pl for the arguments) decides the candidates:

      In       [in(N, because(RuleID, Premises)), ...]   the active units;
               in(N, because(RuleID, Premises), pulled) for one that is
               active only because an active unit requires or suggests it
               (if packing leaves those out, Go leaves it out too)
      Out      [out(N, because(RuleID, Premises)), ...]  the other units
               the rules examined (both in any order)
      Default  because(RuleID, Premises): the reason of every candidate
               neither list names

    Go decodes this by shape (each candidate at most once in In and Out)
    and packs In to the token budget; it never reads a rule ID to learn a
    decision.

    The steps, one concern per file:
      1. examine (here): every Called unit, and the Ranked units while they
         are inside the lexical cut (all of them when an extension hook of
         select.pl is loaded), is refused (select.pl: host denial,
         extra_reject/4), unauthorized (capabilities.pl), wanted
         (select.pl) or idle;
      2. closure.pl: the wanted units pull in what they require and
         suggest (deciding those units too); a unit whose requirement
         cannot be active is out;
      3. conflicts.pl: supersession, then conflicts; the losers are banned
         and step 2 runs again without them, until no conflict is left.

    A wanted unit that lists nothing under requires, suggests, conflicts
    and supersedes (a plain unit) is active as soon as it is examined
    unless step 3 finds losers; it skips steps 2 and 3 and the verdicts.
    The decisions and reasons are those of running every step on every
    unit (prompt/testdata/reference-rules, TestDefaultRulesDecideAsTheReferencePipeline).
*/

%! compile_units(+Input, +Table, +Called, +Ranked, -Compiled) is det.
%  The units' states live in a vector of unbound variables, states(S1,
%  ..., Sn), bound once when a unit is decided (ensure_state/6,
%  select.pl), so that every lookup is one arg/3; the active units are
%  marked in another (AV), the banned ones in a third. Like the other
%  default prompt rules, this file uses no control constructs where the
%  table or a vector is in reach (see decide_unit/3).
%
%  ichiban/prolog binds every head variable of every clause it tries, so
%  what costs is the number of passes over the units and the arguments of
%  each step. A wanted unit that lists nothing under requires, suggests,
%  conflicts and supersedes (a plain unit: nothing to pull in, nothing to
%  block it in the first round, nothing it can rule out) is marked active
%  and given its in/2 term as it is examined, and passes through no later
%  step. The other decided units go on: the wanted ones to the closure
%  (closure.pl), the rest to the verdicts. When the first round's active
%  units have no conflict or supersession, that round is the answer;
%  otherwise the losers are banned and every wanted unit is closed again,
%  round after round, as closure.pl and conflicts.pl describe.
compile_units(In, T, Called, Ranked, compiled(Ins, Outs, Default)) :-
    not_examined_because(Default),
    functor(T, _, Len),
    functor(SV, states, Len),
    functor(AV, active, Len),
    examine(Called, In, T, SV, AV, [], Plain1, [], Seen1),
    examine_ranked_units(Ranked, In, T, SV, AV, Plain1, Plain, Seen1, Seen2),
    file_seen(Seen2, T, SV, AV, Linked0, [], PlainRel, [], Others0),
    keysort(Linked0, Linked),
    functor(BanV, banned, Len),
    close_linked(Linked, In, T, SV, BanV, AV, Others0, Others1, Pulled, NotViable1),
    first_round(Pulled, PlainRel, Plain, Linked, T, In, SV, BanV, AV, NotViable1, Others1,
                Others, AVn, Ins, NotViable, Banned),
    outs(Others, SV, AVn, BanV, Outs0),
    pair_outs(Banned, Outs0, Outs1),
    pair_outs(NotViable, Outs1, Outs).

% examine(+Ns, +In, +T, +SV, +AV, +Plain0, -Plain, +Seen0, -Seen): decides
% each unit of Ns not decided yet (decide_unit/3, select.pl) and files it
% (file_unit/8).
examine([], _, _, _, _, P, P, S, S).
examine([N|Ns], In, T, SV, AV, P0, P, S0, S) :-
    arg(N, SV, St),
    var(St), !,
    arg(N, T, U),
    decide_unit(In, U, St),
    file_unit(St, N, U, AV, P0, P1, S0, S1),
    examine(Ns, In, T, SV, AV, P1, P, S1, S).
examine([_|Ns], In, T, SV, AV, P0, P, S0, S) :-
    examine(Ns, In, T, SV, AV, P0, P, S0, S).

% file_unit(+State, +N, +U, +AV, +Plain0, -Plain, +Seen0, -Seen): a plain
% wanted unit is marked active and its in/2 term added to Plain; any other
% decided unit is added to Seen.
file_unit(wanted(B), N, U, AV, P0, P, S, S) :-
    arg(11, U, []),                     % requires nothing
    arg(12, U, []),                     % suggests nothing
    arg(13, U, []),                     % conflicts with nothing
    arg(14, U, []), !,                  % supersedes nothing
    arg(N, AV, yes),
    P = [in(N, B)|P0].
file_unit(_, N, _, _, P, P, S, [N|S]).

% examine_ranked_units(+Ns, +In, +T, +SV, +AV, +Plain0, -Plain, +Seen0,
% -Seen): every Ranked unit when an extension hook of select.pl is loaded,
% else those up to the first outside the lexical cut (the ones after it
% match worse), with decide_ranked/5.
examine_ranked_units(Ns, In, T, SV, AV, P0, P, S0, S) :-
    select_hooks_loaded, !,
    examine(Ns, In, T, SV, AV, P0, P, S0, S).
examine_ranked_units(Ns, In, T, SV, AV, P0, P, S0, S) :-
    lexical_cut(MaxRank, MinPercent),
    examine_ranked(Ns, MaxRank, MinPercent, In, T, SV, AV, P0, P, S0, S).

% examine_ranked(+Ns, +MaxRank, +MinPercent, ...): the units of Ns while
% they are inside the lexical cut, tested as in_lexical_cut/2 (select.pl)
% does, with lexical_cut/2 read once.
examine_ranked([N|Ns], Mx, Mn, In, T, SV, AV, P0, P, S0, S) :-
    arg(N, T, U),
    arg(6, U, R),                       % Rank
    R > 0,
    R =< Mx,
    arg(7, U, Pc),                      % Percent
    Pc >= Mn, !,
    arg(N, SV, St),
    decide_ranked(In, U, R, Pc, St),
    file_unit(St, N, U, AV, P0, P1, S0, S1),
    examine_ranked(Ns, Mx, Mn, In, T, SV, AV, P1, P, S1, S).
examine_ranked(_, _, _, _, _, _, _, P, P, S, S).

% select_hooks_loaded: an extra_select/4 or extra_reject/4 clause exists,
% so every candidate must be examined.
select_hooks_loaded :-
    catch(extra_select(_, _, _, _), _, true), !.
select_hooks_loaded :-
    catch(extra_reject(_, _, _, _), _, true), !.

% file_seen(+Seen, +T, +SV, +AV, -Linked, +PlainRel0, -PlainRel, +Others0,
%           -Others): the decided units that are not plain. A wanted unit
% that requires and suggests nothing (it lists conflicts or supersedes)
% is marked active with its in/2 term in PlainRel; another wanted unit
% goes to Linked as N-Because, for the closure; the others to Others.
file_seen([], _, _, _, [], PR, PR, O, O).
file_seen([N|Ns], T, SV, AV, L, PR0, PR, O0, O) :-
    arg(N, SV, St),
    file_state(St, N, T, AV, L, L1, PR0, PR1, O0, O1),
    file_seen(Ns, T, SV, AV, L1, PR1, PR, O1, O).

file_state(wanted(B), N, T, AV, L, L, PR0, PR, O, O) :-
    arg(N, T, U),
    arg(11, U, []),                     % requires nothing
    arg(12, U, []), !,                  % suggests nothing
    arg(N, AV, yes),
    PR = [in(N, B)|PR0].
file_state(wanted(B), N, _, _, L0, L, PR, PR, O, O) :- !,
    L0 = [N-B|L].
file_state(_, N, _, _, L, L, PR, PR, O, [N|O]).

% first_round(+Pulled, +PlainRel, +Plain, +Linked, +T, +In, +SV, +BanV,
%             +AV, +NotViable1, +Others1, -Others, -AVn, -Ins, -NotViable,
%             -Banned)
% The first round's active units are Pulled (the closure's), PlainRel and
% Plain. Without an extra_conflict/4 hook and with no active unit that
% lists conflicts or supersedes, they are the answer. Otherwise
% conflicts.pl looks for losers among them (in the order of the wanted
% units, as compile_rounds/12 lists them); when there are none they are
% the answer too, else the losers are banned and compile_rounds/12 takes
% over from the second round.
first_round(Pulled, [], Plain, _, T, _, _, _, AV, NV, Others, Others, AV, Ins, NV, []) :-
    conflict_hook(off),
    no_relations(Pulled, T), !,
    append(Pulled, Plain, Ins).
first_round(Pulled, PlainRel, Plain, Linked, T, In, SV, BanV, AV, NV1, Others1, Others, AVn, Ins, NV, Banned) :-
    append(PlainRel, Plain, Plains0),
    msort(Plains0, Plains),
    append(Pulled, Plains, Active1),
    conflict_losers(T, Active1, Losers),
    later_rounds(Losers, Active1, Plains, Linked, T, In, SV, BanV, AV, NV1, Others1, Others, AVn, Ins, NV, Banned).

later_rounds([], Active, _, _, _, _, _, _, AV, NV, Others, Others, AV, Active, NV, []) :- !.
later_rounds(Losers, _, Plains, Linked, T, In, SV, BanV, _, _, Others1, Others, AVn, Ins, NV, Banned) :-
    mark_pairs(Losers, BanV),
    in_pairs(Plains, Linked, Wanted0),
    keysort(Wanted0, Wanted),
    compile_rounds(In, T, SV, BanV, Wanted, Others1, Others, Losers, AVn, Ins, NV, Banned).

% in_pairs(+Ins, +Pairs0, -Pairs): N-Because for each in(N, Because) of
% Ins, before Pairs0.
in_pairs([], Ps, Ps).
in_pairs([I|Is], Ps0, [N-B|Ps]) :-
    arg(1, I, N),
    arg(2, I, B),
    in_pairs(Is, Ps0, Ps).

% compile_rounds(+In, +T, +SV, +BanV, +Wanted, +Seen0, -Seen, +Banned0,
%                -AV, -Active, -NotViable, -Banned): closes every wanted
% unit, resolves the conflicts, bans the losers and closes again until
% none is left.
compile_rounds(In, T, SV, BanV, Wanted, Seen0, Seen, Banned0, AV, Active, NotViable, Banned) :-
    close_units(In, T, SV, BanV, Wanted, Seen0, Seen1, AV0, Active0, NotViable0),
    conflict_losers(T, Active0, Losers),
    next_round(Losers, In, T, SV, BanV, Wanted, Seen1, Seen, Banned0, AV0, Active0, NotViable0, AV, Active, NotViable, Banned).

next_round([], _, _, _, _, _, Seen, Seen, Banned, AV, Active, NotViable, AV, Active, NotViable, Banned) :- !.
next_round(Losers, In, T, SV, BanV, Wanted, Seen0, Seen, Banned0, _, _, _, AV, Active, NotViable, Banned) :-
    mark_pairs(Losers, BanV),
    append(Banned0, Losers, Banned1),
    compile_rounds(In, T, SV, BanV, Wanted, Seen0, Seen, Banned1, AV, Active, NotViable, Banned).

% outs(+Others, +SV, +AV, +BanV, -Outs): out(N, Because) for each unit of
% Others that is neither active nor banned, with its state's reason.
outs([], _, _, _, []).
outs([N|Ns], SV, AV, BanV, Outs) :-
    arg(N, AV, X),
    var(X),
    arg(N, BanV, Y),
    var(Y), !,
    arg(N, SV, St),
    arg(1, St, W),
    Outs = [out(N, W)|Outs1],
    outs(Ns, SV, AV, BanV, Outs1).
outs([_|Ns], SV, AV, BanV, Outs) :-
    outs(Ns, SV, AV, BanV, Outs).

% pair_outs(+Pairs, +Outs0, -Outs): out(N, Because) for each N-Because,
% before Outs0: the banned units (their conflict) and the wanted units
% that are not viable (their requirement).
pair_outs([], Outs, Outs).
pair_outs([N-W|Ps], Outs0, [out(N, W)|Outs]) :-
    pair_outs(Ps, Outs0, Outs).
