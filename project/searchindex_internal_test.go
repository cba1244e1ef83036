package project

import (
	"context"
	"testing"

	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// The remote embedder says which endpoint serves it.
var _ Endpointer = (*providers.RemoteEmbedder)(nil)

// endpointEmbedder is an embedder served from an endpoint.
type endpointEmbedder struct {
	retrieval.FuncEmbedder
	url string
}

func (e endpointEmbedder) Endpoint() string { return e.url }

// constant returns an embedding function giving every text vec.
func constant(vec ...float32) func(context.Context, []string) ([][]float32, error) {
	return func(_ context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i := range out {
			out[i] = vec
		}
		return out, nil
	}
}

// TestSearchIndexNamesTellEveryConfigurationApart: a search index built
// for one snapshot, embedder and vector store is never reused for another
// (an index built for Chroma holds no vectors of its own); embedders
// differ by model, dimensions, endpoint and vector space (the signs of a
// probe text's vector), not by noise in the last digits.
func TestSearchIndexNamesTellEveryConfigurationApart(t *testing.T) {
	space := constant(0.5, -0.25, 0.125, -0.5, 0.5, 0.5, -0.1, 0.2)
	emb := retrieval.FuncEmbedder{ModelID: "m", Dims: 8, Func: space}
	emb16 := retrieval.FuncEmbedder{ModelID: "m", Dims: 16, Func: constant(0.5, -0.25, 0.125, -0.5, 0.5, 0.5, -0.1, 0.2, 1, 1, 1, 1, 1, 1, 1, 1)}
	otherSpace := retrieval.FuncEmbedder{ModelID: "m", Dims: 8, Func: constant(-0.5, 0.25, 0.125, -0.5, 0.5, 0.5, -0.1, 0.2)}
	noisy := retrieval.FuncEmbedder{ModelID: "m", Dims: 8, Func: constant(0.5000001, -0.2500001, 0.125, -0.5, 0.5, 0.5, -0.1, 0.2)}
	hostA := endpointEmbedder{emb, "https://a.example/v1"}
	hostB := endpointEmbedder{emb, "https://b.example/v1"}
	ident := func(e retrieval.Embedder) string {
		id, err := embedderIdentity(context.Background(), e)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	if ident(emb) != ident(noisy) {
		t.Errorf("noise in the last digits changed the identity: %s, %s", ident(emb), ident(noisy))
	}
	id1, id2 := store.Identity{Generation: 1, Fingerprint: 7}, store.Identity{Generation: 2, Fingerprint: 7}
	names := map[string]string{}
	for what, name := range map[string]string{
		"snapshot 1, no embedder":             searchIndexName(id1, ident(nil), false),
		"snapshot 2, no embedder":             searchIndexName(id2, ident(nil), false),
		"snapshot 1, m-8 embedded":            searchIndexName(id1, ident(emb), false),
		"snapshot 1, m-16 embedded":           searchIndexName(id1, ident(emb16), false),
		"snapshot 1, m-8 in Chroma":           searchIndexName(id1, ident(emb), true),
		"snapshot 1, m-16 in Chroma":          searchIndexName(id1, ident(emb16), true),
		"snapshot 1, m-8 of another space":    searchIndexName(id1, ident(otherSpace), false),
		"snapshot 1, m-8 served by a.example": searchIndexName(id1, ident(hostA), false),
		"snapshot 1, m-8 served by b.example": searchIndexName(id1, ident(hostB), false),
	} {
		if other, dup := names[name]; dup {
			t.Errorf("%s and %s share the search index %s", what, other, name)
		}
		names[name] = what
	}
}
