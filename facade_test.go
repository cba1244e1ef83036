package rlm_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestBadRulesAreReportedBeforeAnyIndexing: Open loads the rules first; a
// broken rule file fails it before the tree is read or anything written.
func TestBadRulesAreReportedBeforeAnyIndexing(t *testing.T) {
	root := testfixture.WriteTree(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	rules := testfixture.WriteTree(t, map[string]string{"bad.pl": "broken(a b).\n"})
	db := filepath.Join(t.TempDir(), "kb", "kb.sqlite")
	_, err := rlm.Open(context.Background(), root, rlm.Options{Rules: rules, DBPath: db})
	var le *rlm.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("want a *rlm.LoadError, got %v", err)
	}
	if _, err := os.Stat(filepath.Dir(db)); !os.IsNotExist(err) {
		t.Fatalf("the knowledge base directory was created before the rules were checked (%v)", err)
	}
}

// TestBadQueriesAreRefusedBeforeTheTreeIsChecked: an oversized query or an
// out-of-range limit is refused as such, without hashing the tree first.
func TestBadQueriesAreRefusedBeforeTheTreeIsChecked(t *testing.T) {
	root := testfixture.WriteTree(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	var checks atomic.Int64
	p, err := rlm.Open(context.Background(), root, rlm.Options{InMemory: true, Progress: func(e rlm.Progress) {
		if e.Phase == "check" {
			checks.Add(1)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	before := checks.Load()
	if _, err := p.Search(context.Background(), strings.Repeat("x", rlm.MaxQueryBytes+1), 5); !errors.Is(err, rlm.ErrQueryTooLarge) {
		t.Errorf("oversized query: %v", err)
	}
	for _, limit := range []int{-1, rlm.MaxLimit + 1} {
		if _, err := p.Search(context.Background(), "A", limit); !errors.Is(err, retrieval.ErrBadRequest) {
			t.Errorf("limit %d: %v", limit, err)
		}
	}
	if n := checks.Load() - before; n != 0 {
		t.Errorf("bad queries checked the tree first (%d file checks)", n)
	}
	if _, err := p.Search(context.Background(), "A", 5); err != nil || checks.Load() == before {
		t.Fatalf("a good query: err=%v, checks %d (the probe must see a refresh)", err, checks.Load()-before)
	}
}
