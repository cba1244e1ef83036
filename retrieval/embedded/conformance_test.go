package embedded_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/embedded"
	"github.com/rlm-dev/rlm/retrieval/retrievaltest"
)

// TestEmbeddedBackendKeepsTheRetrievalContract runs the conformance suite
// against the embedded backend with an embedder (all six strategies), in
// memory and in a file, and without one (vector and hybrid unsupported).
func TestEmbeddedBackendKeepsTheRetrievalContract(t *testing.T) {
	opener := func(file, embeds bool) retrievaltest.Open {
		return func(t *testing.T, e retrieval.Embedder) (retrieval.Backend, error) {
			path := ""
			if file {
				path = filepath.Join(t.TempDir(), "rlm.db")
			}
			var opts []embedded.Option
			if embeds {
				opts = append(opts, embedded.WithEmbedder(e))
			}
			b, err := embedded.Open(context.Background(), path, opts...)
			if err != nil {
				return nil, err
			}
			t.Cleanup(func() { b.Close() })
			return b, nil
		}
	}
	t.Run("memory with embedder", func(t *testing.T) { retrievaltest.Run(t, opener(false, true)) })
	t.Run("file with embedder", func(t *testing.T) { retrievaltest.Run(t, opener(true, true)) })
	t.Run("memory without embedder", func(t *testing.T) { retrievaltest.Run(t, opener(false, false)) })
}
