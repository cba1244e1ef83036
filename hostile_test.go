package rlm_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/internal/hostile"
)

// hostileQueries are the lines of testdata/hostile-queries.txt and
// generated ones: a 1 MB and a 10 MB string, deep nesting, NUL bytes and
// invalid UTF-8.
func hostileQueries(t *testing.T) []string {
	t.Helper()
	return append(hostile.Queries(t, "testdata/hostile-queries.txt"),
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
}

// TestHostileQueriesAreOnlyText feeds every hostile query through every
// entry point of the expert (Plan, Explain, Search) and proves that none
// executes: no tripwire fires, every call returns within its deadline with
// an answer or a structured error, and the expert still answers a normal
// query afterwards.
func TestHostileQueriesAreOnlyText(t *testing.T) {
	netHTTP(t) // builds the knowledge base this Open reuses
	tw := &hostile.Tripwires{}
	opts := netHTTPOptions()
	opts.HostPredicates = tw.Predicates()
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
	if len(tw.Fired()) > 0 {
		t.Fatalf("goals built from input ran: %v", tw.Fired())
	}
	a, err := x.Search(context.Background(), "what calls ServeHTTP?", 10)
	if err != nil || len(a.Hits) == 0 {
		t.Fatalf("expert broken after hostile input: %v %+v", err, a)
	}
}

// TestTripwiresWork proves the tripwires would catch a goal that ran: a
// rule that calls halt/0 fires it.
func TestTripwiresWork(t *testing.T) {
	tw := &hostile.Tripwires{}
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/zz_probe.pl", []byte("probe(X) :- X = yes, halt.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x, err := rlm.NewPlanner(rlm.Options{Rules: dir, HostPredicates: tw.Predicates()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Engine().Once(context.Background(), "probe", engine.NewVar()); err != nil {
		t.Fatal(err)
	}
	if len(tw.Fired()) != 1 || tw.Fired()[0] != "halt" {
		t.Fatalf("tripwire did not fire: %v", tw.Fired())
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
