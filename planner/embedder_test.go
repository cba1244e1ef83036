package planner_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestTheRulesPlanADescriptionForTheBackendsEmbedder: the embedder's
// nature is data the rules plan with. A lexical embedder's vectors do not
// rank a description (BM25 first, hybrid only if BM25 finds nothing); a
// learned one's do (hybrid).
func TestTheRulesPlanADescriptionForTheBackendsEmbedder(t *testing.T) {
	p := mustPlanner(t, planner.Options{})
	for _, c := range []struct {
		embedder string
		want     []string
	}{
		{retrieval.EmbedderLexical, []string{"lexical", "hybrid"}},
		{retrieval.EmbedderLearned, []string{"hybrid"}},
	} {
		for _, q := range []string{"parse multipart form boundaries", "Tokens returns an iterator over the reference tokens in the pointer"} {
			plan, err := p.PlanFor(context.Background(), &scripted{embedder: c.embedder}, q)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range plan.Steps {
				if s.Role == "evidence" {
					got = append(got, s.Strategy)
				}
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("%s embedder, %q (class %s): evidence steps (-want +got):\n%s", c.embedder, q, plan.Class, d)
			}
		}
	}
}

// TestTheFloorJudgesEmbeddingScoresOnTheirEmbeddersScale: the same weak
// cosine is no evidence from the lexical embedder the floor is calibrated
// on, and evidence from a learned one (another scale).
func TestTheFloorJudgesEmbeddingScoresOnTheirEmbeddersScale(t *testing.T) {
	for _, c := range []struct {
		embedder string
		hits     int
		under    bool
	}{
		{retrieval.EmbedderLexical, 0, true},
		{retrieval.EmbedderLearned, 2, false},
	} {
		b := &scripted{embedder: c.embedder, hits: map[retrieval.Strategy][]retrieval.Hit{
			retrieval.Vector: {hit("a.go", 1, "alpha", 0.3, retrieval.ScoreCosineSimilarity), hit("a.go", 9, "beta", 0.29, retrieval.ScoreCosineSimilarity)},
		}}
		ans, err := mustPlanner(t, planner.Options{}).Search(context.Background(), b, "frobnicate", 10)
		if err != nil {
			t.Fatal(err)
		}
		under := slices.Contains(ruleIDsOf(ans), "ev_under_floor")
		if len(ans.Hits) != c.hits || under != c.under {
			t.Errorf("%s embedder: %d hits, under floor %v; want %d, %v (%v)", c.embedder, len(ans.Hits), under, c.hits, c.under, ruleIDsOf(ans))
		}
	}
}
