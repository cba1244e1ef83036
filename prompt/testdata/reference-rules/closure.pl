/*  closure.pl -- what the wanted units bring with them.

    A unit is blocked when it is refused (select.pl, capabilities.pl) or
    banned (conflicts.pl). A wanted unit is active when neither it nor
    anything it requires is blocked (Go hands every candidate's Requires
    closed over the relation, units.pl), and everything it requires is
    active with it (cl_required). Every unit an active wanted unit
    suggests is active too (cl_suggested) when neither it nor what it
    requires is blocked, with what it requires. A wanted unit with a
    blocked requirement is out (cl_requires_unavailable), naming it.

    The units reached this way are decided when first needed
    (ensure_state/6, select.pl). Active units are marked in a vector of
    unbound variables, so that a membership test is one arg/3.
*/

:- multifile(rule_id/2).

rule_id(cl_required, "an active unit requires this unit").
rule_id(cl_suggested, "an active unit suggests this unit").
rule_id(cl_requires_unavailable, "the unit requires a unit that cannot be active").

%! close_units(+In, +T, +SV, +BanV, +Wanted, +Seen0, -Seen, -Active, -NotViable) is det.
%  In, T, SV   the input, the candidate table, the state vector (compile.pl)
%  BanV        a vector marking the banned units
%  Wanted      [N-Because] the wanted units
%  Seen        Seen0 with every unit decided on the way
%  Active      [N-Because] the active units; Because is pulled(Because1)
%              for a unit active only because an active unit requires or
%              suggests it
%  NotViable   [N-Because] the wanted units ruled out by a requirement
close_units(In, T, SV, BanV, Wanted, Seen0, Seen, Active, NotViable) :-
    functor(T, _, Len),
    functor(AV, active, Len),
    plain_wanted(Wanted, T, BanV, AV, Plain, Others),
    viable_wanted(Others, In, T, SV, BanV, AV, Seen0, Seen1, Base, NotViable),
    pull_all(Base, In, T, SV, BanV, AV, Seen1, Seen, Plain, Active).

% plain_wanted(+Wanted, +T, +BanV, +AV, -Plain, -Others): Plain the wanted
% units that require and suggest nothing and are not banned, marked
% active in AV (nothing to pull in, nothing to block them); Others the
% rest.
plain_wanted([], _, _, _, [], []).
plain_wanted([N-W|Ws], T, BanV, AV, [N-W|Plain], Others) :-
    arg(N, T, U),
    arg(11, U, []),                     % requires nothing
    arg(12, U, []),                     % suggests nothing
    arg(N, BanV, X),
    var(X), !,
    arg(N, AV, yes),
    plain_wanted(Ws, T, BanV, AV, Plain, Others).
plain_wanted([P|Ws], T, BanV, AV, Plain, [P|Others]) :-
    plain_wanted(Ws, T, BanV, AV, Plain, Others).

% viable_wanted(+Wanted, +In, +T, +SV, +BanV, +AV, +Seen0, -Seen, -Base,
%               -NotViable)
% The wanted units that are not blocked and require nothing blocked,
% marked active in AV: Base; the others are NotViable.
viable_wanted([], _, _, _, _, _, Seen, Seen, [], []).
viable_wanted([N-W|Ws], In, T, SV, BanV, AV, Seen0, Seen, Base, NV) :-
    arg(N, T, U),
    u_requires(U, Rs),
    first_blocked([N|Rs], In, T, SV, BanV, Seen0, Seen1, B),
    viable_or_not(B, N, W, T, AV, Base, Base1, NV, NV1),
    viable_wanted(Ws, In, T, SV, BanV, AV, Seen1, Seen, Base1, NV1).

% viable_or_not(+Blocked, +N, +W, +T, +AV, -Base, ?Base1, -NV, ?NV1)
viable_or_not(none, N, W, _, AV, [N-W|Base], Base, NV, NV) :- !,
    arg(N, AV, yes).
viable_or_not(N, N, _, _, _, Base, Base, NV, NV) :- !.
viable_or_not(M, N, _, T, _, Base, Base, [N-because(cl_requires_unavailable, [requires(Id)])|NV], NV) :-
    unit_id(T, M, Id).

%! first_blocked(+Ns, +In, +T, +SV, +BanV, +Seen0, -Seen, -B) is det.
%  B is the first unit of Ns that is refused or banned, deciding each on
%  the way; none if there is none. Call it with B unbound.
first_blocked([], _, _, _, _, Seen, Seen, none).
first_blocked([M|Ms], In, T, SV, BanV, Seen0, Seen, B) :-
    ensure_state(In, T, SV, M, Seen0, Seen1),
    arg(M, SV, St),
    arg(M, BanV, X),
    blocked_or_next(St, X, M, Ms, In, T, SV, BanV, Seen1, Seen, B).

blocked_or_next(refused(_), _, M, _, _, _, _, _, Seen, Seen, M) :- !.
blocked_or_next(_, X, M, _, _, _, _, _, Seen, Seen, M) :-
    nonvar(X), !.
blocked_or_next(_, _, _, Ms, In, T, SV, BanV, Seen0, Seen, B) :-
    first_blocked(Ms, In, T, SV, BanV, Seen0, Seen, B).

% pull_all(+Base, +In, +T, +SV, +BanV, +AV, +Seen0, -Seen, +Active0, -Active)
% Adds each base unit, what it requires, and what it suggests when that
% can be active.
pull_all([], _, _, _, _, _, Seen, Seen, A, A).
pull_all([N-W|Ps], In, T, SV, BanV, AV, Seen0, Seen, A0, A) :-
    arg(N, T, U),
    u_requires(U, Rs),
    u_suggests(U, Ss),
    u_id(U, Id),
    pull_required(Rs, pulled(because(cl_required, [by(Id)])), AV, [N-W|A0], A1),
    pull_suggested(Ss, Id, In, T, SV, BanV, AV, Seen0, Seen1, A1, A2),
    pull_all(Ps, In, T, SV, BanV, AV, Seen1, Seen, A2, A).

% pull_required(+Ns, +Pulled, +AV, +A0, -A): each of Ns not active yet
% becomes active with Pulled, pulled(Because).
pull_required([], _, _, A, A).
pull_required([R|Rs], W, AV, A0, A) :-
    arg(R, AV, X),
    var(X), !,
    X = yes,
    pull_required(Rs, W, AV, [R-W|A0], A).
pull_required([_|Rs], W, AV, A0, A) :-
    pull_required(Rs, W, AV, A0, A).

% pull_suggested(+Ss, +ById, +In, +T, +SV, +BanV, +AV, +Seen0, -Seen, +A0, -A)
pull_suggested([], _, _, _, _, _, _, Seen, Seen, A, A).
pull_suggested([S|Ss], By, In, T, SV, BanV, AV, Seen0, Seen, A0, A) :-
    arg(S, AV, X),
    var(X),
    arg(S, T, U),
    u_requires(U, Rs),
    first_blocked([S|Rs], In, T, SV, BanV, Seen0, Seen1, B),
    B == none, !,
    X = yes,
    u_id(U, Id),
    pull_required(Rs, pulled(because(cl_required, [by(Id)])), AV, [S-pulled(because(cl_suggested, [by(By)]))|A0], A1),
    pull_suggested(Ss, By, In, T, SV, BanV, AV, Seen1, Seen, A1, A).
pull_suggested([_|Ss], By, In, T, SV, BanV, AV, Seen0, Seen, A0, A) :-
    pull_suggested(Ss, By, In, T, SV, BanV, AV, Seen0, Seen, A0, A).

mark_pairs([], _).
mark_pairs([N-_|Ps], V) :-
    arg(N, V, yes),
    mark_pairs(Ps, V).
