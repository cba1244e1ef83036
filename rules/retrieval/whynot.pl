/*  whynot.pl -- why was a strategy not planned, or a symbol not found?

    whynot_strategy(+Features, +Available, +Strategy, -Verdict) asks the
    planning rules themselves (plan_features/3, classify/3, candidate/4,
    supersedes/3) why Strategy is or is not in the plan for a backend
    offering Available. whynot_symbol/6 asks why a symbol is not among an
    answer's hits, given what Go found about it in the snapshot and the
    steps the search ran. Verdicts, decoded by shape:

      planned(Because)           the strategy is in the plan
      in_answer(Because)         the symbol is among the hits
      excluded(Because, Change)  Because names the rule that excluded it
                                 and its premises; Change is the premise
                                 that would have to change:
        available(S)             the backend offering S (an embedder)
        not_available(S)         the backend not offering S
        class(C, ClassRule)      the query being of class C (ClassRule)
        Condition                what the class's step needs: an
                                 identifier, a strong_identifier, a
                                 relation_target, content_words,
                                 no_content_words, tokens, filters_only
                                 (filters and no words or names)
        defined(Name)            a definition of Name in the snapshot
        without(Arg)             the step without its filter (or
                                 demotion) Arg
        query_names(Name)        the query naming Name
        asks_definition(Name)    the query asking for Name's definition
        limit_over(N)            a limit over N hits
*/

:- multifile(rule_id/2).

rule_id(wn_planned, "the strategy is in the plan: nothing excluded it").
rule_id(wn_not_available, "the rules would plan the strategy, but the backend does not offer it").
rule_id(wn_superseded, "another strategy the backend offers supersedes it for this class").
rule_id(wn_condition_unmet, "the class can plan the strategy, but the query lacks what its step needs").
rule_id(wn_class_excludes, "the query's class never plans the strategy").
rule_id(wn_in_answer, "the symbol is among the answer's hits").
rule_id(wn_symbol_absent, "no definition of the symbol is in the snapshot").
rule_id(wn_filtered, "a step that sought the symbol filtered its definitions out").
rule_id(wn_only_checked, "the symbol is the query's target: a check step verified it, the evidence is about its edges").
rule_id(wn_not_sought, "no evidence step of the plan looked for the symbol").
rule_id(wn_ranked_out, "a step that sought the symbol filled the limit with others: it may rank below them").
rule_id(wn_not_matched, "the steps that sought the symbol found all they could under the limit, and not it: it does not match them (a graph step: no such edge; a text step: too few of its words)").
rule_id(wn_demoted, "a step that sought the symbol ranked its role after the others, and the others filled the limit").

%! all_strategies(-Strategies) is det.
all_strategies([exact, structural, graph, lexical, vector, hybrid]).

%! class_plans(?Class, ?Strategy, ?Needs) is nondet.
%  The strategies each default class can plan (candidate/4 and the
%  embedding candidates of candidate/5), and what the query needs for the
%  step to be planned. strategy_test.pl checks it against the candidates.
class_plans(identifier, exact, identifier).
class_plans(relationship, exact, relation_target).
class_plans(relationship, graph, relation_target).
class_plans(conceptual, exact, strong_identifier).
class_plans(conceptual, lexical, content_words).
class_plans(conceptual, hybrid, content_words).
class_plans(path, structural, no_content_words).
class_plans(path, lexical, content_words).
class_plans(broad, exact, identifier).
class_plans(broad, lexical, tokens).
class_plans(broad, structural, filters_only).
class_plans(broad, vector, tokens).

%! class_by(?Class, ?ClassRule) is nondet.
%  The class rule that most directly gives each class.
class_by(identifier, cls_bare_identifier).
class_by(relationship, cls_relation).
class_by(conceptual, cls_descriptive).
class_by(path, cls_path).
class_by(broad, cls_single_word).

%! whynot_strategy(+Features, +Available, +Strategy, -Verdict) is det.
whynot_strategy(F, Avail, S, planned(because(wn_planned, [strategy(S), class(Class), planned_by(R)]))) :-
    plan_features(F, Avail, plan(Class, Steps, [_|Whys])),
    nth0(I, Steps, step(S, _, _)),
    nth0(I, Whys, because(R, _)), !.
whynot_strategy(F, Avail, S, excluded(because(wn_superseded, [strategy(S), class(Class), superseded_by(By)]), not_available(By))) :-
    classify(F, Class, _),
    candidate(Class, F, Step, _),
    Step = step(S, _, _),
    supersedes(Class, Step, By),
    memberchk(By, Avail), !.
whynot_strategy(F, Avail, S, excluded(because(wn_not_available, [strategy(S), class(Class), available(Avail)]), available(S))) :-
    \+ memberchk(S, Avail),
    classify(F, Class, _),
    all_strategies(All),
    candidate(Class, F, All, step(S, _, _), _), !.
whynot_strategy(F, _, S, excluded(because(wn_condition_unmet, [strategy(S), class(Class), needs(Needs)]), Needs)) :-
    classify(F, Class, _),
    class_plans(Class, S, Needs), !.
whynot_strategy(F, _, S, excluded(because(wn_class_excludes, [strategy(S), class(Class), class_rule(CR), premises(CP)]), class(Other, OtherRule))) :-
    classify(F, Class, because(CR, CP)),
    class_plans(Other, S, _),
    class_by(Other, OtherRule), !.

%! whynot_symbol(+Symbol, +HitSymbols, +Definitions, +Ran, +Limit, -Verdict) is det.
%  Symbol (a string) is not, or is, among HitSymbols (the answer's hits'
%  names); Definitions lists def(Path, Kind, Language, Role, Changed,
%  Parser) for each definition of Symbol in the snapshot (Role is source,
%  test or example; Changed the project generation that last wrote its
%  file, an integer; Parser the name of the parser that read it); Ran is
%  ran(Step, Count) for each step the search ran; Limit is the answer's
%  hit limit.
whynot_symbol(Sym, Hits, _, _, _, in_answer(because(wn_in_answer, [symbol(Sym)]))) :-
    memberchk(Sym, Hits), !.
whynot_symbol(Sym, _, [], _, _, excluded(because(wn_symbol_absent, [symbol(Sym)]), defined(Sym))) :- !.
whynot_symbol(Sym, _, Defs, Ran, _, excluded(because(wn_filtered, [symbol(Sym), step(Step), filter(Arg), def(Path)]), without(Arg))) :-
    member(ran(Step, _), Ran),
    Step = step(_, Args, evidence),
    seeks(Step, Sym),
    member(Arg, Args),
    member(Def, Defs),
    filters_out(Arg, Def),
    Def = def(Path, _, _, _, _, _), !.
whynot_symbol(Sym, _, _, Ran, _, excluded(because(wn_only_checked, [symbol(Sym), step(Step)]), asks_definition(Sym))) :-
    member(ran(Step, C), Ran),
    Step = step(exact, Args, check),
    C > 0,
    memberchk(name(N), Args),
    same_text(N, Sym), !.
whynot_symbol(Sym, _, _, Ran, _, excluded(because(wn_not_sought, [symbol(Sym), evidence(Steps)]), query_names(Sym))) :-
    \+ ( member(ran(Step, _), Ran), Step = step(_, _, evidence), seeks(Step, Sym) ), !,
    findall(S, member(ran(step(S, _, evidence), _), Ran), Steps).
whynot_symbol(Sym, _, Defs, Ran, Limit, excluded(because(wn_demoted, [symbol(Sym), step(Step), role(Role), hits(C), limit(Limit)]), without(demote(Role)))) :-
    member(ran(Step, C), Ran),
    Step = step(_, Args, evidence),
    seeks(Step, Sym),
    C >= Limit,
    member(def(_, _, _, Role, _, _), Defs),
    memberchk(demote(Role), Args), !.
whynot_symbol(Sym, _, _, Ran, Limit, excluded(because(wn_ranked_out, [symbol(Sym), step(Step), hits(C), limit(Limit)]), limit_over(Limit))) :-
    member(ran(Step, C), Ran),
    Step = step(_, _, evidence),
    seeks(Step, Sym),
    C >= Limit, !.
whynot_symbol(Sym, _, _, Ran, Limit, excluded(because(wn_not_matched, [symbol(Sym), step(Step), hits(C), limit(Limit)]), matches(Step))) :-
    member(ran(Step, C), Ran),
    Step = step(_, _, evidence),
    seeks(Step, Sym), !.

%! seeks(+Step, +Symbol) is semidet.
%  An exact step seeks only its name; a graph step the symbols related to
%  its name, never the name itself; text and structure steps may find any
%  definition.
seeks(step(exact, Args, _), Sym) :- !,
    memberchk(name(N), Args),
    same_text(N, Sym).
seeks(step(graph, Args, _), Sym) :- !,
    memberchk(name(N), Args),
    \+ same_text(N, Sym).
seeks(_, _).

%! filters_out(+StepArg, +Definition) is semidet.
filters_out(tests(exclude), def(_, _, _, test, _, _)).
filters_out(tests(only), def(_, _, _, Role, _, _)) :-
    Role \== test.
filters_out(examples(exclude), def(_, _, _, example, _, _)).
filters_out(examples(only), def(_, _, _, Role, _, _)) :-
    Role \== example.
filters_out(kind(K), def(_, K2, _, _, _, _)) :-
    \+ same_text(K, K2).
filters_out(language(L), def(_, _, L2, _, _, _)) :-
    \+ same_text(L, L2).
filters_out(path(P), def(DP, _, _, _, _, _)) :-
    text_chars(P, PC),
    text_chars(DP, DC),
    \+ append(PC, _, DC).
filters_out(changed(N), def(_, _, _, _, C, _)) :-
    integer(N),
    C =< N.
filters_out(parser(P), def(_, _, _, _, _, DP)) :-
    \+ same_text(P, DP).

%! same_text(+A, +B) is semidet.
%  A and B are the same text, each an atom or a string.
same_text(A, B) :-
    text_chars(A, C),
    text_chars(B, C).

text_chars(A, C) :-
    atom(A), !,
    atom_chars(A, C).
text_chars(C, C).
