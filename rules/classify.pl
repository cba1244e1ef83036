/*  classify.pl -- what kind of information need is this query?

    Input is the feature list Go computes from the query text (see
    bridge.QueryFeatures); the text itself is only data here. Every
    property is always present:

      tokens(N)            number of tokens
      content(N)           natural-language words that are not stopwords,
                           relation words or identifiers
      idents(Ids)          identifier-shaped tokens, in order, as
                           id(Name, Shape); Shape is one of pascal, camel,
                           snake, qualified, acronym, call, quoted, plain
      paths(Ps)            path-like tokens (strings)
      quoted(Qs)           quoted strings
      relation(R)          callers, callees, references or none
      relation_object(O)   the word after the relation phrase, or none
      cue(C)               definition or none ("where is X defined")
      text(T)              the whole query text

    Classes: identifier, relationship, conceptual, path, broad.
*/

%! prop(+Features, ?Property) is semidet.
%  Property is one of the feature properties above.
prop(F, P) :- memberchk(P, F).

%! classify(+Features, -Class, -Because) is det.
%  Class is the first class whose rule fires, in the order the class_rule/4
%  clauses are written; Because is because(RuleID, Premises).
classify(F, Class, because(Rule, Premises)) :-
    class_rule(Rule, F, Class, Premises), !.

% class_rule(RuleID, Features, Class, Premises)
class_rule(cls_empty, F, broad, [tokens(0)]) :-
    prop(F, tokens(0)).
class_rule(cls_path, F, path, [paths(Ps)]) :-
    prop(F, paths(Ps)), Ps \== [].
class_rule(cls_relation, F, relationship, [relation(R), target(T)]) :-
    prop(F, relation(R)), R \== none,
    target(F, T).
class_rule(cls_definition_cue, F, identifier, [cue(definition), target(T)]) :-
    prop(F, cue(definition)),
    target(F, T).
class_rule(cls_bare_identifier, F, identifier, [ident(T, Shape), content(N)]) :-
    prop(F, idents(Ids)),
    strong_idents(Ids, [id(T, Shape)]),
    prop(F, content(N)), N =< 1.
class_rule(cls_descriptive, F, conceptual, [content(N)]) :-
    prop(F, content(N)), N >= 2.
class_rule(cls_identifiers_only, F, identifier, [idents(Ids)]) :-
    prop(F, idents(Ids)),
    strong_idents(Ids, [_|_]).
class_rule(cls_single_word, F, broad, [idents(Ids)]) :-
    prop(F, idents(Ids)), Ids = [_|_].
class_rule(cls_fallback_broad, _, broad, []).

%! strong_shape(?Shape) is nondet.
%  Shapes that look like a program name rather than a word or an acronym.
strong_shape(pascal).
strong_shape(camel).
strong_shape(snake).
strong_shape(qualified).
strong_shape(call).
strong_shape(quoted).

%! strong_idents(+Ids, -Strong) is det.
strong_idents([], []).
strong_idents([id(N, S)|Ids], Out) :-
    (   strong_shape(S)
    ->  Out = [id(N, S)|Rest]
    ;   Out = Rest
    ),
    strong_idents(Ids, Rest).

%! target(+Features, -Name) is semidet.
%  The symbol a query is about: the relation's object if it is an
%  identifier, else the first strong identifier, else any identifier, else
%  the relation's object word.
target(F, T) :-
    prop(F, relation_object(T)), T \== none,
    prop(F, idents(Ids)), memberchk(id(T, _), Ids), !.
target(F, T) :-
    prop(F, idents(Ids)), strong_idents(Ids, [id(T, _)|_]), !.
target(F, T) :-
    prop(F, idents([id(T, _)|_])), !.
target(F, T) :-
    prop(F, relation_object(T)), T \== none.
