package main

import (
	"context"
	"sync/atomic"

	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/retrieval"
)

// lexiconBackend is the backend the tabled rows plan for: the strategies
// every backend has; a structural listing finds a definition under any
// path and an exact look-up finds none, so that the features a snapshot's
// lexicon gives (bridge.QueryFeaturesIn) are those of
// bridge.QueryFeatures and the tabled plans are the untabled rows' plans.
// It counts the searches the planner asks it (the lexicon's look-ups).
type lexiconBackend struct {
	searches atomic.Int64
}

func (b *lexiconBackend) Search(_ context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	b.searches.Add(1)
	if req.Strategy == retrieval.Structural {
		return []retrieval.Hit{{Document: retrieval.Document{ID: "any"}, Strategy: retrieval.Structural, Rank: 1}}, nil
	}
	return nil, nil
}

func (b *lexiconBackend) Fetch(context.Context, []string) ([]retrieval.Document, error) {
	return nil, nil
}
func (b *lexiconBackend) Upsert(context.Context, []retrieval.Document) error { return nil }
func (b *lexiconBackend) Delete(context.Context, []string) error             { return nil }
func (b *lexiconBackend) Close() error                                       { return nil }
func (b *lexiconBackend) Capabilities() retrieval.Capabilities {
	return retrieval.Capabilities{Strategies: planner.DefaultStrategies()}
}
