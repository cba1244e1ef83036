package project

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// TestARepeatedQueryIsEmbeddedOnce: the project's embedder remembers
// single-text embeddings (a search's query), so a query embedded again —
// a demoted search's second search, a repeated question — makes no
// second embedder call; batches always reach the embedder, the memo is
// bounded, and a caller that changes its vector changes nothing the memo
// gives out later.
func TestARepeatedQueryIsEmbeddedOnce(t *testing.T) {
	ctx := context.Background()
	var calls atomic.Int64
	inner := retrieval.FuncEmbedder{ModelID: "count", Dims: 2, Func: func(_ context.Context, texts []string) ([][]float32, error) {
		calls.Add(1)
		out := make([][]float32, len(texts))
		for i, s := range texts {
			out[i] = []float32{float32(len(s)), 1}
		}
		return out, nil
	}}
	g := guardedEmbedder{Embedder: inner, memo: newQueryMemo()}
	first, err := g.Embed(ctx, []string{"parse the header"})
	if err != nil {
		t.Fatal(err)
	}
	first[0][0] = -99 // the caller's copy
	again, err := g.Embed(ctx, []string{"parse the header"})
	if err != nil {
		t.Fatal(err)
	}
	if got := calls.Load(); got != 1 {
		t.Errorf("the same query reached the embedder %d times, want 1", got)
	}
	if d := cmp.Diff([][]float32{{16, 1}}, again); d != "" {
		t.Errorf("the remembered vector (-want +got):\n%s", d)
	}
	again[0][0] = -7 // a remembered vector's copy
	if third, err := g.Embed(ctx, []string{"parse the header"}); err != nil || third[0][0] != 16 {
		t.Errorf("after the caller changed its copy the memo gives %v, %v; want [16 1]", third, err)
	}
	if _, err := g.Embed(ctx, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		vs, err := g.Embed(ctx, []string{"a", "b"})
		if err != nil || len(vs) != 2 {
			t.Fatalf("a batch of 2 gave %d vectors, %v", len(vs), err)
		}
	}
	if got := calls.Load(); got != 4 {
		t.Errorf("a query and two batches made %d calls in all, want 4: batches are not remembered", got)
	}
	for i := range queryMemoSize + 1 {
		if _, err := g.Embed(ctx, []string{fmt.Sprint("query ", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if n := g.memo.cache.Len(); n != queryMemoSize {
		t.Errorf("the memo holds %d texts, want at most %d", n, queryMemoSize)
	}
	before := calls.Load()
	if _, err := g.Embed(ctx, []string{"parse the header"}); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != before+1 {
		t.Errorf("the least recently used query was not dropped")
	}
}
