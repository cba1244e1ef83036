package project

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
)

// RetryVectorsAfter is how long a search index built without vectors
// (because the embedder failed) serves before a Refresh or a later Open of
// the same snapshot with the same embedder tries the embedder again (the
// default of Options.RetryVectorsAfter; see VectorFailure); a new snapshot
// or another embedder always tries.
const RetryVectorsAfter = time.Minute

// guardedEmbedder marks its embedder's failures (not a done context's) as
// a *retrieval.UnavailableError, so that the planner skips a vector step
// with a note and a build falls back to an index without vectors.
type guardedEmbedder struct {
	retrieval.Embedder
	memo *queryMemo // single-text embeddings (queries), see queryMemo
}

// Endpoint is the wrapped embedder's (Endpointer), "" if it has none.
func (g guardedEmbedder) Endpoint() string {
	if ep, ok := g.Embedder.(Endpointer); ok {
		return ep.Endpoint()
	}
	return ""
}

// Nature is the wrapped embedder's (retrieval.EmbedderNature).
func (g guardedEmbedder) Nature() string { return retrieval.EmbedderNature(g.Embedder) }

func (g guardedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 1 && g.memo != nil {
		if v, ok := g.memo.get(texts[0]); ok {
			return [][]float32{v}, nil
		}
	}
	v, err := g.Embedder.Embed(ctx, texts)
	if err != nil && ctx.Err() == nil {
		return nil, &retrieval.UnavailableError{Note: fmt.Sprintf("the embedder %s failed (%s)", textclip.Clean(g.Model(), 80), failure(err)), Err: err}
	}
	if err == nil && len(texts) == 1 && len(v) == 1 && g.memo != nil {
		g.memo.put(texts[0], v[0])
	}
	return v, err
}

// failure names the kind of err without its text, which may quote an
// endpoint or a provider's message: a *providers.Error's kind and HTTP
// status, else "error".
func failure(err error) string {
	pe, ok := errors.AsType[*providers.Error](err)
	switch {
	case !ok:
		return "error"
	case pe.Status != 0:
		return fmt.Sprintf("%s %d", pe.Kind, pe.Status)
	}
	return string(pe.Kind)
}

// noVectors is a search index built without vectors because the embedder
// failed. It offers the strategies of one with vectors, so the rules plan
// as usual, and answers vector and hybrid requests with that failure.
type noVectors struct {
	retrieval.Backend
	caps  retrieval.Capabilities
	err   *retrieval.UnavailableError
	since time.Time
}

func (n *noVectors) Capabilities() retrieval.Capabilities { return n.caps }

func (n *noVectors) Search(ctx context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	if req.Strategy == retrieval.Vector || req.Strategy == retrieval.Hybrid {
		return nil, n.err
	}
	return n.Backend.Search(ctx, req)
}

// retryVectors reports whether ix was built without vectors at least
// after ago.
func (ix *searchIndex) retryVectors(after time.Duration) bool {
	n, ok := ix.backend.(*noVectors)
	return ok && time.Since(n.since) >= after
}

// VectorsUnavailable is the note of the embedder failure that made the
// current search index one without vectors ("" if it has the vectors it
// was configured with, or none were).
func (p *Project) VectorsUnavailable() string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.index == nil {
		return ""
	}
	if n, ok := p.index.backend.(*noVectors); ok {
		return n.err.Note
	}
	return ""
}
