/*  closure.pl -- what the wanted units bring with them.

    A unit is viable when it is not blocked (refused by select.pl or
    capabilities.pl, or banned by conflicts.pl) and everything it requires
    is viable. The active units are the viable wanted units, everything
    they require (transitively), and every viable unit an active unit
    suggests (with what that one requires). A wanted unit that is not
    viable is out, naming the requirement that cannot be met.

    Go hands the rules every unit a candidate requires or suggests, so
    requirements are always candidate numbers.
*/

:- multifile(rule_id/2).

rule_id(cl_required, "an active unit requires this unit").
rule_id(cl_suggested, "an active unit suggests this unit").
rule_id(cl_requires_unavailable, "the unit requires a unit that cannot be active").

%! close_units(+Table, +Requiring, +Blocked, +Wanted, -Active, -NotViable) is det.
%  Table      units(U1, ..., Un), see compile.pl
%  Requiring  [N-Requires] for the units that require something
%  Blocked    numbers of the units that may not be active
%  Wanted     [N-Because] the wanted units
%  Active     [N-Because] the active units: the viable wanted ones with
%             their reasons, and the units they pulled in
%  NotViable  [N-Because] the units ruled out by an unmet requirement
close_units(T, Req, Blocked0, Wanted, Active, NotViable) :-
    viability(T, Req, Blocked0, [], Blocked, NotViable),
    exclude_blocked(Wanted, Blocked, Base),
    grow_active(T, Blocked, Base, Base, Active).

%! viability(+Table, +Requiring, +Blocked0, +NV0, -Blocked, -NotViable) is det.
%  Adds to Blocked0, until nothing changes, every unit that requires a
%  blocked unit.
viability(T, Req, B0, NV0, B, NV) :-
    newly_blocked(Req, T, B0, New),
    (   New == []
    ->  B = B0, NV = NV0
    ;   pairs_keys_values(New, Ns, _),
        append(Ns, B0, B1),
        append(NV0, New, NV1),
        viability(T, Req, B1, NV1, B, NV)
    ).

newly_blocked([], _, _, []).
newly_blocked([N-Rs|More], T, B0, New) :-
    (   \+ memberchk(N, B0),
        member(R, Rs),
        memberchk(R, B0)
    ->  unit_id(T, R, Id),
        New = [N-because(cl_requires_unavailable, [requires(Id)])|New1]
    ;   New = New1
    ),
    newly_blocked(More, T, B0, New1).

exclude_blocked([], _, []).
exclude_blocked([N-W|Xs], Bl, Out) :-
    (   memberchk(N, Bl)
    ->  Out = Out1
    ;   Out = [N-W|Out1]
    ),
    exclude_blocked(Xs, Bl, Out1).

%! grow_active(+Table, +Blocked, +Queue, +Active0, -Active) is det.
%  Pulls in what the units of Queue require and suggest, breadth first.
grow_active(_, _, [], A, A).
grow_active(T, Bl, [N-_|Q], A0, A) :-
    arg(N, T, U),
    unit_prop(requires(Rs), U),
    unit_prop(suggests(Ss), U),
    (   Rs == [], Ss == []
    ->  A2 = A0, New = []
    ;   unit_prop(id(Id), U),
        pull_units(Rs, because(cl_required, [by(Id)]), Bl, A0, A1, [], New1),
        pull_units(Ss, because(cl_suggested, [by(Id)]), Bl, A1, A2, New1, New)
    ),
    append(Q, New, Q1),
    grow_active(T, Bl, Q1, A2, A).

%! pull_units(+Ns, +Because, +Blocked, +Active0, -Active, +New0, -New) is det.
%  Adds each unit of Ns that is neither active nor blocked to Active (and
%  to New) with the reason Because.
pull_units([], _, _, A, A, New, New).
pull_units([R|Rs], W, Bl, A0, A, New0, New) :-
    (   (   memberchk(R-_, A0)
        ;   memberchk(R, Bl)
        )
    ->  A1 = A0, New1 = New0
    ;   E = R-W,
        A1 = [E|A0],
        New1 = [E|New0]
    ),
    pull_units(Rs, W, Bl, A1, A, New1, New).
