/*  known.pl -- words the snapshot knows as symbol names.

    Go marks a query word that names a symbol of the snapshot as an
    identifier of shape known (bridge.ShapeKnown): a lowercase word
    ("send", "putrequest", "get") or a name with its language's legal
    characters ("empty?", "save!", "name=", "~Conn", "operator=="). The
    features carry it as id(Name, known) in idents; a known lowercase word
    stays a content word as well, so a description that mentions a
    symbol's name is still a description. These rules decide when that
    fact makes the query an identifier or relationship question (issue 10,
    fault 1); they are clauses of the extra_class_rule/4 hook of
    classify.pl, tried before the default class rules.
*/

:- multifile(rule_id/2).
:- multifile(extra_class_rule/4).

rule_id(cls_known_relation, "a relation word whose object the snapshot knows as a symbol name: a relationship question").
rule_id(cls_known_definition, "a definition cue and a word the snapshot knows as a symbol name: an identifier question").
rule_id(cls_known_name, "the query is one name the snapshot knows, with its language's characters (empty?, ~Conn)").

extra_class_rule(cls_known_relation, F, relationship, [relation(R), known_symbol(O)]) :-
    feature(relation(R), F), R \== none,
    \+ feature(cue(description(_)), F),
    feature(relation_object(O), F), O \== none,
    known_symbol(F, O),
    \+ strong_ident(F).
extra_class_rule(cls_known_definition, F, identifier, [cue(definition), known_symbol(K)]) :-
    feature(cue(definition), F),
    feature(relation(none), F),
    \+ strong_ident(F),
    feature(idents(Ids), F),
    member(id(K, known), Ids).
extra_class_rule(cls_known_name, F, identifier, [known_symbol(K)]) :-
    feature(tokens(1), F),
    feature(idents([id(K, known)]), F).

%! known_symbol(+Features, ?Name) is nondet.
%  Name is a query word the snapshot knows as a symbol name.
known_symbol(F, N) :-
    feature(idents(Ids), F),
    member(id(N, known), Ids).

%! strong_ident(+Features) is semidet.
%  The query has an identifier that looks like one by its shape; then the
%  default rules decide as before.
strong_ident(F) :-
    feature(idents(Ids), F),
    strong_idents(Ids, [_|_]).
