/*  interfaces.pl -- "which interfaces ..." lists interface definitions.
    An extension in its own directory: load it with --rules DIR. */
:- multifile(rule_id/2).
:- multifile(extra_class_rule/4).
:- multifile(extra_strategy/4).

rule_id(cls_interface_listing, "the query asks for interfaces").
rule_id(st_interfaces_bm25, "BM25 over interface definitions only").

extra_class_rule(cls_interface_listing, F, interface_listing, [word(W)]) :-
    feature(words(Ws), F),
    member(W, Ws),
    memberchk(W, ["interface", "interfaces"]), !.

extra_strategy(interface_listing, F, step(lexical, [text(T), kind(interface)], evidence),
               because(st_interfaces_bm25, [class(interface_listing), kind(interface)])) :-
    feature(text(T), F).
