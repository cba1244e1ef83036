/*  interfaces.pl -- "which interfaces ..." lists interface definitions.
    An extension in its own directory: load it with --rules DIR. */
:- multifile(rule_id/2).
:- multifile(extra_class_rule/4).
:- multifile(extra_strategy/4).
:- multifile(extra_fallback/5).

rule_id(cls_interface_listing, "the query asks for interfaces").
rule_id(st_interfaces_bm25, "BM25 over interface definitions only, with the query's other words").
rule_id(fb_all_interfaces, "no interface matched the words: list the interfaces").

extra_class_rule(cls_interface_listing, F, interface_listing, [word(W)]) :-
    feature(words(Ws), F), member(W, Ws), interface_word(W), !.

extra_strategy(interface_listing, F, step(lexical, [text(T), kind(interface)], evidence),
               because(st_interfaces_bm25, [class(interface_listing), words(Rest)])) :-
    feature(words(Ws), F), exclude(interface_word, Ws, Rest), Rest = [W|More],
    foldl(join_words, More, W, T).

extra_fallback(interface_listing, no_lexical_hits, _, [step(structural, [kind(interface)], evidence)],
               because(fb_all_interfaces, [gap(no_lexical_hits)])).

interface_word("interface").
interface_word("interfaces").
join_words(W, Acc, T) :- append(Acc, [' '|W], T).
