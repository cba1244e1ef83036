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
