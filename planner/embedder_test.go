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
		// A doc-worded description looks its subject up first
		// (rules/retrieval/wording.pl), whatever the embedder.
		for q, first := range map[string][]string{
			"parse multipart form boundaries":                                     nil,
			"Tokens returns an iterator over the reference tokens in the pointer": {"exact"},
		} {
			want := append(first, c.want...)
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
			if d := cmp.Diff(want, got); d != "" {
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

// TestADocWordedDescriptionsSubjectComesFirstRankedByItsText: the
// definitions named by the sentence's subject lead the answer, in the
// order BM25 ranks them for the whole text (those BM25 misses after
// them), and BM25's other hits follow.
func TestADocWordedDescriptionsSubjectComesFirstRankedByItsText(t *testing.T) {
	b := &scripted{hits: map[retrieval.Strategy][]retrieval.Hit{
		retrieval.Exact: {hit("a.go", 1, "Valid", 1, retrieval.ScoreExact), hit("cookie.go", 5, "Valid", 1, retrieval.ScoreExact),
			hit("b.go", 9, "Valid", 1, retrieval.ScoreExact)},
		retrieval.Lexical: {hit("cookie.go", 20, "validCookie", 9, retrieval.ScoreBM25), hit("cookie.go", 5, "Valid", 8, retrieval.ScoreBM25),
			hit("b.go", 9, "Valid", 7, retrieval.ScoreBM25)},
	}}
	ans, err := mustPlanner(t, planner.Options{}).Search(context.Background(), b, "Valid reports whether the cookie is valid.", 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range ans.Hits {
		got = append(got, fmt.Sprintf("%s:%d", h.Path, h.StartLine))
	}
	if d := cmp.Diff([]string{"cookie.go:5", "b.go:9", "a.go:1", "cookie.go:20"}, got); d != "" {
		t.Errorf("hits (-want +got):\n%s\nplan %v", d, ans.Plan)
	}
}
