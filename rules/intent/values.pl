/*  values.pl -- does a slot's value name something the host has?

    A slot's type and constraints (registry.pl) say what a value looks
    like; a catalog says what the host has: the songs, artists and genres
    of a music library, the contacts of an address book. A host declares
    which slots take their values from a catalog of its own and how words
    name an entry; validation (package intent) asks these rules about every
    such value of an accept, the resolver's and a repair's alike, before
    anything runs, and an unknown value is asked for again — the value
    resolution of a voice assistant's custom slot types.

      value_check(+Intent, +Slot, +Words, -Verdict)

      Intent, Slot  atoms, as in intent/4
      Words         the value's words (strings, lowercase; package intent's
                    tokenizer)
      Verdict       known(Evidence), unknown(Evidence) or unchecked (the
                    slot has no catalog)

    Hooks (declare multifile in your own file):
      catalog(Intent, Slot)           the slot's values come from the
                                      host's catalog
      in_catalog(Intent, Slot, Words) Words name an entry of it (the
                                      host's own matching: articles, "some
                                      ... music", spelling variants)
*/

:- multifile(rule_id/2).
:- multifile(catalog/2).
:- dynamic(catalog/2).
:- multifile(in_catalog/3).
:- dynamic(in_catalog/3).

rule_id(val_in_catalog, "the slot takes values of the host's catalog, and the value names an entry of it").
rule_id(val_not_in_catalog, "the slot takes values of the host's catalog, and the value names none of its entries: ask for it again, do not guess").

%! catalogs(-Slots) is det.
%  Every catalog/2 as Intent-Slot: Go asks value_check/4 only about them.
catalogs(Ps) :-
    findall(I-S, catalog(I, S), Ps).

%! value_check(+Intent, +Slot, +Words, -Verdict) is det.
value_check(I, S, Ws, known([because(val_in_catalog, [intent(I), slot(S)])])) :-
    catalog(I, S),
    in_catalog(I, S, Ws), !.
value_check(I, S, Ws, unknown([because(val_not_in_catalog, [intent(I), slot(S), words(Ws)])])) :-
    catalog(I, S), !.
value_check(_, _, _, unchecked).
