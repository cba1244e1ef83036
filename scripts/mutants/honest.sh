# Mutants for issue 16, "tests that prove what their names claim"
# (see scripts/mutants.sh).

# The callers oracle (acceptance_test.go, oracle_test.go) on net/http.
C='. -run TestCallersMatchTypeCheckedOracle'
mutant "callers oracle keyed by the callee's name" oracle_test.go 's|key := c.declKey(fobj.Origin())|key := fobj.Name()|; s|key: c.posKey(d.Name.Pos())}|key: d.Name.Name}|' $C
mutant "1 in 13 call sites dropped" sourcefacts/tsrefs.go 's#isDef || seen\[k\] || local\[i\] {#isDef || seen[k] || local[i] || i%13 == 12 {#' $C

# The kill -9 phase (sourcefacts/store/process_test.go): the victim must die
# of SIGKILL while publishing, every round must publish.
K='./sourcefacts/store -run TestSIGKILLWhilePublishingLosesNoPublishedGeneration'
mutant "kill -9 victim exiting at start" sourcefacts/store/process_test.go 's|^\tdeadline := time.Now().Add(dur)$|\tif dur == 0 { os.Exit(0) }; deadline := time.Now().Add(dur)|' $K
mutant "kill -9 victim exiting on its own after one publication" sourcefacts/store/process_test.go 's|^\t\t\tfmt.Printf("%s %d\\n", progressWord, g)$|\t\t\tfmt.Printf("%s %d\\n", progressWord, g); if dur == 0 { os.Exit(0) }|' $K

# The inference budget (engine/budget.go, engine/engine_test.go). A broken
# budget must fail within budgetGuard, not hang.
B='./engine -run TestInferenceBudgetStopsEveryQueryAtItsLimit'
mutant "budget counting 1 in 100 inferences (and reporting that count)" engine/budget.go 's|if c.n.Add(1) > c.limit {|if c.n.Add(1)/100 > c.limit {|; s|return c.n.Load() }|return c.n.Load() / 100 }|' $B/plain
mutant "budget 100 times too loose" engine/budget.go 's|if c.n.Add(1) > c.limit {|if c.n.Add(1) > c.limit*100 {|' $B/plain
mutant "budget removed" engine/budget.go 's|if c.n.Add(1) > c.limit {|if c.n.Add(1) > c.limit \&\& false {|' $B/plain
mutant "no default budget" engine/engine.go 's|opts.Inferences = DefaultInferences|opts.Inferences = 1 << 62|' $B/default
mutant "budget shared across queries" engine/budget.go 's|return \&budgetCtx{Context: parent, limit: limit, done: make(chan struct{})}|shared.Context, shared.limit = parent, limit; return shared|; $a var shared = \&budgetCtx{done: make(chan struct{})}' $B/plain
mutant "polls while unwinding counted as inferences" engine/budget.go '/^func (c \*budgetCtx) Done/,/^}/s|if c.over.Load() {|if false \&\& c.over.Load() {|' $B/findall

# The sandbox allowlist (engine/builtins.go, engine/sandbox_test.go).
mutant "retract/1 registered in the allowlist" engine/builtins.go 's|^\t{"throw", 1, b1(pl.Throw)},$|&\n\t{"retract", 1, b1(pl.Retract)},|' ./engine -run 'TestSandboxRegistersExactlyTheGoldenBuiltins|TestEveryBuiltinDocumentedAsAbsentIsAbsent'
mutant "retract/1 registered beside the allowlist" engine/engine.go 's|^\tvm.FS = emptyFS{}$|&\n\tvm.Register1(pl.NewAtom("retract"), pl.Retract)|' ./engine -run TestEveryBuiltinDocumentedAsAbsentIsAbsent
mutant "set_prolog_flag/2 registered beside the allowlist" engine/engine.go 's|^\tvm.FS = emptyFS{}$|&\n\tvm.Register2(pl.NewAtom("set_prolog_flag"), pl.SetPrologFlag)|' ./engine -run TestEveryBuiltinDocumentedAsAbsentIsAbsent

# Tripwires on indexed data (hostile_tree_test.go): a default rule that
# calls the top hits' symbol names as goals.
mutant "a rule calling indexed symbol names" rules/retrieval/evidence.pl 's|^    extra_verdict(Class, F, R, V, Why), !\.$|&\nverdict(_, _, result(_, _, Tops), _, _) :- member(S, Tops), atom_chars(A, S), G =.. [A], ignore(catch(call(G), _, true)), fail.|' . -run TestIndexedHostileNamesAreOnlyData

# Redaction (providers/errors_test.go walks every cause).
mutant "SDK error kept as cause" providers/config.go 's|retryable: retryableStatus(status)}|retryable: retryableStatus(status), Err: err}|' ./providers -run TestKeyNeverLeaks

# CI without Chroma (scripts/test.sh) and the content-hash check on vector
# hits from a Chroma collection (project/vectors_test.go: a fake backend).
mutant "test.sh goes on without a healthy Chroma" scripts/test.sh 's|^if ! chroma_env=.*|chroma_env=""; eval "$(scripts/chroma-server.sh start)"; if false; then|; s|^if \[\[ -z "${RLM_CHROMA_URL:-}" \]\] .*|if false; then|' . -run TestTestScriptStopsWhenChromaIsNotHealthy
mutant "hash check on Chroma hits removed" project/searchindex.go 's|return keepCurrent(current, hits, \&p.staleHits)|return hits|' ./project -run TestVectorHitsCountOnlyWithTheCurrentContentHash
mutant "hash check on Chroma hits by path only" project/searchindex.go 's|if cur, ok := current\[h.Document.Path\]; ok \&\& cur == h.Document.ContentHash {|if _, ok := current[h.Document.Path]; ok {|' ./project -run TestVectorHitsCountOnlyWithTheCurrentContentHash

# Rule tests (engine/ruletest.go, rules/retrieval/*_test.pl,
# rules/features_test.go).
R='./rules -run TestRules'
mutant "duplicate rule test names accepted" engine/ruletest.go 's|if l, dup := first\[tc.Name\]; dup {|if l, dup := first[tc.Name]; dup \&\& false {|' ./engine -run TestRuleTestsNeedUniqueGroundNames
mutant "rule test names with variables accepted" engine/ruletest.go 's|if !ground(arg) {|if false \&\& !ground(arg) {|' ./engine -run TestRuleTestsNeedUniqueGroundNames
mutant "cost order swapped (BM25 after embeddings)" rules/retrieval/strategy.pl 's|^cost(lexical, 5)\.|cost(lexical, 9).|' $R
mutant "cost order swapped (graph before exact)" rules/retrieval/strategy.pl 's|^cost(exact, 1)\.|cost(exact, 4).|' $R
mutant "steps not sorted by cost" rules/retrieval/strategy.pl 's|^    keysort(Pairs, Sorted),|    Sorted = Pairs,|' $R
mutant "class-rule precedence swapped (path after words)" rules/retrieval/classify.pl '/^class_rule(cls_path,/{N;h;d}; /^class_rule(cls_descriptive,/{N;G}' $R
mutant "class-rule precedence swapped (relation after bare identifier)" rules/retrieval/classify.pl '/^class_rule(cls_relation,/{N;N;h;d}; /^class_rule(cls_bare_identifier,/{N;N;N;G}' $R
mutant "class-rule precedence swapped (identifiers after single word)" rules/retrieval/classify.pl '/^class_rule(cls_identifiers_only,/{N;N;h;d}; /^class_rule(cls_single_word,/{N;G}' $R
mutant "class rules tried last first" rules/retrieval/classify.pl 's|^    class_rule(Rule, F, Class, Premises), !\.|    findall(r(Ru, Cl, Pr), class_rule(Ru, F, Cl, Pr), L), last(L, r(Rule, Class, Premises)).|' $R
mutant "an acronym is a strong identifier shape" rules/retrieval/classify.pl 's|^strong_shape(call)\.|strong_shape(call).\nstrong_shape(acronym).|' $R
mutant "Go's features differ from the rule tests' (tokens)" bridge/features.go 's|engine.Int(int64(f.Tokens)),|engine.Int(int64(f.Tokens + 1)),|' ./rules -run TestHandWrittenFeaturesAreWhatGoComputes
mutant "Go's features differ from the rule tests' (words)" bridge/features.go 's|engine.Strings(f.ContentWords),|engine.Strings(f.Quoted),|' ./rules -run TestHandWrittenFeaturesAreWhatGoComputes

# Timing promises (sourcefacts/languages_test.go): a parse budget ten
# times too loose breaks the bound on inputs that exhaust it.
mutant "parse budget ten times too loose" sourcefacts/extract.go '/^func (e \*Extractor) parseBudget/,/^}/s|^\t\treturn d$|\t\treturn 10 * d|' ./sourcefacts -run 'TestExtractHostile/go/50k_deep'

# The top-level usage names only flags its commands have (cmd/rlm).
mutant "the usage names a flag no command has" cmd/rlm/main.go 's|  rlm status --root DIR \[--json\]|  rlm status --root DIR [--json] [--verbose]|' ./cmd/rlm -run TestEveryFlagTheUsageNamesExists
