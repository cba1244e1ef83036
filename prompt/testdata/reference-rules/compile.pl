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
*/

%! compile_units(+Input, +Table, +Called, +Ranked, -Compiled) is det.
%  The units' states live in a vector of unbound variables, states(S1,
%  ..., Sn), bound once when a unit is decided (ensure_state/6,
%  select.pl), so that every lookup is one arg/3; the banned units are
%  marked in another. Like the other default prompt rules, this file uses
%  no control constructs where the table or a vector is in reach (see
%  decide_unit/3).
compile_units(In, T, Called, Ranked, compiled(Ins, Outs, Default)) :-
    not_examined_because(Default),
    functor(T, _, Len),
    functor(SV, states, Len),
    functor(BanV, banned, Len),
    examine(Called, In, T, SV, [], Seen1),
    examine_ranked_units(Ranked, In, T, SV, Seen1, Seen2),
    wanted_units(Seen2, SV, W0),
    keysort(W0, Wanted),
    compile_rounds(In, T, SV, BanV, Wanted, Seen2, Seen, [], Active, NotViable, Banned),
    verdicts(SV, Seen, Active, NotViable, Banned, Ins, Outs).

% examine(+Ns, +In, +T, +SV, +Seen0, -Seen): decides each unit of Ns not
% decided yet; Seen lists the decided units.
examine([], _, _, _, Seen, Seen).
examine([N|Ns], In, T, SV, Seen0, Seen) :-
    arg(N, SV, St),
    var(St), !,
    arg(N, T, U),
    decide_unit(In, U, St),
    examine(Ns, In, T, SV, [N|Seen0], Seen).
examine([_|Ns], In, T, SV, Seen0, Seen) :-
    examine(Ns, In, T, SV, Seen0, Seen).

% examine_ranked_units(+Ns, +In, +T, +SV, +Seen0, -Seen): every Ranked
% unit when an extension hook of select.pl is loaded, else those up to
% the first outside the lexical cut (the ones after it match worse),
% with decide_ranked/5.
examine_ranked_units(Ns, In, T, SV, Seen0, Seen) :-
    select_hooks_loaded, !,
    examine(Ns, In, T, SV, Seen0, Seen).
examine_ranked_units(Ns, In, T, SV, Seen0, Seen) :-
    examine_ranked(Ns, In, T, SV, Seen0, Seen).

examine_ranked([N|Ns], In, T, SV, Seen0, Seen) :-
    arg(N, T, U),
    arg(6, U, R),                       % Rank
    arg(7, U, P),                       % Percent
    in_lexical_cut(R, P), !,
    arg(N, SV, St),
    decide_ranked(In, U, R, P, St),
    examine_ranked(Ns, In, T, SV, [N|Seen0], Seen).
examine_ranked(_, _, _, _, Seen, Seen).

% select_hooks_loaded: an extra_select/4 or extra_reject/4 clause exists,
% so every candidate must be examined.
select_hooks_loaded :-
    catch(extra_select(_, _, _, _), _, true), !.
select_hooks_loaded :-
    catch(extra_reject(_, _, _, _), _, true), !.

% wanted_units(+Seen, +SV, -Wanted): N-Because of the wanted units.
wanted_units([], _, []).
wanted_units([N|Ns], SV, [N-B|W]) :-
    arg(N, SV, St),
    St = wanted(B), !,
    wanted_units(Ns, SV, W).
wanted_units([_|Ns], SV, W) :-
    wanted_units(Ns, SV, W).

% compile_rounds(+In, +T, +SV, +BanV, +Wanted, +Seen0, -Seen, +Banned0,
%                -Active, -NotViable, -Banned): closes, resolves the
% conflicts, bans the losers and closes again until none is left.
compile_rounds(In, T, SV, BanV, Wanted, Seen0, Seen, Banned0, Active, NotViable, Banned) :-
    close_units(In, T, SV, BanV, Wanted, Seen0, Seen1, Active0, NotViable0),
    conflict_losers(T, Active0, Losers),
    next_round(Losers, In, T, SV, BanV, Wanted, Seen1, Seen, Banned0, Active0, NotViable0, Active, NotViable, Banned).

next_round([], _, _, _, _, _, Seen, Seen, Banned, Active, NotViable, Active, NotViable, Banned) :- !.
next_round(Losers, In, T, SV, BanV, Wanted, Seen0, Seen, Banned0, _, _, Active, NotViable, Banned) :-
    mark_pairs(Losers, BanV),
    append(Banned0, Losers, Banned1),
    compile_rounds(In, T, SV, BanV, Wanted, Seen0, Seen, Banned1, Active, NotViable, Banned).

% verdicts(+SV, +Seen, +Active, +NotViable, +Banned, -Ins, -Outs): every
% decided unit. An active unit that closure.pl pulled in is pulled. A
% banned unit is out for its conflict; a wanted unit that is not viable
% for its requirement; any other inactive unit for its state.
verdicts(SV, Seen, Active, NotViable, Banned, Ins, Outs) :-
    functor(SV, _, Len),
    functor(AV, active, Len),
    ins(Active, AV, Ins),
    outs(Seen, SV, AV, NotViable, Banned, Outs).

ins([], _, []).
ins([N-W|Ps], AV, [I|Ins]) :-
    arg(N, AV, yes),
    in_term(W, N, I),
    ins(Ps, AV, Ins).

% in_term(+Because, +N, -In): in/2 for a unit wanted on its own, in/3 for
% a pulled one (Because pulled(Because1), closure.pl).
in_term(pulled(W), N, I) :- !,
    I = in(N, W, pulled).
in_term(W, N, I) :-
    I = in(N, W).

outs([], _, _, _, _, []).
outs([N|Ns], SV, AV, NV, Bn, Outs) :-
    arg(N, AV, X),
    nonvar(X), !,
    outs(Ns, SV, AV, NV, Bn, Outs).
outs([N|Ns], SV, AV, NV, Bn, [out(N, W)|Outs]) :-
    arg(N, SV, St),
    out_because(N, St, NV, Bn, W),
    outs(Ns, SV, AV, NV, Bn, Outs).

out_because(N, _, _, Bn, W) :-
    memberchk(N-W, Bn), !.
out_because(N, wanted(_), NV, _, W) :-
    memberchk(N-W, NV), !.
out_because(_, St, _, _, W) :-
    arg(1, St, W).
