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
