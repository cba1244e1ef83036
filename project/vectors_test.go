package project

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/embedded"
)

// fakeVectors is an in-memory vector backend (standing in for a Chroma
// collection) that answers every vector search with the same hits.
type fakeVectors struct{ hits []retrieval.Hit }

func (f *fakeVectors) Search(_ context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	if req.Strategy != retrieval.Vector {
		return nil, retrieval.ErrUnsupported
	}
	return slices.Clone(f.hits), nil
}
func (f *fakeVectors) Fetch(context.Context, []string) ([]retrieval.Document, error) { return nil, nil }
func (f *fakeVectors) Upsert(context.Context, []retrieval.Document) error            { return nil }
func (f *fakeVectors) Delete(context.Context, []string) error                        { return nil }
func (f *fakeVectors) Close() error                                                  { return nil }
func (f *fakeVectors) Capabilities() retrieval.Capabilities {
	return retrieval.Capabilities{Strategies: []retrieval.Strategy{retrieval.Vector}, Filters: true, MaxLimit: retrieval.MaxLimit}
}

// TestVectorHitsCountOnlyWithTheCurrentContentHash: through the Router a
// project puts in front of a Chroma collection (here an in-memory fake, no
// server), a vector hit counts only if its file's current content hash is
// the one it was indexed with: a hit of a changed file and one of a
// deleted file are dropped, ranks renumbered, both counted in StaleHits,
// and neither reaches hybrid results.
func TestVectorHitsCountOnlyWithTheCurrentContentHash(t *testing.T) {
	ctx := context.Background()
	current := map[string]string{"a.go": "hash-a2", "b.go": "hash-b1"}
	doc := func(path, sym, hash string) retrieval.Document {
		return retrieval.Document{ID: retrieval.DocumentID(path, sym, 1), Path: path, StartLine: 1, EndLine: 3,
			Symbol: sym, Qualified: sym, Kind: "function", Text: "fetch boundary " + sym, ContentHash: hash}
	}
	changed := doc("a.go", "Old", "hash-a1") // a.go was re-indexed since
	fresh := doc("b.go", "Fetch", "hash-b1")
	gone := doc("c.go", "Gone", "hash-c1") // c.go was deleted
	vec := &fakeVectors{hits: []retrieval.Hit{
		{Document: changed, Score: 0.9, ScoreKind: retrieval.ScoreCosineSimilarity, Strategy: retrieval.Vector, Rank: 1},
		{Document: gone, Score: 0.8, ScoreKind: retrieval.ScoreCosineSimilarity, Strategy: retrieval.Vector, Rank: 2},
		{Document: fresh, Score: 0.7, ScoreKind: retrieval.ScoreCosineSimilarity, Strategy: retrieval.Vector, Rank: 3},
	}}
	primary, err := embedded.Open(ctx, filepath.Join(t.TempDir(), "search.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	if err := primary.Upsert(ctx, []retrieval.Document{doc("a.go", "New", "hash-a2"), fresh}); err != nil {
		t.Fatal(err)
	}
	p := &Project{}
	r := p.vectorRouter(primary, vec, current)
	defer r.Close()

	hits, err := r.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: "fetch boundary", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	type kept struct {
		ID   string
		Rank int
	}
	var got []kept
	for _, h := range hits {
		got = append(got, kept{h.Document.ID, h.Rank})
	}
	if d := cmp.Diff([]kept{{fresh.ID, 1}}, got); d != "" {
		t.Errorf("vector hits (-want +got):\n%s", d)
	}
	if n := p.StaleHits(); n != 2 {
		t.Errorf("StaleHits = %d after one search, want 2 (the changed and the deleted file)", n)
	}

	hits, err = r.Search(ctx, retrieval.Request{Strategy: retrieval.Hybrid, Text: "fetch boundary", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.Document.ID)
	}
	slices.Sort(ids)
	want := []string{retrieval.DocumentID("a.go", "New", 1), fresh.ID}
	if d := cmp.Diff(want, ids); d != "" {
		t.Errorf("hybrid hits (-want +got):\n%s", d)
	}
	if n := p.StaleHits(); n != 4 {
		t.Errorf("StaleHits = %d after two searches, want 4", n)
	}
}
