# Mutants for eval/ (rlm eval; see scripts/mutants.sh).
mutant "callers gold follows selector calls (methods, package functions)" eval/gocallers.go 's|id = f.Sel|_ = f|' ./eval -run TestCallersGoldIsResolvedByGoTypesNotByName
mutant "callers gold resolves the tree's own imports to the tree" eval/gocallers.go 's|dir != "" \&\& !c.busy\[dir\]|dir == "-" \&\& !c.busy[dir]|' ./eval -run TestCallersGoldIsResolvedByGoTypesNotByName
mutant "the doc-stripped copy blanks comments above definitions" eval/strip.go 's|ls\[i\] = ""|_ = ls[i]|' ./eval -run TestStrippedCopyLosesEveryDocAndKeepsEveryLine
mutant "the doc-stripped copy removes Python docstrings" eval/strip.go 's|ls\[first\] = indent + "pass"|ls[first] = indent + "\\"\\"\\"x\\"\\"\\""|' ./eval -run TestStrippedCopyLosesEveryDocAndKeepsEveryLine
mutant "a description is the doc's first sentence" eval/decls.go 's|s = s\[:i+1\]|s = s[:]|' ./eval -run TestFirstSentenceIsTheDocsOpeningSentence
mutant "sampling follows the seed" eval/eval.go 's|perm := r.Perm(len(xs))|perm := rand.Perm(len(xs) + 0*r.IntN(1))|' ./eval -run TestSampleIsAFunctionOfTheSeed
