package rlm_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/hostile"
)

// The indexed hostile fixture: testdata/hostile-tree holds Go, Python,
// JavaScript, Prolog, Ruby and C files whose symbols are named after the
// tripwires (halt, assertz, retract, consult, open, read_term, ...), whose
// doc comments are Prolog goals (`halt. X = 1, call(halt).`) and whose paths
// are too (`call(halt).py`, `assertz(evil(1))/consult.js`). Symbol names
// of the top hits reach the rules after every step (result/3); doc comments
// and paths are searched and returned.

// hostileTree copies testdata/hostile-tree into a temporary directory (the
// walker never indexes testdata, and nothing is written into the repository)
// and opens it with the tripwires and, if rules is not "", a rules
// directory layered over the defaults.
func hostileTree(t *testing.T, tw *hostile.Tripwires, rules string) *rlm.Project {
	t.Helper()
	root := filepath.Join(t.TempDir(), "tree")
	if err := os.CopyFS(root, os.DirFS("testdata/hostile-tree")); err != nil {
		t.Fatal(err)
	}
	p, err := rlm.Open(context.Background(), root, rlm.Options{
		DBPath: filepath.Join(t.TempDir(), "kb.sqlite"), Rules: rules, HostPredicates: tw.Predicates()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if st := p.Stats(); st.Files < 6 {
		t.Fatalf("only %d files of the hostile tree indexed: %+v", st.Files, st)
	}
	return p
}

// hostileTreeQueries asks about every tripwire name in every way that puts
// it among the top hits: its callers, its callees, its definition, the bare
// name, another case (the rules retarget to the indexed name), a qualified
// form (retargeted to its last segment) and a misspelling (BM25 resolves
// it); then the doc comments and paths.
func hostileTreeQueries() []string {
	var qs []string
	for _, n := range hostile.TripwireNames {
		qs = append(qs, "what calls "+n+"?", "what does "+n+" call?", "where is "+n+" defined?", n,
			"what calls "+strings.ToUpper(n)+"?", "what calls hostile."+n+"?", "what calls "+n+"x?")
	}
	return append(qs,
		"X = 1, call(halt)", "where is X = 1, call(halt) defined?", "how does the code halt the machine",
		"assertz(evil(1))", "files under assertz(evil(1))", "what is in call(halt).py",
		"consult('/etc/passwd')", "'$set'(x)", "halt.")
}

// runHostileTree runs every query through Plan, Explain and Search, each
// under a deadline, and returns the symbols of all hits.
func runHostileTree(t *testing.T, p *rlm.Project) map[string]bool {
	t.Helper()
	symbols := map[string]bool{}
	for _, q := range hostileTreeQueries() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, perr := p.Plan(ctx, q)
		_, eerr := p.Explain(ctx, q)
		ans, serr := p.Search(ctx, q, 10)
		cancel()
		if err := errors.Join(perr, eerr, serr); err != nil {
			t.Errorf("%q: %v", q, err)
			continue
		}
		for _, h := range ans.Hits {
			symbols[h.Symbol] = true
		}
	}
	return symbols
}

// TestIndexedHostileNamesAreOnlyData runs the hostile tree's names, docs
// and paths through every entry point (Plan, Explain, Search) of a project
// opened with the tripwires: every tripwire name comes back as a hit's
// symbol (so it reached the rules among the top hits), and no tripwire
// fires.
func TestIndexedHostileNamesAreOnlyData(t *testing.T) {
	tw := &hostile.Tripwires{}
	p := hostileTree(t, tw, "")
	symbols := runHostileTree(t, p)
	for _, n := range hostile.TripwireNames {
		if !symbols[n] {
			t.Errorf("no hit has the symbol %q: the fixture does not reach the rules with it", n)
		}
	}
	if len(tw.Fired()) > 0 {
		t.Fatalf("goals built from indexed names ran: %v", tw.Fired())
	}
}

// callTopSymbols is a rule that does what the rules must never do: it
// makes each top hit's symbol name into a goal (=.. and call/1, arities 0
// to 4, ground arguments as host predicates need) after every step.
const callTopSymbols = `:- multifile(extra_verdict/5).
extra_verdict(_, _, result(_, _, Tops), _, _) :-
    member(S, Tops),
    atom_chars(A, S),
    between(0, 4, N),
    length(Args, N),
    maplist(=(x), Args),
    G =.. [A|Args],
    ignore(catch(call(G), _, true)),
    fail.
`

// TestTripwiresCatchARuleThatCallsIndexedSymbolNames proves the test above
// can fail: with a rule file that calls the top hits' symbol names as
// goals, the same queries fire every tripwire.
func TestTripwiresCatchARuleThatCallsIndexedSymbolNames(t *testing.T) {
	rules := t.TempDir()
	if err := os.WriteFile(filepath.Join(rules, "call_tops.pl"), []byte(callTopSymbols), 0o644); err != nil {
		t.Fatal(err)
	}
	tw := &hostile.Tripwires{}
	p := hostileTree(t, tw, rules)
	runHostileTree(t, p)
	fired := map[string]bool{}
	for _, n := range tw.Fired() {
		fired[n] = true
	}
	var missing []string
	for _, n := range hostile.TripwireNames {
		if !fired[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("a rule calling the top symbols did not fire the tripwires %v (fired: %v)", missing, slices.Sorted(maps.Keys(fired)))
	}
}
