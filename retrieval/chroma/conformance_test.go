package chroma_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
	"github.com/rlm-dev/rlm/retrieval/retrievaltest"
)

// TestChromaBackendKeepsTheRetrievalContract runs the conformance suite
// against a real Chroma server at $RLM_CHROMA_URL (skipped without one,
// failed without one under CI), each check in a fresh collection that is
// dropped afterwards.
func TestChromaBackendKeepsTheRetrievalContract(t *testing.T) {
	runSuite(t, chroma.Limits{})
}

// TestChromaBackendKeepsTheRetrievalContractUnderCloudQuotas runs the
// suite with Chroma Cloud's per-record quotas (chroma.CloudLimits), so that
// the large document's text, doc and metadata keys as well as its
// references are kept in the overflow collection.
func TestChromaBackendKeepsTheRetrievalContractUnderCloudQuotas(t *testing.T) {
	runSuite(t, chroma.CloudLimits())
}

func runSuite(t *testing.T, limits chroma.Limits) {
	url := testfixture.ChromaURL(t)
	retrievaltest.Run(t, func(t *testing.T, e retrieval.Embedder) (retrieval.Backend, error) {
		cfg := chroma.Config{URL: url, CollectionPrefix: testfixture.UniquePrefix("conf"), Embedder: e, Timeout: 30 * time.Second, Limits: limits}
		b, err := chroma.Open(context.Background(), cfg)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() {
			ctx := context.Background()
			err := b.DeleteCollection(ctx)
			if errors.Is(err, chroma.ErrClosed) { // the suite closed it: drop through a new handle
				var again *chroma.Backend
				if again, err = chroma.Open(ctx, cfg); err == nil {
					err = again.DeleteCollection(ctx)
					again.Close()
				}
			}
			if err != nil {
				t.Errorf("drop collection %s: %v", b.CollectionName(), err)
			}
			b.Close()
		})
		return b, nil
	})
}
