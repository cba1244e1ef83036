/*  roles.pl -- what a search does with tests and examples.

    Every definition has a role, a fact Go extracts by each language's
    conventions (sourcefacts.RoleConventions: test files and directories,
    examples/ trees, Go Example functions, Rust #[cfg(test)] items):
    source, test or example. The rules decide what a search does with
    them; Go runs what they decide as data:

      tests(exclude|only), examples(exclude|only)
          step filters: leave the role out, or keep only it (the query
          asks in words: "non-test", "tests only", "no examples");
          expand.pl's constraints add them
      demote(Role)
          a ranking: the step's definitions of Role come after all
          others (retrieval.SearchDemoting)
      quoted(T), named(N)
          its exceptions: a demoted definition whose doc comment starts
          with the words of T, or whose name is N, keeps its rank

    A descriptive question asks what the code does, and the code's own
    definitions answer it better than the tests that exercise it or the
    examples that use it, which repeat its words: every evidence step of
    a demoting class (conceptual and description by default) demotes
    tests and examples, each with its rule among the premises of the rule
    that planned the step. A role is not demoted when the query is about
    it ("which tests cover X", "test for Y", "an example of Z": a word of
    role_word/2) or when the step already filters by it (tests(_),
    examples(_)). Demotion is for what the query only resembles: a step
    that demotes spares the definitions the query names exactly, by
    quoting a doc comment (for a text step, quoted(T) with the query's
    text: rk_quoted_kept) and by the names it mentions (named(N)): a
    definition the query names is the one it asks about, whatever its
    role (rk_named_kept) — unless the code itself has a definition of
    that name (the features' source_names(Ns), from the snapshot): then
    the name is as much the code's as its tests', and the code answers
    first, as for any description ("Handler responds to an HTTP
    request": the Handler interface and ServeMux.Handler before a test's
    struct field named Handler; rk_named_in_source). A name only tests
    or examples define (a test helper, an Example function) is spared.

    Extension hooks (declare them multifile in your own file):
      demoting_class(Class)   another class whose evidence is demoted
      extra_role_word(Role, Word)
                              another word (a lowercase string) that makes
                              a query about Role, e.g. "scenario" for test
*/

:- multifile(rule_id/2).
:- multifile(rule_id_head/1).
:- multifile(demoting_class/1).
:- multifile(extra_role_word/2).
:- dynamic(extra_role_word/2).

rule_id(rk_demote_tests, "a description: definitions in tests rank after the code they exercise").
rule_id(rk_demote_examples, "a description: examples rank after the code they use").
rule_id(rk_quoted_kept, "a definition whose doc comment the query quotes is named by it: demotion leaves it in place").
rule_id(rk_named_kept, "a definition whose name the query mentions, and which only tests or examples define, is named by it: demotion leaves it in place").
rule_id(rk_named_in_source, "a name the query mentions that the code itself defines: its namesakes in tests and examples are demoted like the rest").

%! demoting_class(?Class) is nondet.
%  The classes whose evidence steps demote tests and examples:
%  descriptions (classify.pl's conceptual, wording.pl's description).
demoting_class(conceptual).
demoting_class(description).

% demotion/3 carries its rule ID as its first argument.
rule_id_head(demotion/3).

%! demotion(?RuleID, ?Role, ?Filter) is nondet.
%  RuleID demotes Role, unless the step filters by it (has an argument
%  matching Filter).
demotion(rk_demote_tests, test, tests(_)).
demotion(rk_demote_examples, example, examples(_)).

%! role_word(?Role, ?Word) is nondet.
%  A content word of the query that makes it a question about Role. A
%  query that cites an issue ("Issue 9305: ...", "golang.org/issue/4531")
%  or a regression asks about the tests that pin it down.
role_word(Role, W) :- extra_role_word(Role, W).
role_word(test, "test").
role_word(test, "tests").
role_word(test, "testing").
role_word(test, "tested").
role_word(test, "spec").
role_word(test, "specs").
role_word(test, "fixture").
role_word(test, "fixtures").
role_word(test, "mock").
role_word(test, "mocks").
role_word(test, "benchmark").
role_word(test, "benchmarks").
role_word(test, "regression").
role_word(test, "issue").
role_word(example, "example").
role_word(example, "examples").

%! about_role(+Features, ?Role) is semidet.
%  The query asks about Role: one of its content words is a role word.
about_role(F, Role) :-
    feature(words(Ws), F),
    member(W, Ws),
    role_word(Role, W), !.

%! rank_roles(+Class, +Features, +Step, +Because, -Step2, -Because2) is det.
%  An evidence step of a demoting class gains demote(Role) for each role
%  the query neither asks about nor filters by, each with
%  because(RuleID, [class(Class)]) among its rule's premises; if it
%  demotes, it spares what the query names exactly: named(N) for each
%  identifier N of the query the code does not define (not among
%  source_names), with because(rk_named_kept, [names(Ns)]), and for a
%  text step quoted(T) with the query's text T, with
%  because(rk_quoted_kept, [class(Class)]); the names the code defines
%  are not spared, because(rk_named_in_source, [names(Ns)]). Any other
%  step is left as it is.
rank_roles(Class, F, step(S, A, evidence), because(R, Ps), step(S, A2, evidence), because(R, Ps2)) :-
    demoting_class(Class), !,
    findall(demote(Role)-because(Rule, [class(Class)]),
            ( demotion(Rule, Role, Filter),
              \+ memberchk(Filter, A),
              \+ memberchk(demote(Role), A),
              \+ about_role(F, Role) ),
            Pairs),
    pairs_keys_values(Pairs, Ds, DWhys),
    spared(Class, F, A, Ds, Keeps, KWhys),
    append(Ds, Keeps, Adds),
    append(A, Adds, A2),
    append(DWhys, KWhys, Whys),
    append(Ps, Whys, Ps2).
rank_roles(_, _, Step, Why, Step, Why).

%! spared(+Class, +Features, +Args, +Demotes, -Keeps, -Whys) is det.
%  What a step that demotes spares: quoted(T) with the query's text T
%  for a text step, and named(N) for each identifier N of the query that
%  the code does not define, each one the step lacks; Whys say why, and
%  name the identifiers not spared because the code defines them. A step
%  that demotes nothing spares nothing.
spared(_, _, _, [], [], []) :- !.
spared(Class, F, A, _, Keeps, Whys) :-
    (   memberchk(text(_), A),
        \+ memberchk(quoted(_), A),
        feature(text(T), F), T = [_|_]
    ->  Quoted = [quoted(T)], QWhys = [because(rk_quoted_kept, [class(Class)])]
    ;   Quoted = [], QWhys = []
    ),
    feature(idents(Ids), F),
    feature(source_names(Src), F),
    findall(N, ( member(id(N, _), Ids), \+ memberchk(named(N), A) ), Ns0),
    list_to_set(Ns0, Ns1),
    findall(N, ( member(N, Ns1), \+ memberchk(N, Src) ), Ns),
    findall(N, ( member(N, Ns1), memberchk(N, Src) ), InSource),
    findall(named(N), member(N, Ns), Named),
    (   Ns == []
    ->  NWhys = []
    ;   NWhys = [because(rk_named_kept, [names(Ns)])]
    ),
    (   InSource == []
    ->  SWhys = []
    ;   SWhys = [because(rk_named_in_source, [names(InSource)])]
    ),
    append(Quoted, Named, Keeps),
    append(NWhys, SWhys, NSWhys),
    append(QWhys, NSWhys, Whys).

%! rank_steps(+Class, +Features, +Steps, -Steps2) is det.
%  rank_roles/6 for steps planned without a because of their own
%  (fallbacks and retargets); the whys are dropped.
rank_steps(Class, F, Steps, Steps2) :-
    maplist(rank_step(Class, F), Steps, Steps2).

rank_step(Class, F, S, S3) :-
    rank_roles(Class, F, S, because(_, []), S2, _),
    rank_types(Class, F, S2, because(_, []), S3, _).
