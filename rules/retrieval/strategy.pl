/*  strategy.pl -- which strategies, in which order, and what to do on a gap.

    A step is step(Strategy, Args, Role):
      Strategy  exact, structural, graph, lexical, vector, hybrid
      Args      a list of name(S), case(insensitive), relation(R), text(S),
                emphasis(doc) (a description's text: BM25 weighs doc
                comments more),
                path(S), kind(K), language(L), tests(exclude), tests(only),
                examples(exclude), examples(only), demote(test),
                demote(example) (roles.pl), changed(N) (an integer: the
                file changed after project generation N) or changed(last)
                (in the snapshot's own generation), parser(P)
                ('tree-sitter', 'ichiban-prolog')
      Role      evidence (its hits answer the query) or check (it verifies
                a premise, e.g. that the target symbol exists)

    Steps run in cost order: cheap exact and structural lookups before
    graph walks, graph before BM25, BM25 before embeddings. Go checks every
    step against the closed vocabulary in bridge/steps.go (strategies,
    roles, arguments) and refuses a plan with an unknown one.

    Extension hooks (declare them multifile in your own file):
      extra_strategy(Class, Features, Step, Because)
          more candidate steps for Class (a default class or one added
          with extra_class_rule/4); planned in cost order with the
          defaults, and only if the backend offers the step's strategy.
      extra_strategy(Class, Features, Available, Step, Because)
          the same, for steps that depend on the backend's capabilities
          (Available: its strategies and embedder(Nature), see
          plan_features/3), e.g. on whether its vectors are trusted
          (trusted_vectors/1, vectors.pl).
      extra_fallback(Class, Gap, History, Steps, Because)
          tried before the default fallbacks when a step left Gap.
*/

:- multifile(rule_id/2).
:- multifile(extra_strategy/4).
:- dynamic(extra_strategy/4).
:- multifile(extra_strategy/5).
:- dynamic(extra_strategy/5).
:- multifile(extra_fallback/5).
:- dynamic(extra_fallback/5).

rule_id(st_hybrid_description, "a description, answered by hybrid search (BM25, doc comments weighed more, and embeddings fused by RRF)").
rule_id(st_broad_vector, "a broad query, answered by embedding similarity too").
rule_id(st_exact_name, "an identifier, looked up by exact name").
rule_id(st_check_target, "a relationship's target must exist before its edges are followed").
rule_id(st_graph_relation, "a relationship, answered by following call/reference edges").
rule_id(st_focus_identifier, "a description that names an identifier checks that it exists; its definitions are context (the BM25 text holds the name), not the answer").
rule_id(st_bm25_description, "a description, answered by BM25, doc comments weighed more").
rule_id(st_path_listing, "a bare path, answered by listing its definitions").
rule_id(st_bm25_in_path, "words in a path, answered by BM25 under that path").
rule_id(st_broad_name, "a broad word, tried as a name ignoring case").
rule_id(st_broad_bm25, "a broad query, answered by BM25").
rule_id(st_filter_listing, "a query of filters alone (no words or names), answered by listing the definitions that pass them").
rule_id(fb_last_segment, "a qualified name not found: try its last segment").
rule_id(fb_case_insensitive, "a name not found: try it ignoring case").
rule_id(fb_near_spelling, "a name not found in any case: try the nearest names a few edits away (a misspelling)").
rule_id(fb_fuzzy_name, "a name not found in any case or spelling: try it as BM25 text (never for a relationship question: its hits name other things)").
rule_id(fb_retarget_relation, "the target resolved to another name: follow its edges").
rule_id(fb_retarget_definition, "the target resolved to another name: look up its definition").

%! cost(?Strategy, ?Cost) is nondet.
%  Relative cost of a strategy; lower runs first.
cost(exact, 1).
cost(structural, 2).
cost(graph, 3).
cost(lexical, 5).
cost(vector, 8).
cost(hybrid, 10).

%! plan_features(+Features, -Plan) is det.
%  plan_features/3 with the strategies every backend has: exact,
%  structural, graph and lexical.
plan_features(F, Plan) :-
    default_strategies(Avail),
    plan_features(F, Avail, Plan).

%! default_strategies(-Available) is det.
%  The strategies every backend has.
default_strategies([exact, structural, graph, lexical]).

%! plan_features(+Features, +Available, -Plan) is det.
%  Plan is plan(Class, Steps, Because): the class, the steps in cost order
%  and the list of because(RuleID, Premises) that chose them (the class
%  rule first). Available lists the strategies the backend offers (Go
%  passes its capabilities), then embedder(Nature) when it has vectors
%  (Nature lexical or learned; see vectors.pl); a candidate whose
%  strategy is not available is not planned.
plan_features(F, Avail, plan(Class, Steps, [ClassWhy|Whys])) :-
    classify(F, Class, ClassWhy),
    findall(Cost-(Step-Why),
            ( candidate(Class, F, Avail, Step0, Why0),
              constrain(F, Step0, Why0, Step1, Why1),
              rank_roles(Class, F, Step1, Why1, Step2, Why2),
              rank_types(Class, F, Step2, Why2, Step, Why),
              Step = step(S, _, _),
              planned_cost(S, Avail, Cost) ),
            Pairs),
    keysort(Pairs, Sorted),
    pairs_values(Sorted, StepWhys),
    pairs_keys_values(StepWhys, Steps, Whys).

%! planned_cost(+Strategy, +Available, -Cost) is semidet.
%  A known strategy is planned only if the backend offers it. A strategy
%  with no cost is not one the rules know: it is planned last, so that Go
%  refuses the plan naming the rule that wrote it, instead of the step
%  silently vanishing.
planned_cost(S, Avail, Cost) :-
    cost(S, Cost), !,
    memberchk(S, Avail).
planned_cost(_, _, 1000).

%! candidate(+Class, +Features, +Available, -Step, -Because) is nondet.
%  Embedding-based steps where the backend has them (hybrid for a
%  description only when its vectors are trusted, trusted_vectors/1);
%  otherwise the strategies of candidate/4.
candidate(conceptual, F, Avail, step(hybrid, [text(T2), emphasis(doc)], evidence),
          because(st_hybrid_description, [class(conceptual), available(hybrid)|Xs])) :-
    memberchk(hybrid, Avail),
    trusted_vectors(Avail),
    feature(text(T), F),
    expand_text(F, T, T2, Xs).
candidate(broad, F, Avail, step(vector, [text(T)], evidence),
          because(st_broad_vector, [class(broad), available(vector)])) :-
    memberchk(vector, Avail),
    feature(text(T), F),
    feature(tokens(N), F), N > 0.
candidate(Class, F, Avail, Step, Why) :-
    candidate(Class, F, Step, Why),
    \+ superseded(Class, Step, Avail).
candidate(Class, F, _, Step, Why) :-
    extra_strategy(Class, F, Step, Why).
candidate(Class, F, Avail, Step, Why) :-
    extra_strategy(Class, F, Avail, Step, Why).

%! superseded(+Class, +Step, +Available) is semidet.
%  A step is not planned when a strategy that supersedes it is available
%  and its vectors are trusted.
superseded(Class, Step, Avail) :-
    supersedes(Class, Step, By),
    memberchk(By, Avail),
    trusted_vectors(Avail), !.

%! supersedes(?Class, ?Step, ?By) is nondet.
%  BM25 alone is not planned for a description when hybrid (BM25 fused
%  with embeddings by reciprocal rank) is available.
supersedes(conceptual, step(lexical, _, _), hybrid).

%! candidate(+Class, +Features, -Step, -Because) is nondet.
candidate(identifier, F, step(exact, [name(T)], evidence),
          because(st_exact_name, [class(identifier), target(T)])) :-
    target(F, T).
candidate(relationship, F, step(exact, [name(T)], check),
          because(st_check_target, [class(relationship), target(T)])) :-
    target(F, T).
candidate(relationship, F, Step, because(st_graph_relation, [relation(R), target(T)])) :-
    feature(relation(R), F), R \== callers,
    target(F, T),
    relation_graph_step(R, T, Step).
candidate(relationship, F, Step, because(st_resolved_callers, [relation(callers), target(T), match(resolved)])) :-
    feature(relation(callers), F),
    target(F, T),
    relation_graph_step(callers, T, Step).
candidate(conceptual, F, step(exact, [name(T)], check),
          because(st_focus_identifier, [class(conceptual), ident(T)])) :-
    feature(idents(Ids), F),
    strong_idents(Ids, [id(T, _)|_]).
candidate(conceptual, F, step(lexical, [text(T2), emphasis(doc)], evidence),
          because(st_bm25_description, [class(conceptual)|Xs])) :-
    feature(text(T), F),
    expand_text(F, T, T2, Xs).
candidate(path, F, step(structural, [path(P)], evidence),
          because(st_path_listing, [path(P)])) :-
    feature(paths([P|_]), F),
    feature(content(0), F).
candidate(path, F, step(lexical, [text(T), path(P)], evidence),
          because(st_bm25_in_path, [path(P), content(N)])) :-
    feature(paths([P|_]), F),
    feature(content(N), F), N > 0,
    feature(text(T), F).
candidate(broad, F, step(exact, [name(T), case(insensitive)], evidence),
          because(st_broad_name, [class(broad), word(T)])) :-
    feature(idents([id(T, _)|_]), F).
candidate(broad, F, step(lexical, [text(T2)], evidence),
          because(st_broad_bm25, [class(broad)|Xs])) :-
    feature(text(T), F),
    feature(tokens(N), F), N > 0,
    \+ filters_only(F, _),
    expand_text(F, T, T2, Xs).
candidate(broad, F, step(structural, [], evidence),
          because(st_filter_listing, [class(broad), constraints(Cs)])) :-
    filters_only(F, Cs).

%! filters_only(+Features, -Constraints) is semidet.
%  The query asks only for filters ("what changed since the last index"):
%  constraints, and no content words, names, paths or quoted text.
filters_only(F, Cs) :-
    feature(constraints(Cs), F), Cs = [_|_],
    feature(content(0), F),
    feature(idents([]), F),
    feature(paths([]), F),
    feature(quoted([]), F).

%! fallback(+Class, +Features, +Gap, +History, -Steps, -Because) is nondet.
%  Steps to try when a step left Gap, best first (the search takes the
%  first; rlm explain lists them all). History is the list of
%  result(Step, Count, Tops) so far, newest first. Fails when no fallback
%  is left, which ends the search with the gap reported. The harness's
%  extra_fallback/5 first, then callers.pl's, vectors.pl's, then
%  fallback/5's.
fallback(Class, _, Gap, H, Steps, Why) :-
    extra_fallback(Class, Gap, H, Steps, Why).
fallback(Class, F, Gap, H, Steps, Why) :-
    callers_fallback(Class, F, Gap, H, Steps, Why).
fallback(Class, F, Gap, H, Steps, Why) :-
    vectors_fallback(Class, F, Gap, H, Steps, Why).
fallback(Class, _, Gap, H, Steps, Why) :-
    default_fallback(Class, Gap, H, Steps, Why).

%! fallback(+Class, +Gap, +History, -Steps, -Because) is semidet.
%  fallback/6 for a query whose features are not known.
fallback(Class, Gap, H, Steps, Why) :-
    extra_fallback(Class, Gap, H, Steps, Why).
fallback(Class, Gap, H, Steps, Why) :-
    default_fallback(Class, Gap, H, Steps, Why).

%! default_fallback(+Class, +Gap, +History, -Steps, -Because) is nondet.
%  The default fallbacks for a name not found: its last segment, the
%  name ignoring case, the nearest names a few edits away (spelling(near):
%  retrieval.NearEdits; not for a qualified name in a relationship
%  question: it names one thing), the name as BM25 text. The last is
%  never a relationship question's: BM25's best match for a name no
%  symbol has is some other definition ("findHandlr" finds "h"), and the
%  question would be answered for it.
default_fallback(Class, symbol_not_found(T), H, [step(exact, [name(Last)], Role)],
         because(fb_last_segment, [gap(symbol_not_found(T)), segment(Last)])) :-
    last_segment(T, Last),
    \+ tried(H, exact, name(Last)),
    fallback_role(Class, Role).
default_fallback(Class, symbol_not_found(T), H, [step(exact, [name(T), case(insensitive)], Role)],
         because(fb_case_insensitive, [gap(symbol_not_found(T))])) :-
    \+ tried(H, exact, case(insensitive)),
    fallback_role(Class, Role).
default_fallback(Class, symbol_not_found(T), H, [step(exact, [name(T), spelling(near)], Role)],
         because(fb_near_spelling, [gap(symbol_not_found(T)), tried(exact_case_insensitive)])) :-
    \+ tried(H, exact, spelling(near)),
    \+ ( Class == relationship, qualified_name(T) ),
    fallback_role(Class, Role).
default_fallback(Class, symbol_not_found(T), H, [step(lexical, [text(T)], Role)],
         because(fb_fuzzy_name, [gap(symbol_not_found(T)), tried(near_spelling)])) :-
    Class \== relationship,
    \+ tried(H, lexical, text(T)),
    fallback_role(Class, Role).

%! last_segment(+Name, -Last) is semidet.
%  Last is what follows the last dot of a qualified name such as
%  "http.ListenAndServe" (a package or receiver qualifier the index may not
%  store).
last_segment(T, Last) :-
    append(_, ['.'|Last], T),
    Last = [_|_],
    \+ memberchk('.', Last), !.

%! fallback_role(+Class, -Role) is det.
%  For identifier queries a fallback's hits answer the query; otherwise a
%  fallback only resolves the target for the steps that follow.
fallback_role(identifier, evidence) :- !.
fallback_role(broad, evidence) :- !.
fallback_role(_, check).

%! retarget(+Class, +Features, +Resolved, -Steps, -Because) is det.
%  After a check step resolved the target to the symbol Resolved, the
%  steps that answer the query for it. A relationship class whose
%  features name no relation (a host's plan run for another query) gets
%  the definition.
retarget(relationship, F, N, [Step],
         because(fb_retarget_relation, [relation(R), resolved(N)])) :-
    feature(relation(R), F), R \== none, !,
    relation_graph_step(R, N, Step).
retarget(_, _, N, [step(exact, [name(N)], evidence)],
         because(fb_retarget_definition, [resolved(N)])).

%! tried(+History, +Strategy, +Arg) is semidet.
tried(H, S, A) :-
    member(result(step(S, Args, _), _, _), H),
    memberchk(A, Args), !.
