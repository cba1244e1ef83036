package loop_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/planner"
)

// countingRetriever answers every search with two hits in a.go and one
// in b.go, whose bytes changed since indexing, and counts the reads.
type countingRetriever struct {
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingRetriever) Search(context.Context, string, int) (*planner.Answer, error) {
	return &planner.Answer{Class: "identifier", Hits: []planner.Hit{
		{Path: "a.go", StartLine: 1, EndLine: 1, Symbol: "First", Kind: "function", ContentHash: "ha"},
		{Path: "b.go", StartLine: 1, EndLine: 1, Symbol: "Gone", Kind: "function", ContentHash: "hb"},
		{Path: "a.go", StartLine: 3, EndLine: 3, Symbol: "Second", Kind: "function", ContentHash: "ha"},
	}}, nil
}

func (c *countingRetriever) ReadSource(_ context.Context, path, hash string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads[path+"@"+hash]++
	if path == "b.go" {
		return nil, errors.New("stale")
	}
	return []byte("func First() {}\n\nfunc Second() {}\n"), nil
}

// TestEachFileIsReadOnceForItsHits: hits in one file are cut from one read
// of it, checked against its hash once; a stale file is read once and each
// of its hits dropped; citations check each file once at the end of the
// run. Every current hit still reaches the prompt.
func TestEachFileIsReadOnceForItsHits(t *testing.T) {
	m, fake := model(t, answers("see a.go:1"))
	r := &countingRetriever{reads: map[string]int{}}
	res, err := loop.Run(context.Background(), "where is First defined?", opts(t, m, nil, r))
	if err != nil {
		t.Fatalf("the run failed: %v (stop %s)", err, res.Stop)
	}
	sys := systemText(fake.Requests()[0])
	for _, code := range []string{"func First() {}", "func Second() {}"} {
		if !strings.Contains(sys, code) {
			t.Errorf("the prompt lacks the hit %q:\n%s", code, sys)
		}
	}
	// a.go: once for its two hits, once for the citations; b.go once.
	if diff := cmp.Diff(map[string]int{"a.go@ha": 2, "b.go@hb": 1}, r.reads); diff != "" {
		t.Errorf("reads per file (-want +got):\n%s", diff)
	}
	if res.Usage.StaleEvidence != 1 {
		t.Errorf("stale evidence %d, want 1 (b.go's hit)", res.Usage.StaleEvidence)
	}
	if len(res.Citations) != 2 {
		t.Errorf("%d citations, want a.go's two hits: %+v", len(res.Citations), res.Citations)
	}
	for _, c := range res.Citations {
		if !c.Current {
			t.Errorf("citation %s:%d not current", c.Path, c.StartLine)
		}
	}
}
