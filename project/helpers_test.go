package project_test

import (
	"context"
	"testing"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// localEmbedder is the offline embedder (a retrieval.Embedder).
func localEmbedder(t *testing.T) retrieval.Embedder {
	t.Helper()
	p, err := providers.NewLocalEmbedder(providers.LocalConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// search runs req against the project's current search index.
func search(t *testing.T, p *project.Project, req retrieval.Request) (hits []retrieval.Hit, err error) {
	t.Helper()
	err = p.View(func(b retrieval.Backend, _ store.Identity) error {
		hits, err = b.Search(context.Background(), req)
		return err
	})
	return hits, err
}
