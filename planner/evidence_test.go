package planner_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/retrieval"
)

// scripted is a backend whose hits per strategy a test writes; it records
// the limit each request asked for.
type scripted struct {
	retrieval.Backend
	hits   map[retrieval.Strategy][]retrieval.Hit
	limits map[retrieval.Strategy]int
	// embedder is the nature of its embedder (Capabilities.Embedder);
	// with one it offers hybrid search too.
	embedder string
}

func (s *scripted) Capabilities() retrieval.Capabilities {
	c := retrieval.Capabilities{Strategies: []retrieval.Strategy{retrieval.Exact, retrieval.Structural, retrieval.Graph, retrieval.Lexical, retrieval.Vector}, MaxLimit: retrieval.MaxLimit}
	if s.embedder != "" {
		c.Strategies, c.Embedder = append(c.Strategies, retrieval.Hybrid), s.embedder
	}
	return c
}

func (s *scripted) Search(_ context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	if s.limits == nil {
		s.limits = map[retrieval.Strategy]int{}
	}
	s.limits[req.Strategy] = req.Limit
	hs := s.hits[req.Strategy]
	if len(hs) > req.Limit {
		hs = hs[:req.Limit]
	}
	return hs, nil
}

func hit(path string, line int, symbol string, score float64, kind retrieval.ScoreKind) retrieval.Hit {
	return retrieval.Hit{Document: retrieval.Document{ID: fmt.Sprintf("%s#%s@%d", path, symbol, line), Path: path, StartLine: line, EndLine: line, Symbol: symbol, Kind: "function"},
		Score: score, ScoreKind: kind}
}

func ruleIDsOf(a *planner.Answer) []string {
	var out []string
	for _, b := range a.Explain {
		out = append(out, b.Rule)
	}
	return out
}

// TestOneDefinitionIsOneHitInAnAnswer: two documents of one definition
// (same file, line and name) are one hit.
func TestOneDefinitionIsOneHitInAnAnswer(t *testing.T) {
	b := &scripted{hits: map[retrieval.Strategy][]retrieval.Hit{
		retrieval.Lexical: {hit("res.js", 3, "send.send", 2, retrieval.ScoreBM25), hit("res.js", 3, "send", 2, retrieval.ScoreBM25), hit("res.js", 7, "json", 1, retrieval.ScoreBM25)},
	}}
	ans, err := mustPlanner(t, planner.Options{}).Search(context.Background(), b, "serialise the body and send it", 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range ans.Hits {
		got = append(got, fmt.Sprintf("%s:%d", h.Path, h.StartLine))
	}
	if d := cmp.Diff([]string{"res.js:3", "res.js:7"}, got); d != "" {
		t.Errorf("hits (-want +got):\n%s", d)
	}
}

// TestAnAnswerSaysHowManyOfHowMany: a graph step is asked for every edge,
// the answer holds the limit and its Total counts them all, and the rules
// see the total.
func TestAnAnswerSaysHowManyOfHowMany(t *testing.T) {
	var callers []retrieval.Hit
	for i := range 12 {
		callers = append(callers, hit("a.go", 10*i+1, fmt.Sprintf("caller%d", i), 1, retrieval.ScoreCount))
	}
	b := &scripted{hits: map[retrieval.Strategy][]retrieval.Hit{
		retrieval.Exact: {hit("a.go", 500, "Target", 1, retrieval.ScoreExact)},
		retrieval.Graph: callers,
	}}
	ans, err := mustPlanner(t, planner.Options{}).Search(context.Background(), b, "what calls Target?", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Hits) != 5 || ans.Total != 12 || b.limits[retrieval.Graph] != retrieval.MaxLimit {
		t.Errorf("%d hits of %d (graph asked for %d), want 5 of 12 (asked for %d)", len(ans.Hits), ans.Total, b.limits[retrieval.Graph], retrieval.MaxLimit)
	}
	if !slices.ContainsFunc(ans.Explain, func(w planner.Because) bool {
		return w.Rule == "ev_edges_found" && slices.Contains(w.Premises, "count(12)")
	}) {
		t.Errorf("the rules did not see count(12): %v", ans.Explain)
	}
}

// TestWeakEmbeddingHitsAloneAreNoEvidenceAndTheGapIsTheFinalOne: a word
// nothing exact or lexical matches gets no hits when its embedding hits
// score under the floor (and the answer's gap is the embedding step's);
// strong embedding hits answer it, and the earlier lexical gap is filled.
func TestWeakEmbeddingHitsAloneAreNoEvidenceAndTheGapIsTheFinalOne(t *testing.T) {
	for _, c := range []struct {
		score    float64
		hits     int
		gap      string
		underFlr bool
	}{
		{score: 0.2, hits: 0, gap: "no_semantic_hits", underFlr: true},
		{score: 0.9, hits: 2, gap: ""},
	} {
		b := &scripted{hits: map[retrieval.Strategy][]retrieval.Hit{
			retrieval.Vector: {hit("a.go", 1, "alpha", c.score, retrieval.ScoreCosineSimilarity), hit("a.go", 9, "beta", c.score-0.01, retrieval.ScoreCosineSimilarity)},
		}}
		ans, err := mustPlanner(t, planner.Options{}).Search(context.Background(), b, "frobnicate", 10)
		if err != nil {
			t.Fatal(err)
		}
		under := slices.Contains(ruleIDsOf(ans), "ev_under_floor")
		if len(ans.Hits) != c.hits || ans.Gap != c.gap || under != c.underFlr {
			t.Errorf("cosine %.2f: %d hits, gap %q, under floor %v; want %d, %q, %v (%v)", c.score, len(ans.Hits), ans.Gap, under, c.hits, c.gap, c.underFlr, ruleIDsOf(ans))
		}
	}
}
