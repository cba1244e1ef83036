package retrievaltest

import (
	"context"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

func (s *suite) unknownDims(t *testing.T) {
	e := &testfixture.WordEmbedder{ModelID: "remote-without-dimensions", Dims: 0}
	b, err := s.open(t, e)
	if !isBadRequest(err) || !strings.Contains(err.Error(), "dimensions unknown") {
		t.Errorf("open with an embedder of 0 dimensions: err = %v, want ErrBadRequest saying dimensions unknown", err)
	}
	if b != nil {
		t.Errorf("open with an embedder of 0 dimensions returned a backend")
		b.Close()
	}
}

// corruption breaks the last vector of a batch (or drops it).
type corruption struct {
	name       string
	badRequest bool // the error must wrap retrieval.ErrBadRequest
	apply      func(vecs [][]float32) [][]float32
}

var corruptions = []corruption{
	{"NaN", true, func(v [][]float32) [][]float32 { v[len(v)-1][1] = float32(math.NaN()); return v }},
	{"infinite", true, func(v [][]float32) [][]float32 { v[len(v)-1][0] = float32(math.Inf(-1)); return v }},
	{"wrong dimensions", true, func(v [][]float32) [][]float32 { v[len(v)-1] = v[len(v)-1][:EmbedderDims-1]; return v }},
	{"empty vector", true, func(v [][]float32) [][]float32 { v[len(v)-1] = []float32{}; return v }},
	{"missing vector", false, func(v [][]float32) [][]float32 { return v[:len(v)-1] }},
}

// newcomers are a batch that replaces corpus()[0] and adds two documents.
func newcomers() []retrieval.Document {
	first := corpus()[0]
	first.Symbol, first.Text = "Overwritten", "overwritten text"
	return []retrieval.Document{
		first,
		{ID: "fresh-1", Path: "fresh/a.go", Symbol: "Fresh", Kind: "function", Language: "go", Text: "fresh one"},
		{ID: "fresh-2", Path: "fresh/b.go", Symbol: "Fresh", Kind: "function", Language: "go", Text: "fresh two"},
	}
}

// unchanged fails t unless b still holds corpus()[0] as stored and none of
// the other newcomers.
func unchanged(t *testing.T, b retrieval.Backend) {
	t.Helper()
	ids := docIDs(newcomers())
	if diff := diffDocs(corpus()[:1], fetch(t, b, ids...)); diff != "" {
		t.Errorf("after the refused batch, Fetch %v (-want +got):\n%s", ids, diff)
	}
}

func (s *suite) badEmbeddings(t *testing.T) {
	for _, c := range corruptions {
		t.Run(c.name, func(t *testing.T) {
			var armed atomic.Bool
			e := newEmbedder()
			e.After = func(v [][]float32) [][]float32 {
				if armed.Load() {
					return c.apply(v)
				}
				return v
			}
			b := s.fresh(t, e)
			ctx := context.Background()
			if err := b.Upsert(ctx, corpus()); err != nil {
				t.Fatal(err)
			}
			armed.Store(true)
			err := b.Upsert(ctx, newcomers())
			if err == nil || c.badRequest && !isBadRequest(err) {
				t.Errorf("Upsert with a %s embedding: err = %v, want an error (ErrBadRequest: %v)", c.name, err, c.badRequest)
			}
			hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: "open the store"})
			if err == nil || c.badRequest && !isBadRequest(err) || hits != nil {
				t.Errorf("vector search with a %s query embedding: %d hits, err = %v", c.name, len(hits), err)
			}
			armed.Store(false)
			unchanged(t, b)
			hits = search(t, b, retrieval.Request{Strategy: retrieval.Vector, Text: corpus()[0].Text, Limit: everything})
			if len(hits) != corpusSize || hits[0].Document.ID != corpus()[0].ID {
				t.Errorf("vector search after the refused batch: %v, want %s first of %d", hitIDs(hits), corpus()[0].ID, corpusSize)
			}
		})
	}
}

func (s *suite) badCallerVectors(t *testing.T) {
	ctx := context.Background()
	for _, c := range corruptions {
		t.Run(c.name, func(t *testing.T) {
			b := s.fresh(t, nil)
			if err := b.Upsert(ctx, corpus()); err != nil {
				t.Fatal(err)
			}
			docs := newcomers()
			vecs := make([][]float32, len(docs))
			for i, d := range docs {
				vecs[i] = testfixture.WordVector(d.Text, EmbedderDims)
			}
			err := b.(VectorWriter).UpsertVectors(ctx, docs, c.apply(vecs))
			if !isBadRequest(err) {
				t.Errorf("UpsertVectors with a %s vector: err = %v, want ErrBadRequest", c.name, err)
			}
			unchanged(t, b)
		})
	}
}
