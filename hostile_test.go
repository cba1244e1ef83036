package rlm_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/engine"
)

// hostileQueries reads testdata/hostile-queries.txt (one query a line;
// blank lines and # comments skipped) and adds generated ones: a 1 MB and a
// 10 MB string, deep nesting, NUL bytes and invalid UTF-8.
func hostileQueries(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("testdata/hostile-queries.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var qs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		qs = append(qs, l)
	}
	if len(qs) < 20 {
		t.Fatalf("only %d hostile queries read", len(qs))
	}
	qs = append(qs,
		strings.Repeat("halt. ", 1<<20/6), // ~1 MB
		strings.Repeat("a", 10<<20),       // 10 MB
		strings.Repeat("(", 100000)+"halt"+strings.Repeat(")", 100000),
		strings.Repeat("[", 50000)+strings.Repeat("]", 50000),
		"what calls \x00halt\x00?",
		"where is \xff\xfe defined?",
		"what calls halt?",
		"X = 1, call(halt)",
		"what calls "+strings.Repeat("Z", 60000)+"?",
	)
	return qs
}

// tripwires are host predicates named after what hostile text asks for.
// If any goal built from input ran, one of them would fire (they shadow
// names the sandbox otherwise lacks, so calling them is possible only as a
// goal).
type tripwires struct {
	mu    sync.Mutex
	fired []string
}

func (tw *tripwires) predicates() []engine.Predicate {
	var ps []engine.Predicate
	for _, pi := range []struct {
		name  string
		arity int
	}{{"halt", 0}, {"halt", 1}, {"assertz", 1}, {"asserta", 1}, {"retract", 1}, {"consult", 1},
		{"open", 3}, {"open", 4}, {"atom_to_term", 3}, {"evil", 1}, {"read_term", 2}, {"shell", 1}, {"reboot", 0}} {
		pi := pi
		ps = append(ps, engine.Predicate{Name: pi.name, Arity: pi.arity, Fn: func(context.Context, []any) (engine.Term, error) {
			tw.mu.Lock()
			tw.fired = append(tw.fired, pi.name)
			tw.mu.Unlock()
			return engine.Atom("true"), nil
		}})
	}
	return ps
}

// TestHostileQueriesAreOnlyText feeds every hostile query through every
// entry point of the expert (Plan, Explain, Search) and proves that none
// executes: no tripwire fires, every call returns within its deadline with
// an answer or a structured error, and the expert still answers a normal
// query afterwards.
func TestHostileQueriesAreOnlyText(t *testing.T) {
	netHTTP(t) // builds the knowledge base this Open reuses
	tw := &tripwires{}
	opts := netHTTPOptions()
	opts.HostPredicates = tw.predicates()
	x, err := rlm.Open(context.Background(), netHTTPRoot(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	for i, q := range hostileQueries(t) {
		name := q
		if len(name) > 40 {
			name = name[:40]
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, perr := x.Plan(ctx, q)
		_, eerr := x.Explain(ctx, q)
		ans, serr := x.Search(ctx, q, 10)
		cancel()
		for _, err := range []error{perr, eerr, serr} {
			if err == nil {
				continue
			}
			if !errors.Is(err, rlm.ErrQueryTooLarge) {
				t.Errorf("query %d %q: unexpected error %v", i, name, err)
			}
		}
		if serr == nil && (ans == nil || ans.Class == "" || len(ans.Plan) == 0 && ans.Class != "broad") {
			t.Errorf("query %d %q: no plan in answer %+v", i, name, ans)
		}
		if len(q) > rlm.MaxQueryBytes && !errors.Is(serr, rlm.ErrQueryTooLarge) {
			t.Errorf("query %d: %d bytes accepted", i, len(q))
		}
	}
	if len(tw.fired) > 0 {
		t.Fatalf("goals built from input ran: %v", tw.fired)
	}
	a, err := x.Search(context.Background(), "what calls ServeHTTP?", 10)
	if err != nil || len(a.Hits) == 0 {
		t.Fatalf("expert broken after hostile input: %v %+v", err, a)
	}
}

// TestTripwiresWork proves the tripwires would catch a goal that ran: a
// rule that calls halt/0 fires it.
func TestTripwiresWork(t *testing.T) {
	tw := &tripwires{}
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/zz_probe.pl", []byte("probe(X) :- X = yes, halt.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x, err := rlm.NewPlanner(rlm.Options{Rules: dir, HostPredicates: tw.predicates()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Engine().Once(context.Background(), "probe", engine.NewVar()); err != nil {
		t.Fatal(err)
	}
	if len(tw.fired) != 1 || tw.fired[0] != "halt" {
		t.Fatalf("tripwire did not fire: %v", tw.fired)
	}
}

// TestRuleFileRedefiningBridgePredicateIsRefused: a user rule file may not
// replace query_features/2 (a bridge predicate) or a builtin.
func TestRuleFileRedefiningBridgePredicateIsRefused(t *testing.T) {
	for _, text := range []string{
		"query_features(_, [tokens(0)]).\n",
		"ok.\nfindall(_, _, []).\n",
	} {
		dir := t.TempDir()
		if err := os.WriteFile(dir+"/evil.pl", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := rlm.NewPlanner(rlm.Options{Rules: dir})
		var le *engine.LoadError
		if !errors.As(err, &le) || !strings.Contains(le.File, "evil.pl") || le.Line == 0 {
			t.Fatalf("%q: want a LoadError naming evil.pl and a line, got %v", text, err)
		}
	}
}
