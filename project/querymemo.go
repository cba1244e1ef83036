package project

import (
	"container/list"
	"slices"
	"sync"
)

// queryMemoSize is how many single-text embeddings a project remembers.
const queryMemoSize = 32

// queryMemo remembers the vectors of the last few single-text Embed calls
// — a search's query. A demoted search embeds its query a second time for
// the search without the demoted roles (retrieval.SearchDemoting), and a
// REPL, a completion loop's retrieve or a batch asks the same question
// again: with a remote embedder each of those was another request.
// Batches (an index's documents) are not remembered. At most
// queryMemoSize texts, the least recently used dropped first; callers get
// copies, so a caller that scales its vector changes nothing here. Safe
// for concurrent use.
type queryMemo struct {
	mu    sync.Mutex
	order *list.List // of *memoEntry, most recent first
	byKey map[string]*list.Element
}

type memoEntry struct {
	text string
	vec  []float32
}

func newQueryMemo() *queryMemo {
	return &queryMemo{order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns a copy of the vector remembered for text.
func (m *queryMemo) get(text string) ([]float32, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.byKey[text]
	if !ok {
		return nil, false
	}
	m.order.MoveToFront(el)
	return slices.Clone(el.Value.(*memoEntry).vec), true
}

// put remembers a copy of vec for text.
func (m *queryMemo) put(text string, vec []float32) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if el, ok := m.byKey[text]; ok {
		el.Value.(*memoEntry).vec = slices.Clone(vec)
		m.order.MoveToFront(el)
		return
	}
	m.byKey[text] = m.order.PushFront(&memoEntry{text: text, vec: slices.Clone(vec)})
	for m.order.Len() > queryMemoSize {
		last := m.order.Back()
		m.order.Remove(last)
		delete(m.byKey, last.Value.(*memoEntry).text)
	}
}
