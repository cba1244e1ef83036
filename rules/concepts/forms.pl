/*  forms.pl -- an inflected word's base forms, as identifier parts spell them.

    concept(inflection, Word, Forms): Forms are the base forms the
    inflected content word Word may stand for ("headers" -> "header",
    "decoded" -> "decode", "parsed" -> "parse"), computed in Go by the host
    predicate word_forms/2 (bridge.WordForms: Snowball stems). A
    description says "decodes the headers" where the code says Decode and
    header_length; the BM25 index does not stem, so the search text adds
    the base forms (retrieval/expand.pl, relation inflection). A harness
    drops it with a layer file that leaves inflection out of
    expand_relation/1 (a file expand.pl replaces the default one).
*/

:- multifile(concept/3).

concept(inflection, W, Forms) :-
    nonvar(W),                      % a query's word, not an enumeration
    word_forms(W, Forms),
    Forms \== [].
