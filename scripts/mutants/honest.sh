# Mutants for issue 16, "tests that prove what their names claim"
# (see scripts/mutants.sh).

# The callers oracle (acceptance_test.go, oracle_test.go) on net/http.
C='. -run TestCallersMatchTypeCheckedOracle'
mutant "callers oracle keyed by the callee's name" oracle_test.go 's|key := c.declKey(fobj.Origin())|key := fobj.Name()|; s|key: c.posKey(d.Name.Pos())}|key: d.Name.Name}|' $C
mutant "1 in 13 call sites dropped" sourcefacts/tsrefs.go 's#isDef || seen\[k\] || local\[i\] {#isDef || seen[k] || local[i] || i%13 == 12 {#' $C
