// Package hostile holds the test helpers that prove hostile input is only
// data to the rules: the hostile queries of testdata/hostile-queries.txt,
// and tripwires, host predicates named after what hostile text asks for
// (halt, assertz, consult, open, ...) that record it if a goal built from
// input ever runs. It is nobody's API; only _test.go files import it.
package hostile

import (
	"bufio"
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-dev/rlm/engine"
)

// Queries reads a file of hostile queries, one a line (blank lines and
// lines starting with # are not queries); it fails tb on a read error or
// when fewer than 20 are read.
func Queries(tb testing.TB, path string) []string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(out) < 20 {
		tb.Fatalf("only %d hostile queries read from %s", len(out), path)
	}
	return out
}

// TripwireNames are the names the tripwires answer to (each with the
// arities below): builtins the sandbox leaves out, and names hostile text
// asks for.
var TripwireNames = []string{"halt", "assertz", "asserta", "retract", "consult", "open",
	"atom_to_term", "evil", "read_term", "shell", "reboot"}

var arities = map[string][]int{"halt": {0, 1}, "open": {3, 4}, "atom_to_term": {3}, "read_term": {2}, "reboot": {0}}

// Tripwires records which tripwire fired. Safe for concurrent use.
type Tripwires struct {
	mu    sync.Mutex
	fired []string
}

// Predicates are the tripwires as host predicates (name/arity for every
// TripwireNames entry: arity 1 unless listed otherwise); each succeeds and
// records its name when called.
func (tw *Tripwires) Predicates() []engine.Predicate {
	var ps []engine.Predicate
	for _, name := range TripwireNames {
		ns, ok := arities[name]
		if !ok {
			ns = []int{1}
		}
		for _, n := range ns {
			ps = append(ps, engine.Predicate{Name: name, Arity: n, Fn: func(context.Context, []any) (engine.Term, error) {
				tw.mu.Lock()
				tw.fired = append(tw.fired, name)
				tw.mu.Unlock()
				return engine.Atom("true"), nil
			}})
		}
	}
	return ps
}

// Fired returns the names of the tripwires that fired, in order.
func (tw *Tripwires) Fired() []string {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	return append([]string(nil), tw.fired...)
}
