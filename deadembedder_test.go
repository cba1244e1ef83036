package rlm_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestADeadEmbedderLeavesADescriptionToBM25: with a learned embedder (one
// that does not say it is lexical) a description is planned as hybrid
// search alone; when the embedder fails, the hybrid step finds nothing
// because it could not look, the rules learn so as data
// (unavailable(hybrid)) and fall back to BM25 over the query's text, which
// answers: hits, no gap, the skipped step noted, and the chain says why.
func TestADeadEmbedderLeavesADescriptionToBM25(t *testing.T) {
	dead := retrieval.FuncEmbedder{ModelID: "remote-model", Dims: 16, Func: func(context.Context, []string) ([][]float32, error) {
		return nil, errors.New("connection refused")
	}}
	p, err := rlm.Open(context.Background(), filepath.Join("testdata", "roles", "go"), rlm.Options{InMemory: true, Embedder: dead})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	const q = "shipping cost of a parcel weight"
	a := searchAll(t, p, q)
	var steps, chain []string
	for _, s := range a.Plan {
		steps = append(steps, s.Strategy)
	}
	for _, b := range a.Explain {
		chain = append(chain, b.Rule)
	}
	if diff := cmp.Diff([]string{"hybrid", "lexical"}, steps); diff != "" {
		t.Errorf("%q: steps (-want +got):\n%s", q, diff)
	}
	if len(a.Hits) == 0 || a.Hits[0].Symbol != "ShippingCost" || a.Gap != "" {
		t.Errorf("%q: gap %q, want ShippingCost first and no gap:%s", q, a.Gap, hitList(a))
	}
	for _, r := range []string{"ev_vectors_unavailable", "fb_bm25_without_vectors", "ev_bm25_hits"} {
		if !slices.Contains(chain, r) {
			t.Errorf("%q: no %s in the chain %v", q, r, chain)
		}
	}
	if len(a.Notes) != 1 || !strings.Contains(a.Notes[0], "skipped hybrid(") || !strings.Contains(a.Notes[0], "remote-model failed") {
		t.Errorf("%q: notes %q; want the skipped hybrid step and the embedder named", q, a.Notes)
	}
}
