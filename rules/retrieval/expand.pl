/*  expand.pl -- concept expansion and the constraints a query asks for.

    Concept expansion: a descriptive query's BM25 (and hybrid) text gains
    the terms the concept vocabularies (rules/concepts/, concept/3) relate
    to its words, for the relations expand_relation/1 names (synonym,
    narrower and inflection by default: an inflected word's base forms,
    "headers" -> "header", "decoded" -> "decode", as identifier parts
    spell them; rules/concepts/forms.pl). Each expansion is a because/2 among the premises
    of the rule that planned the step, so the plan shows the added words
    and the explanation says which word brought them, by which relation.

    Acronyms (relation acronym): when three or four adjacent words of the
    query spell the initials of a term the snapshot's search index holds
    ("return true if text is a host domain name" and is_HDN's part hdn),
    and the snapshot names no definition by those words in full, the
    text adds that term (the acronyms(As) feature, which Go finds
    against the snapshot, bridge.Acronym): a description spells out what
    the code abbreviates. because(cx_acronym, [words(Ws), adds([T])]).

    Constraints: the filters the query asks for in words (the constraints
    feature: path(S), language(L), kind(K), tests(only|exclude),
    changed(N|last), parser(P)) become
    arguments of every evidence step (a step that already has an argument
    of that name keeps its own), each with a because(cn_constraint, [C])
    among the premises of the step's rule. Check steps are not filtered:
    they verify a premise, such as that the query's target exists.

    Extension hooks (declare them multifile in your own file):
      concept(Relation, Word, Terms)   more vocabulary (rules/concepts/)
      expand_relation(Relation)        another relation expands, e.g.
                                       broader
*/

:- multifile(rule_id/2).
:- multifile(rule_id_head/1).
:- multifile(concept/3).
:- multifile(expand_relation/1).
:- dynamic(expand_relation/1).

rule_id(cx_synonym, "a word of the query has synonyms in a concept vocabulary: the search text adds them").
rule_id(cx_narrower, "a word of the query has narrower terms in a concept vocabulary: the search text adds them").
rule_id(cx_broader, "a word of the query has broader terms in a concept vocabulary: the search text adds them").
rule_id(cx_inflection, "a word of the query is inflected: the search text adds its base forms, as identifier parts spell them").
rule_id(cx_acronym, "adjacent words of the query spell the initials of a term the snapshot's search index holds: the search text adds it").
rule_id(cn_constraint, "the query asks for a filter in words: the evidence step applies it").

% expansion_rule/2 carries its rule ID as its first argument.
rule_id_head(expansion_rule/2).

%! expansion_rule(?RuleID, ?Relation) is nondet.
expansion_rule(cx_synonym, synonym).
expansion_rule(cx_narrower, narrower).
expansion_rule(cx_broader, broader).
expansion_rule(cx_inflection, inflection).

expand_relation(synonym).
expand_relation(narrower).
expand_relation(inflection).
expand_relation(acronym).

%! max_expansion(-N) is det.
%  At most N terms are added to a query's text.
max_expansion(12).

%! expand_text(+Features, +Text, -Expanded, -Whys) is det.
%  Expanded is Text followed by the terms the concept vocabularies relate
%  to the query's words (content words and plain lowercase names), then
%  the acronyms its words spell, each term once and none already a word
%  of the query; Whys has one because(RuleID, [word(W), adds(Terms)]) per
%  word that added terms and one because(cx_acronym, [words(Ws),
%  adds([T])]) per acronym.
expand_text(F, T, T2, Whys) :-
    expansion_words(F, Ws),
    max_expansion(Max),
    expand_words(Ws, Ws, Max, [], Adds0, Whys0), !,
    length(Adds0, N),
    Left is Max - N,
    expand_acronyms(F, Ws, Left, Adds0, Adds, Whys1),
    append(Whys0, Whys1, Whys),
    foldl(append_word, Adds, T, T2).

%! expand_acronyms(+Features, +Query, +Left, +Added, -Adds, -Whys) is det.
%  Adds is Added followed by the acronyms(As) terms that are neither a
%  word of Query nor added, at most Left of them.
expand_acronyms(F, Q, Left, Added, Adds, Whys) :-
    expand_relation(acronym),
    feature(acronyms(As), F), !,
    acronym_adds(As, Q, Left, Added, Adds, Whys).
expand_acronyms(_, _, _, Added, Added, []).

acronym_adds(_, _, Left, Added, Added, []) :-
    Left =< 0, !.
acronym_adds([], _, _, Added, Added, []).
acronym_adds([acronym(Ws, T)|As], Q, Left, Added, Adds, [because(cx_acronym, [words(Ws), adds([T])])|Whys]) :-
    \+ memberchk(T, Q),
    \+ memberchk(T, Added), !,
    append(Added, [T], Added1),
    Left1 is Left - 1,
    acronym_adds(As, Q, Left1, Added1, Adds, Whys).
acronym_adds([_|As], Q, Left, Added, Adds, Whys) :-
    acronym_adds(As, Q, Left, Added, Adds, Whys).

append_word(W, Acc, Out) :-
    append(Acc, [' '|W], Out).

%! expansion_words(+Features, -Words) is det.
expansion_words(F, Ws) :-
    feature(words(Ws0), F),
    feature(idents(Ids), F),
    findall(N, member(id(N, plain), Ids), Ns),
    append(Ws0, Ns, Ws).

%! expand_words(+Words, +Query, +Left, +Added, -Adds, -Whys) is det.
expand_words([], _, _, Added, Adds, []) :-
    reverse(Added, Adds).
expand_words([W|Ws], Q, Left, Added, Adds, Whys) :-
    findall(R-New,
            ( expand_relation(Rel),
              expansion_rule(R, Rel),
              concept(Rel, W, Ts),
              exclude(known(Q, Added), Ts, New0),
              list_to_set(New0, New),
              New \== [] ),
            Found),
    take_expansions(Found, W, Left, Left2, Added, Added2, Whys, Whys0),
    expand_words(Ws, Q, Left2, Added2, Adds, Whys0).

known(Q, _, T) :- memberchk(T, Q), !.
known(_, Added, T) :- memberchk(T, Added).

%! take_expansions(+Found, +Word, +Left, -Left2, +Added, -Added2, -Whys, ?Tail) is det.
take_expansions([], _, L, L, A, A, W, W) :- !.
take_expansions([R-New|Fs], Word, L, L2, A, A2, Whys, Tail) :-
    L > 0, !,
    take(New, L, Took, L1),
    reverse(Took, RTook),
    append(RTook, A, A1),
    Whys = [because(R, [word(Word), adds(Took)])|Whys1],
    take_expansions(Fs, Word, L1, L2, A1, A2, Whys1, Tail).
take_expansions(_, _, L, L, A, A, W, W).

take([], L, [], L).
take([_|_], 0, [], 0) :- !.
take([X|Xs], L, [X|Ys], L2) :-
    L1 is L - 1,
    take(Xs, L1, Ys, L2).

%! constrain(+Features, +Step, +Because, -Step2, -Because2) is det.
%  An evidence step gains the query's constraints it lacks, each with
%  because(cn_constraint, [C]) among its rule's premises.
constrain(F, step(S, A, evidence), because(R, Ps), step(S, A2, evidence), because(R, Ps2)) :- !,
    feature(constraints(Cs), F),
    foldl(add_constraint, Cs, A-[], A2-Whys),
    append(Ps, Whys, Ps2).
constrain(_, Step, Why, Step, Why).

add_constraint(C, A-W, A-W) :-
    functor(C, N, 1),
    functor(G, N, 1),
    memberchk(G, A), !.
add_constraint(C, A-W, A2-W2) :-
    append(A, [C], A2),
    append(W, [because(cn_constraint, [C])], W2).

%! constrain_steps(+Features, +Steps, -Steps2) is det.
%  constrain/5 for steps planned without a because of their own
%  (fallbacks and retargets); the constraint whys are dropped.
constrain_steps(F, Steps, Steps2) :-
    maplist(constrain_step(F), Steps, Steps2).

constrain_step(F, S, S2) :-
    constrain(F, S, because(_, []), S2, _).
