/*  packing.pl -- the explanations of Go's packing.

    Go packs the active units to the token budget (package prompt,
    pack.go): mandatory units first (a budget they cannot fit in is an
    error, never a silent drop), then the others by priority and relevance.
    A unit packed out is rejected with the because/2 term pack_because/2
    gives for the event, with Go's premises (its tokens, what the budget
    had left, the dependency that was packed out). Go reads this table
    once, when the compiler loads; renaming an ID here changes the
    explanations and nothing else.

    Events: over_budget, dependency_packed_out.
*/

:- multifile(rule_id/2).

rule_id(pk_over_budget, "packing: the unit did not fit in what the token budget had left").
rule_id(pk_dependency_packed_out, "packing: a unit it requires was packed out").

%! pack_because(?Event, ?Because) is nondet.
pack_because(over_budget, because(pk_over_budget, [])).
pack_because(dependency_packed_out, because(pk_dependency_packed_out, [])).
