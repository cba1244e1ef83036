/*  conflicts.pl -- supersession and conflicts among the active units.

    First supersession: a unit that an active unit supersedes is out
    (cf_superseded), unless the two supersede each other and it is the
    stronger. Then conflicts: the remaining units are taken strongest
    first, and a unit that conflicts with one already kept is out
    (cf_conflict). A conflict holds when either unit lists the other under
    conflicts, or an extra_conflict/4 clause says so.

    Strength, strongest first: selected by the host, mandatory, activation
    always, higher priority, better lexical rank, then the smaller id, so
    that the winner never depends on candidate order.

    compile.pl bans the losers and closes the remaining units again (a unit
    that requires a loser is out), until no conflict is left.

    Extension hook (declare it multifile in your own file and add clauses;
    register each RuleID with rule_id/2):
      extra_conflict(RuleID, UnitA, UnitB, Premises)
          UnitA and UnitB may not both be active; the weaker is out with
          because(RuleID, [with(StrongerId)|Premises]).
*/

:- multifile(rule_id/2).
:- multifile(extra_conflict/4).
:- dynamic(extra_conflict/4).

rule_id(cf_superseded, "an active unit supersedes this unit").
rule_id(cf_conflict, "the unit conflicts with a stronger active unit").

%! conflict_losers(+Table, +Active, -Losers) is det.
%  Losers lists N-Because for the units of Active ([N-Because]) that
%  supersession and conflicts rule out.
conflict_losers(T, Active, Losers) :-
    superseded_units(T, Active, Sup),
    exclude_losers(Active, Sup, Rest),
    by_strength(T, Rest, Ordered),
    (   catch(extra_conflict(_, _, _, _), _, true)
    ->  Hook = on
    ;   Hook = off
    ),
    keep_compatible(Ordered, T, Hook, [], [], Lost),
    append(Sup, Lost, Losers).

%! superseded_units(+Table, +Active, -Superseded) is det.
superseded_units(T, Active, Sup) :-
    findall(S-because(cf_superseded, [by(Id)]),
            (   member(N-_, Active),
                arg(N, T, U),
                unit_prop(supersedes(Ss), U),
                Ss \== [],
                unit_prop(id(Id), U),
                member(S, Ss),
                S \== N,
                memberchk(S-_, Active),
                \+ supersedes_back(T, S, N)
            ),
            Raw),
    first_per_unit(Raw, [], Sup).

% supersedes_back(+T, +S, +N): S also supersedes N and is the stronger.
supersedes_back(T, S, N) :-
    arg(S, T, US),
    unit_prop(supersedes(SS), US),
    memberchk(N, SS),
    arg(N, T, UN),
    strength_key(US, KS),
    strength_key(UN, KN),
    KS @< KN.

first_per_unit([], _, []).
first_per_unit([N-W|Xs], Seen, Out) :-
    (   memberchk(N, Seen)
    ->  Out = Out1
    ;   Out = [N-W|Out1]
    ),
    first_per_unit(Xs, [N|Seen], Out1).

exclude_losers([], _, []).
exclude_losers([N-W|Xs], Losers, Out) :-
    (   memberchk(N-_, Losers)
    ->  Out = Out1
    ;   Out = [N-W|Out1]
    ),
    exclude_losers(Xs, Losers, Out1).

%! strength_key(+Unit, -Key) is det.
%  Keys order units strongest first under the standard order of terms.
strength_key(U, k(H, M, A, P, R, Id)) :-
    unit_prop(host(Host), U),
    ( Host == selected -> H = 0 ; H = 1 ),
    unit_prop(mandatory(Mand), U),
    ( Mand == true -> M = 0 ; M = 1 ),
    unit_prop(activation(Act), U),
    ( Act == always -> A = 0 ; A = 1 ),
    unit_prop(priority(Pr), U),
    P is -Pr,
    unit_prop(rank(Rank), U),
    ( Rank > 0 -> R = Rank ; R = 1000000 ),
    unit_prop(id(Id), U).

%! by_strength(+Table, +Active, -Ns) is det.
by_strength(T, Active, Ns) :-
    findall(K-N, (member(N-_, Active), arg(N, T, U), strength_key(U, K)), Ks),
    keysort(Ks, Sorted),
    pairs_values(Sorted, Ns).

%! keep_compatible(+Ns, +Table, +Hook, +Kept, +Excluded, -Lost) is det.
%  Excluded holds the numbers the kept units list under conflicts.
keep_compatible([], _, _, _, _, []).
keep_compatible([N|Ns], T, Hook, Kept, Excl, Lost) :-
    arg(N, T, U),
    (   conflict_with(N, U, T, Hook, Kept, Excl, B)
    ->  Lost = [N-B|Lost1],
        Kept1 = Kept,
        Excl1 = Excl
    ;   Lost = Lost1,
        Kept1 = [N|Kept],
        unit_prop(conflicts(Cs), U),
        append(Cs, Excl, Excl1)
    ),
    keep_compatible(Ns, T, Hook, Kept1, Excl1, Lost1).

% conflict_with(+N, +U, +T, +Hook, +Kept, +Excluded, -Because) is semidet.
conflict_with(N, _, T, _, Kept, Excl, because(cf_conflict, [with(Id)])) :-
    memberchk(N, Excl),
    member(K, Kept),
    arg(K, T, UK),
    unit_prop(conflicts(Cs), UK),
    memberchk(N, Cs), !,
    unit_prop(id(Id), UK).
conflict_with(_, U, T, _, Kept, _, because(cf_conflict, [with(Id)])) :-
    unit_prop(conflicts(Cs), U),
    member(C, Cs),
    memberchk(C, Kept), !,
    unit_id(T, C, Id).
conflict_with(_, U, T, on, Kept, _, because(R, [with(Id)|Ps])) :-
    member(K, Kept),
    arg(K, T, UK),
    (   extra_conflict(R, U, UK, Ps)
    ;   extra_conflict(R, UK, U, Ps)
    ), !,
    unit_prop(id(Id), UK).
