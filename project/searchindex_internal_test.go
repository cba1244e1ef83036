package project

import (
	"testing"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// TestSearchIndexNamesTellEveryConfigurationApart: a search index built
// for one snapshot, embedder and vector store is never reused for another
// (an index built for Chroma holds no vectors of its own).
func TestSearchIndexNamesTellEveryConfigurationApart(t *testing.T) {
	emb := retrieval.FuncEmbedder{ModelID: "m", Dims: 8}
	emb16 := retrieval.FuncEmbedder{ModelID: "m", Dims: 16}
	id1, id2 := store.Identity{Generation: 1, Fingerprint: 7}, store.Identity{Generation: 2, Fingerprint: 7}
	names := map[string]string{}
	for what, name := range map[string]string{
		"snapshot 1, no embedder":    searchIndexName(id1, nil, false),
		"snapshot 2, no embedder":    searchIndexName(id2, nil, false),
		"snapshot 1, m-8 embedded":   searchIndexName(id1, emb, false),
		"snapshot 1, m-16 embedded":  searchIndexName(id1, emb16, false),
		"snapshot 1, m-8 in Chroma":  searchIndexName(id1, emb, true),
		"snapshot 1, m-16 in Chroma": searchIndexName(id1, emb16, true),
	} {
		if other, dup := names[name]; dup {
			t.Errorf("%s and %s share the search index %s", what, other, name)
		}
		names[name] = what
	}
}
