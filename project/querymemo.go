package project

import (
	"slices"

	lru "github.com/hashicorp/golang-lru/v2"
)

// queryMemoSize is how many single-text embeddings a project remembers.
const queryMemoSize = 32

// queryMemo remembers the vectors of the last few single-text Embed calls
// — a search's query. A demoted search embeds its query a second time for
// the search without the demoted roles (retrieval.SearchDemoting), and a
// REPL, a completion loop's retrieve or a batch asks the same question
// again: with a remote embedder each of those was another request.
// Batches (an index's documents) are not remembered. At most
// queryMemoSize texts, the least recently used dropped first
// (github.com/hashicorp/golang-lru/v2); callers get copies, so a caller
// that scales its vector changes nothing here. Safe for concurrent use.
type queryMemo struct {
	cache *lru.Cache[string, []float32]
}

func newQueryMemo() *queryMemo {
	c, err := lru.New[string, []float32](queryMemoSize)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return &queryMemo{cache: c}
}

// get returns a copy of the vector remembered for text.
func (m *queryMemo) get(text string) ([]float32, bool) {
	v, ok := m.cache.Get(text)
	if !ok {
		return nil, false
	}
	return slices.Clone(v), true
}

// put remembers a copy of vec for text.
func (m *queryMemo) put(text string, vec []float32) { m.cache.Add(text, slices.Clone(vec)) }
