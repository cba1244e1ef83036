package rlm_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm"
)

// TestAnAnswersExplanationSaysOnlyWhatHappened: with the offline
// embedder a description is planned as BM25 and then hybrid search, and
// BM25's hits are enough, so hybrid search never runs: the answer's
// chain of rules names the class rule, then each step that ran — the rule
// that planned it, then its verdict — and not the rule of the hybrid
// step that was planned but never reached. A step that spares a doc
// comment the query quotes from demotion says so as a sparing, not as
// if the query were quoted.
func TestAnAnswersExplanationSaysOnlyWhatHappened(t *testing.T) {
	local, err := rlm.LocalEmbedder()
	if err != nil {
		t.Fatal(err)
	}
	p, err := rlm.Open(context.Background(), filepath.Join("testdata", "roles", "go"), rlm.Options{InMemory: true, Embedder: local})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	for _, c := range []struct {
		query string
		chain []string // the rules of the answer's explanation, in order
	}{
		{"shipping cost of a parcel weight",
			[]string{"cls_descriptive", "st_bm25_description", "ev_bm25_hits"}},
		{"ShippingCost computes the shipping cost of a parcel",
			[]string{"cls_doc_wording", "st_description_subject", "ev_subject_looked_up", "st_description_bm25", "ev_bm25_hits"}},
	} {
		plan, err := p.Plan(context.Background(), c.query)
		if err != nil {
			t.Fatal(err)
		}
		if last := plan.Steps[len(plan.Steps)-1]; last.Strategy != "hybrid" {
			t.Fatalf("%q: the plan %v does not end in a hybrid step; the test needs one that is not reached", c.query, plan.Steps)
		}
		a := searchAll(t, p, c.query)
		var got []string
		for _, b := range a.Explain {
			got = append(got, b.Rule)
		}
		if diff := cmp.Diff(c.chain, got); diff != "" {
			t.Errorf("%q: chain (-want +got):\n%s", c.query, diff)
		}
		for _, s := range a.Plan {
			if s.Strategy == "hybrid" {
				t.Errorf("%q: the hybrid step ran: %v", c.query, a.Plan)
			}
			if str := s.Step.String(); strings.Contains(str, "quoted") || s.Quoted != "" && !strings.Contains(str, "spare=doc-start") {
				t.Errorf("%q: step %s: want its doc-comment sparing shown as spare=doc-start, nothing quoted", c.query, str)
			}
		}
	}
}
