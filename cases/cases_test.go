package cases_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/cases"
	"github.com/rlm-dev/rlm/planner"
)

var ctx = context.Background()

func keys(t *testing.T, s *cases.Store) []string {
	t.Helper()
	cs, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cs {
		out = append(out, c.Key)
	}
	return out
}

// TestCasesAreBoundedFailingFirstThenLeastRecentlyUsed, persist, and are
// retrieved by key for the same rules only.
func TestCasesAreBoundedFailingFirstThenLeastRecentlyUsed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cases.sqlite")
	clock := time.Unix(0, 0)
	opts := cases.Options{Max: 3, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	s, err := cases.Open(ctx, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	retain := func(key string) int64 {
		t.Helper()
		id, err := s.Retain(ctx, cases.Case{Key: key, Query: key, Class: "identifier", RulesVersion: "r1",
			Plan: []planner.ExecutedStep{{Step: planner.Step{Strategy: "exact", Role: "evidence", Name: key}, Hits: 1}}, Hits: 1,
			Resolved: &planner.Resolution{From: key, To: "X", Rule: "ev_target_resolved"}})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	a, b := retain("a"), retain("b")
	retain("c")
	if err := s.Revise(ctx, a, true); err != nil { // a used recently
		t.Fatal(err)
	}
	for range 2 {
		if err := s.Revise(ctx, b, false); err != nil { // b fails
			t.Fatal(err)
		}
	}
	retain("d")
	if diff := cmp.Diff([]string{"a", "c", "d"}, keys(t, s)); diff != "" {
		t.Errorf("a failing case goes first (-want +got):\n%s", diff)
	}
	retain("e")
	if diff := cmp.Diff([]string{"a", "d", "e"}, keys(t, s)); diff != "" {
		t.Errorf("then the least recently used (-want +got):\n%s", diff)
	}
	if err := s.Revise(ctx, 999, true); !errors.Is(err, cases.ErrNotFound) {
		t.Errorf("revising a missing case: %v", err)
	}
	s.Close()
	s, err = cases.Open(ctx, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Retrieve(ctx, "a", "r1")
	if err != nil || len(got) != 1 || got[0].Uses != 1 || got[0].Resolved.To != "X" || got[0].Plan[0].Name != "a" {
		t.Errorf("retrieve after reopening: %+v %v", got, err)
	}
	if got, _ := s.Retrieve(ctx, "a", "r2"); len(got) != 0 {
		t.Errorf("a case of other rules was retrieved: %v", got)
	}
}

// TestKeysShareNamesAcrossWordings: the retrieval key ignores case,
// order and wording, not names, class or constraints.
func TestKeysShareNamesAcrossWordings(t *testing.T) {
	same := [][2]string{{"what calls servehttp", "who calls ServeHttp?"}, {"parse form boundary", "boundary form parse"}}
	for _, p := range same {
		if cases.Key("c", p[0]) != cases.Key("c", p[1]) {
			t.Errorf("%q and %q have keys %q and %q", p[0], p[1], cases.Key("c", p[0]), cases.Key("c", p[1]))
		}
	}
	differ := [][3]string{{"c", "what calls Serve", "what calls Handle"}, {"c", "retry backoff", "retry backoff python only"}}
	for _, p := range differ {
		if cases.Key(p[0], p[1]) == cases.Key(p[0], p[2]) {
			t.Errorf("%q and %q share a key", p[1], p[2])
		}
	}
	if cases.Key("a", "x y") == cases.Key("b", "x y") {
		t.Error("classes share a key")
	}
}
