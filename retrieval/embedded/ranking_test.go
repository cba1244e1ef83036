package embedded

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// rankingOf is Search's lexical answer to req as LexicalRanking reports
// it: each hit's document id and score, in order.
func rankingOf(t *testing.T, b *Backend, req retrieval.Request) []Ranked {
	t.Helper()
	hits, err := b.Search(context.Background(), req)
	if err != nil {
		t.Fatalf("Search %+v: %v", req, err)
	}
	var out []Ranked
	for _, h := range hits {
		out = append(out, Ranked{ID: h.Document.ID, Score: h.Score})
	}
	return out
}

func rankingRequests(t *testing.T) []retrieval.Request {
	reqs := []retrieval.Request{
		{Strategy: retrieval.Lexical, Text: "parse request header", Limit: 64},
		{Strategy: retrieval.Lexical, Text: "parse request header", Limit: 64, Emphasis: retrieval.EmphasisDoc},
		{Strategy: retrieval.Lexical, Text: "flush the stream buffer", Limit: 7},
		{Strategy: retrieval.Lexical, Text: "write close", Limit: 100, Filter: retrieval.Filter{ExcludeTests: true, PathPrefixes: []string{"net/"}}},
		{Strategy: retrieval.Lexical, Text: "read", Limit: 200, Filter: retrieval.Filter{Kinds: []string{"method"}}},
	}
	for _, q := range hostileQueries(t) {
		reqs = append(reqs, retrieval.Request{Strategy: retrieval.Lexical, Text: q, Limit: 20})
	}
	return reqs
}

// TestLexicalRankingIsSearchsRankingWithoutTheDocuments: for the same
// request (terms, emphasis, filter, limit, hostile text) LexicalRanking
// gives exactly Search's lexical hits' ids and scores in Search's order,
// and refuses what Search refuses.
func TestLexicalRankingIsSearchsRankingWithoutTheDocuments(t *testing.T) {
	ctx := context.Background()
	b := openMem(t)
	docs := syntheticDocs(3000)
	for i := 0; i < len(docs); i += 500 {
		if err := b.Upsert(ctx, docs[i:i+500]); err != nil {
			t.Fatal(err)
		}
	}
	nonEmpty := 0
	for _, req := range rankingRequests(t) {
		want := rankingOf(t, b, req)
		got, err := b.LexicalRanking(ctx, req)
		if err != nil {
			t.Fatalf("LexicalRanking %.60q: %v", req.Text, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("LexicalRanking %.60q (emphasis %q, filter %+v) differs from Search (-search +ranking):\n%s", req.Text, req.Emphasis, req.Filter, diff)
		}
		if len(want) > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < 5 {
		t.Fatalf("only %d requests had hits: the comparison proves little", nonEmpty)
	}
	for _, req := range []retrieval.Request{
		{Strategy: retrieval.Vector, Text: "parse"},
		{Strategy: retrieval.Lexical, Text: "parse", Limit: -1},
		{Strategy: retrieval.Lexical, Text: "parse", Filter: retrieval.Filter{Kinds: make([]string, MaxFilterValues+1)}},
	} {
		if _, err := b.LexicalRanking(ctx, req); !errors.Is(err, retrieval.ErrBadRequest) && !errors.Is(err, retrieval.ErrTooLarge) {
			t.Errorf("LexicalRanking %+v: err %v, want a bad or too large request", req.Strategy, err)
		}
	}
}

// TestOptimizeTextKeepsEveryRanking: merging the text index written in
// several batches leaves every lexical ranking as it was.
func TestOptimizeTextKeepsEveryRanking(t *testing.T) {
	ctx := context.Background()
	b := openMem(t)
	docs := syntheticDocs(3000)
	for i := 0; i < len(docs); i += 250 {
		if err := b.Upsert(ctx, docs[i:i+250]); err != nil {
			t.Fatal(err)
		}
	}
	reqs := rankingRequests(t)
	before := make([][]Ranked, len(reqs))
	for i, req := range reqs {
		before[i] = rankingOf(t, b, req)
	}
	if err := b.OptimizeText(ctx); err != nil {
		t.Fatal(err)
	}
	for i, req := range reqs {
		if diff := cmp.Diff(before[i], rankingOf(t, b, req)); diff != "" {
			t.Errorf("%.60q: ranking changed by OptimizeText (-before +after):\n%s", req.Text, diff)
		}
	}
}

// TestRepeatedLexicalRankingsRunAPreparedStatement: the second ranking
// of a request runs the statement the first one prepared.
func TestRepeatedLexicalRankingsRunAPreparedStatement(t *testing.T) {
	ctx := context.Background()
	b := seeded(t)
	req := retrieval.Request{Text: "serve http", Limit: 10}
	first, err := b.LexicalRanking(ctx, req)
	if err != nil || len(first) == 0 {
		t.Fatalf("first ranking: %v, %d hits", err, len(first))
	}
	reused := b.stmts.reused.Load()
	again, err := b.LexicalRanking(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("a prepared run ranks differently (-first +again):\n%s", diff)
	}
	if got := b.stmts.reused.Load() - reused; got != 1 {
		t.Errorf("the second ranking ran %d prepared statements, want 1", got)
	}
}
