/*  classify.pl -- what kind of information need is this query?

    Input is the features term Go computes from the query text (see
    bridge.QueryFeatures); the text itself is only data here. It is
    features(Tokens, Content, Idents, Paths, Quoted, Relation,
    RelationObject, Cue, Text, Words, Constraints, SourceNames, Opening,
    Acronyms); read it
    with feature/2, which names each argument by a property:

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
      cue(C)               definition ("where is X defined"),
                           description(Subject) (worded as a doc
                           comment about Subject, a string: "Tokens
                           returns an iterator over …"; its definition
                           words are words of the description, see
                           wording.pl)
                           or none
      text(T)              the whole query text
      words(Ws)            the content words, lowercased (strings)
      constraints(Cs)      the filters the query asks for in words:
                           path(S) ("in sourcefacts/"), language(L)
                           ("python only"), kind(K) ("functions only"),
                           tests(only) ("tests only"), tests(exclude)
                           ("non-test"), changed(last) ("changed since
                           last index", "recently changed"), changed(N)
                           ("changed since generation 5", N an integer),
                           parser(P) ("tree-sitter only", "prolog facts";
                           P is 'tree-sitter' or 'ichiban-prolog'); their
                           words are in none of the properties above (but
                           count in tokens)
      source_names(Ns)     the names of idents (strings) the snapshot
                           defines in its own code, not only in tests or
                           examples (bridge.Lexicon.Source; [] when Go
                           had no snapshot to ask)
      opening(Ws)          the query's first words (at most eight of its
                           tokens, quoted spans left out), lowercased,
                           stopwords included (strings): its opening
                           phrase, see typeword.pl
      acronyms(As)         acronym(Words, Term) for each term of the
                           snapshot's search index that spells the
                           initials of three or four adjacent content
                           words ("host domain name": "hdn") the
                           snapshot names no definition by in full
                           (strings; bridge.Acronym, [] without a
                           snapshot); see
                           expand.pl

    Classes: identifier, relationship, conceptual, path, broad; harness
    authors add classes with the extra_class_rule/4 hook.

    Extension hook (declare it multifile in your own file and add clauses):
      extra_class_rule(RuleID, Features, Class, Premises)
          tried before the default class rules, in load order; the first
          that succeeds decides the class. Register RuleID with rule_id/2.
*/

:- multifile(rule_id/2).
:- multifile(extra_class_rule/4).
:- dynamic(extra_class_rule/4).

%! rule_id(?RuleID, ?Meaning) is nondet.
%  The registry of decision rules: every rule ID that appears in a
%  because/2 (or as a class rule's ID) is registered here with a one-line
%  meaning, in the file that uses it. Explanations show the ID; Go never
%  reads IDs to learn a decision (it decodes outcome terms by shape).
rule_id(cls_empty, "the query has no tokens").
rule_id(cls_path, "the query names a path").
rule_id(cls_relation, "a relation word (calls, callers, uses) with a target").
rule_id(cls_definition_cue, "a definition cue (where is X defined) with a target").
rule_id(cls_bare_identifier, "one strong identifier and at most one content word").
rule_id(cls_descriptive, "two or more content words: a description").
rule_id(cls_identifiers_only, "only identifiers").
rule_id(cls_single_word, "a single plain word").
rule_id(cls_fallback_broad, "nothing more specific applies").

%! feature(?Property, +Features) is semidet.
%  Property is one of the properties above, e.g. feature(tokens(N), F).
%  The property's clause of feature_arg/3 is chosen by its first argument
%  (a head of three small arguments, tried in turn, no list scan) and
%  arg/3 reads the one argument of Features it names: the interpreter
%  (which indexes no clauses) binds two variables, not Features' fourteen
%  arguments, per look-up.
feature(P, F) :-
    functor(F, features, 14),
    feature_arg(P, I, X),
    arg(I, F, X).

%! feature_arg(?Property, ?Index, ?Value) is nondet.
%  Property's value is argument Index of the features term.
feature_arg(tokens(X), 1, X).
feature_arg(content(X), 2, X).
feature_arg(idents(X), 3, X).
feature_arg(paths(X), 4, X).
feature_arg(quoted(X), 5, X).
feature_arg(relation(X), 6, X).
feature_arg(relation_object(X), 7, X).
feature_arg(cue(X), 8, X).
feature_arg(text(X), 9, X).
feature_arg(words(X), 10, X).
feature_arg(constraints(X), 11, X).
feature_arg(source_names(X), 12, X).
feature_arg(opening(X), 13, X).
feature_arg(acronyms(X), 14, X).

%! features_from_list(+Properties, -Features) is det.
%  Builds a features term from a list of properties; a property left out
%  takes its empty value (0, [], none, or "" for text). For tests and the
%  REPL.
features_from_list(Ps, F) :-
    F = features(T, C, I, P, Q, R, O, Cu, X, W, Cs, Sn, Op, Ac),
    fl_default(tokens(T), Ps, 0),
    fl_default(content(C), Ps, 0),
    fl_default(idents(I), Ps, []),
    fl_default(paths(P), Ps, []),
    fl_default(quoted(Q), Ps, []),
    fl_default(relation(R), Ps, none),
    fl_default(relation_object(O), Ps, none),
    fl_default(cue(Cu), Ps, none),
    fl_default(text(X), Ps, []),
    fl_default(words(W), Ps, []),
    fl_default(constraints(Cs), Ps, []),
    fl_default(source_names(Sn), Ps, []),
    fl_default(opening(Op), Ps, []),
    fl_default(acronyms(Ac), Ps, []).

fl_default(Prop, Ps, Default) :-
    (   memberchk(Prop, Ps)
    ->  true
    ;   arg(1, Prop, Default)
    ).

%! classify(+Features, -Class, -Because) is det.
%  Class is the first class whose rule fires, in the order the class_rule/4
%  clauses are written; Because is because(RuleID, Premises).
classify(F, Class, because(Rule, Premises)) :-
    class_rule(Rule, F, Class, Premises), !.

% class_rule(RuleID, Features, Class, Premises)
class_rule(Rule, F, Class, Premises) :-
    extra_class_rule(Rule, F, Class, Premises).
class_rule(cls_empty, F, broad, [tokens(0)]) :-
    feature(tokens(0), F).
class_rule(cls_path, F, path, [paths(Ps)]) :-
    feature(paths(Ps), F), Ps \== [].
class_rule(cls_relation, F, relationship, [relation(R), target(T)]) :-
    feature(relation(R), F), R \== none,
    target(F, T).
class_rule(cls_definition_cue, F, identifier, [cue(definition), target(T)]) :-
    feature(cue(definition), F),
    target(F, T).
class_rule(cls_bare_identifier, F, identifier, [ident(T, Shape), content(N)]) :-
    feature(idents(Ids), F),
    strong_idents(Ids, [id(T, Shape)]),
    feature(content(N), F), N =< 1.
class_rule(cls_descriptive, F, conceptual, [content(N)]) :-
    feature(content(N), F), N >= 2.
class_rule(cls_identifiers_only, F, identifier, [idents(Ids)]) :-
    feature(idents(Ids), F),
    strong_idents(Ids, [_|_]).
class_rule(cls_single_word, F, broad, [idents(Ids)]) :-
    feature(idents(Ids), F), Ids = [_|_].
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
    feature(relation_object(T), F), T \== none,
    feature(idents(Ids), F), memberchk(id(T, _), Ids), !.
target(F, T) :-
    feature(idents(Ids), F), strong_idents(Ids, [id(T, _)|_]), !.
target(F, T) :-
    feature(idents([id(T, _)|_]), F), !.
target(F, T) :-
    feature(relation_object(T), F), T \== none.
