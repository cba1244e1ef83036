/*  packing.pl -- the explanations of Go's packing.

    Go packs the active units to the token budget (package prompt,
    pack.go): mandatory units first (a budget they cannot fit in is an
    error, never a silent drop), then the others by priority and relevance.
    A unit packed out is rejected with the because/2 term pack_because/2
    gives for the event, with Go's premises (its tokens, what the budget
    had left, the dependency that was packed out, the unit it was pulled
    in for). Go reads this table once, when the compiler loads; renaming an
    ID here changes the explanations and nothing else. Every event needs a
    clause.

    Events:
      over_budget            the unit did not fit
      dependency_packed_out  a unit it requires was packed out
      requirer_packed_out    the unit was active only because units that
                             require or suggest it were (compile.pl:
                             in/3 ... pulled), and packing left those out
*/

:- multifile(rule_id/2).

rule_id(pk_over_budget, "packing: the unit did not fit in what the token budget had left").
rule_id(pk_dependency_packed_out, "packing: a unit it requires was packed out").
rule_id(pk_requirer_packed_out, "packing: the units that brought it in were packed out").

%! pack_because(?Event, ?Because) is nondet.
pack_because(over_budget, because(pk_over_budget, [])).
pack_because(dependency_packed_out, because(pk_dependency_packed_out, [])).
pack_because(requirer_packed_out, because(pk_requirer_packed_out, [])).
