# Mutants for issue 13's plan latency: plan tabling without look-ups for a
# question asked again (see scripts/mutants.sh).
L='./bridge -run TestALexiconMemoAsksTheBackendOncePerWordAndKeepsNoError'
T='./planner -run TestAQuestionAskedAgainOnTheSameSnapshotAsksTheBackendNothing'

# The look-up memo: answers kept, errors not, the per-query bound kept.
mutant "the memo is never read" bridge/lexicon.go 's|if known, ok := memo.get(k); ok {|if known, ok := memo.get(k); ok \&\& false {|' $L
mutant "a failed look-up is kept" bridge/lexicon.go 's|^\t\tif err == nil {$|\t\tif true {|' $L
mutant "a memo answer does not count toward the bound" bridge/lexicon.go '/if known, ok := memo.get(k); ok {/,+1 s|seen\[k\] = known|_ = seen|' $L

# The table's memo: used by PlanTabled, and one per snapshot.
mutant "PlanTabled asks the backend every time" planner/table.go 's|bridge.BackendLexiconMemo(ctx, b, t.lexiconFor(snapshot))|bridge.BackendLexicon(ctx, b)|' $T
mutant "a new snapshot keeps the old snapshot's answers" planner/table.go '/^\t\tt.lexicon = bridge.NewLexiconMemo()$/d' $T

# feature/2 by argument (classify.pl): the same answers as the eleven
# clauses it replaced.
F='./rules -run TestRules/retrieval/classify_test/feature_reads_each_property_by_its_argument'
mutant "feature/2 builds no features term for an unbound one" rules/retrieval/classify.pl '/^    functor(F, features, 12),$/d' $F
mutant "feature/2 enumerates out of argument order" rules/retrieval/classify.pl '/^feature_arg(tokens(X), 1, X)\.$/d;s/^feature_arg(constraints(X), 11, X)\.$/feature_arg(constraints(X), 11, X).\nfeature_arg(tokens(X), 1, X)./' $F
