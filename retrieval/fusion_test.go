package retrieval

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func hits(kind ScoreKind, ids ...string) []Hit {
	out := make([]Hit, len(ids))
	for i, id := range ids {
		// Scores deliberately on wildly different scales per kind: fusion
		// must ignore them.
		out[i] = Hit{Document: Document{ID: id}, Score: float64(1000 - i), ScoreKind: kind, Strategy: Lexical, Rank: 99}
	}
	return out
}

type fused struct {
	ID    string
	Score float64
	Rank  int
}

func summarize(hs []Hit) []fused {
	var out []fused
	for _, h := range hs {
		if h.ScoreKind != ScoreRank || h.Strategy != Hybrid {
			panic("fused hit without rank kind / hybrid strategy")
		}
		out = append(out, fused{h.Document.ID, h.Score, h.Rank})
	}
	return out
}

func rrf(k int, ranks ...int) float64 {
	var s float64
	for _, r := range ranks {
		s += 1 / float64(k+r)
	}
	return s
}

func TestFuseRRF(t *testing.T) {
	approx := cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-12 })
	tests := []struct {
		name  string
		k     int
		lists [][]Hit
		want  []fused
	}{
		{
			name: "nothing",
			k:    0,
		},
		{
			name:  "empty lists",
			lists: [][]Hit{nil, {}},
		},
		{
			name:  "single list keeps order",
			lists: [][]Hit{hits(ScoreBM25, "a", "b", "c")},
			want: []fused{
				{"a", rrf(60, 1), 1},
				{"b", rrf(60, 2), 2},
				{"c", rrf(60, 3), 3},
			},
		},
		{
			name: "agreement wins over one top rank",
			lists: [][]Hit{
				hits(ScoreBM25, "x", "b", "c"),
				hits(ScoreL2Distance, "y", "b", "c"),
				hits(ScoreExact, "b"),
			},
			want: []fused{
				{"b", rrf(60, 1, 2, 2), 1},
				{"c", rrf(60, 3, 3), 2},
				{"x", rrf(60, 1), 3},
				{"y", rrf(60, 1), 4},
			},
		},
		{
			name: "ties broken by id",
			lists: [][]Hit{
				hits(ScoreBM25, "z", "m"),
				hits(ScoreCount, "m", "z"),
			},
			want: []fused{
				{"m", rrf(60, 1, 2), 1},
				{"z", rrf(60, 1, 2), 2},
			},
		},
		{
			name:  "custom k",
			k:     1,
			lists: [][]Hit{hits(ScoreBM25, "a", "b"), hits(ScoreBM25, "b")},
			want: []fused{
				{"b", rrf(1, 1, 2), 1},
				{"a", rrf(1, 1), 2},
			},
		},
		{
			name: "negative k means default",
			k:    -5,
			lists: [][]Hit{
				hits(ScoreBM25, "a"),
			},
			want: []fused{{"a", rrf(60, 1), 1}},
		},
		{
			name: "duplicate in one list counts once at best position; empty ids ignored",
			lists: [][]Hit{
				hits(ScoreBM25, "", "a", "b", "a"),
			},
			want: []fused{
				{"a", rrf(60, 2), 1},
				{"b", rrf(60, 3), 2},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := summarize(FuseRRF(tc.k, tc.lists...))
			if diff := cmp.Diff(tc.want, got, approx); diff != "" {
				t.Errorf("FuseRRF (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFuseRRFDeterministicAcrossListOrder(t *testing.T) {
	a := hits(ScoreBM25, "p", "q", "r", "s")
	b := hits(ScoreCosineSimilarity, "s", "r", "q", "p")
	c := hits(ScoreCount, "q", "s", "p", "r")
	first := FuseRRF(0, a, b, c)
	perms := [][][]Hit{{a, c, b}, {b, a, c}, {b, c, a}, {c, a, b}, {c, b, a}}
	for _, p := range perms {
		got := FuseRRF(0, p...)
		if diff := cmp.Diff(summarize(first), summarize(got)); diff != "" {
			t.Errorf("list order changed the result (-first +got):\n%s", diff)
		}
	}
}

func TestFuseRRFKeepsDocumentAndMergesLines(t *testing.T) {
	l1 := []Hit{{Document: Document{ID: "d", Symbol: "First"}, Lines: []int{9, 3}}}
	l2 := []Hit{{Document: Document{ID: "d", Symbol: "Second"}, Lines: []int{3, 4}}}
	got := FuseRRF(0, l1, l2)
	want := []Hit{{
		Document:  Document{ID: "d", Symbol: "First"},
		Score:     rrf(60, 1, 1),
		ScoreKind: ScoreRank,
		Strategy:  Hybrid,
		Rank:      1,
		Lines:     []int{3, 4, 9},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{9, 3}, l1[0].Lines); diff != "" {
		t.Errorf("input modified (-want +got):\n%s", diff)
	}
}
