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
:- multifile(rule_id_head/1).

% extra_conflict/4 clauses carry their rule ID first (see select.pl).
rule_id_head(extra_conflict/4).

rule_id(cf_superseded, "an active unit supersedes this unit").
rule_id(cf_conflict, "the unit conflicts with a stronger active unit").

%! conflict_losers(+Table, +Active, -Losers) is det.
%  Losers lists N-Because for the units of Active that supersession and
%  conflicts rule out. Each element of Active is a term whose first
%  argument is a candidate number: N-Because, or the in/2 and in/3 terms
%  of closure.pl. Like compile.pl, no control
%  constructs where the table is in reach.
conflict_losers(T, Active, Losers) :-
    conflict_hook(Hook),
    losers(Hook, T, Active, Losers).

% conflict_hook(-Hook): on when an extra_conflict/4 clause exists.
conflict_hook(on) :-
    catch(extra_conflict(_, _, _, _), _, true), !.
conflict_hook(off).

losers(off, T, Active, []) :-
    no_relations(Active, T), !.
losers(Hook, T, Active, Losers) :-
    functor(T, _, Len),
    functor(AV, active, Len),
    mark_pairs(Active, AV),
    superseded_units(Active, T, AV, Raw),
    first_per_unit(Raw, [], Sup),
    exclude_losers(Active, Sup, Rest),
    strength_keys(Rest, T, Ks),
    keysort(Ks, Sorted),
    pairs_values(Sorted, Ordered),
    keep_compatible(Ordered, T, Hook, [], [], Lost),
    append(Sup, Lost, Losers).

%! no_relations(+Active, +T) is semidet.
%  No unit of Active (as for conflict_losers/3) lists conflicts or
%  supersedes.
no_relations(Active, T) :-
    has_relations(Active, T), !,
    fail.
no_relations(_, _).

% has_relations(+Active, +T): some active unit lists conflicts or
% supersedes.
has_relations([P|_], T) :-
    arg(1, P, N),
    arg(N, T, U),
    arg(13, U, Cs),                     % Conflicts
    arg(14, U, Ss),                     % Supersedes
    relations(Cs, Ss), !.
has_relations([_|Ps], T) :-
    has_relations(Ps, T).

relations([_|_], _).
relations([], [_|_]).

%! superseded_units(+Active, +Table, +AV, -Superseded) is det.
%  S-because(cf_superseded, [by(Id)]) for every active S that an active
%  unit Id supersedes, unless S supersedes it back and is the stronger.
superseded_units([], _, _, []).
superseded_units([P|Ps], T, AV, Sup) :-
    arg(1, P, N),
    arg(N, T, U),
    u_id(U, Id),
    u_supersedes(U, Ss),
    superseded_by(Ss, N, Id, T, AV, Sup, Sup1),
    superseded_units(Ps, T, AV, Sup1).

superseded_by([], _, _, _, _, Sup, Sup).
superseded_by([S|Ss], N, Id, T, AV, [S-because(cf_superseded, [by(Id)])|Sup], Sup0) :-
    S =\= N,
    arg(S, AV, X),
    nonvar(X),
    not_supersedes_back(T, S, N), !,
    superseded_by(Ss, N, Id, T, AV, Sup, Sup0).
superseded_by([_|Ss], N, Id, T, AV, Sup, Sup0) :-
    superseded_by(Ss, N, Id, T, AV, Sup, Sup0).

not_supersedes_back(T, S, N) :-
    supersedes_back(T, S, N), !,
    fail.
not_supersedes_back(_, _, _).

% supersedes_back(+T, +S, +N): S also supersedes N and is the stronger.
supersedes_back(T, S, N) :-
    arg(S, T, US),
    u_supersedes(US, SS),
    memberchk(N, SS),
    arg(N, T, UN),
    strength_key(US, KS),
    strength_key(UN, KN),
    KS @< KN.

first_per_unit([], _, []).
first_per_unit([N-_|Xs], Seen, Out) :-
    memberchk(N, Seen), !,
    first_per_unit(Xs, Seen, Out).
first_per_unit([N-W|Xs], Seen, [N-W|Out]) :-
    first_per_unit(Xs, [N|Seen], Out).

exclude_losers([], _, []).
exclude_losers([P|Xs], Losers, Out) :-
    arg(1, P, N),
    memberchk(N-_, Losers), !,
    exclude_losers(Xs, Losers, Out).
exclude_losers([P|Xs], Losers, [P|Out]) :-
    exclude_losers(Xs, Losers, Out).

%! strength_key(+Unit, -Key) is det.
%  Keys order units strongest first under the standard order of terms.
strength_key(U, k(H, M, A, P, R, Id)) :-
    u_id(U, Id),
    u_activation(U, Act),
    u_host(U, Host),
    u_rank(U, Rank),
    u_priority(U, Pr),
    u_mandatory(U, Mand),
    host_key(Host, H),
    mandatory_key(Mand, M),
    activation_key(Act, A),
    P is -Pr,
    rank_key(Rank, R).

host_key(selected, 0) :- !.
host_key(_, 1).
mandatory_key(true, 0) :- !.
mandatory_key(_, 1).
activation_key(always, 0) :- !.
activation_key(_, 1).
rank_key(0, 1000000) :- !.
rank_key(R, R).

% strength_keys(+Active, +T, -Pairs): Key-N for each active unit.
strength_keys([], _, []).
strength_keys([P|Ps], T, [K-N|Ks]) :-
    arg(1, P, N),
    arg(N, T, U),
    strength_key(U, K),
    strength_keys(Ps, T, Ks).

%! keep_compatible(+Ns, +Table, +Hook, +Kept, +Excluded, -Lost) is det.
%  Takes Ns strongest first; Excluded holds the numbers the kept units
%  list under conflicts.
keep_compatible([], _, _, _, _, []).
keep_compatible([N|Ns], T, Hook, Kept, Excl, [N-B|Lost]) :-
    arg(N, T, U),
    conflict_with(N, U, T, Hook, Kept, Excl, B), !,
    keep_compatible(Ns, T, Hook, Kept, Excl, Lost).
keep_compatible([N|Ns], T, Hook, Kept, Excl, Lost) :-
    arg(N, T, U),
    u_conflicts(U, Cs),
    append(Cs, Excl, Excl1),
    keep_compatible(Ns, T, Hook, [N|Kept], Excl1, Lost).

% conflict_with(+N, +U, +T, +Hook, +Kept, +Excluded, -Because) is semidet.
conflict_with(N, _, T, _, Kept, Excl, because(cf_conflict, [with(Id)])) :-
    memberchk(N, Excl),
    member(K, Kept),
    arg(K, T, UK),
    u_conflicts(UK, Cs),
    memberchk(N, Cs), !,
    u_id(UK, Id).
conflict_with(_, U, T, _, Kept, _, because(cf_conflict, [with(Id)])) :-
    u_conflicts(U, Cs),
    member(C, Cs),
    memberchk(C, Kept), !,
    unit_id(T, C, Id).
conflict_with(_, U, T, on, Kept, _, because(R, [with(Id)|Ps])) :-
    member(K, Kept),
    arg(K, T, UK),
    extra_conflict(R, U, UK, Ps), !,
    u_id(UK, Id).
conflict_with(_, U, T, on, Kept, _, because(R, [with(Id)|Ps])) :-
    member(K, Kept),
    arg(K, T, UK),
    extra_conflict(R, UK, U, Ps), !,
    u_id(UK, Id).
