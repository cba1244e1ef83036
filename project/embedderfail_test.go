package project

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// switchable is an embedder that fails, with a providers.Error quoting a
// key and its endpoint, while dead is set.
type switchable struct {
	retrieval.Embedder
	dead  atomic.Bool
	calls atomic.Int64
}

const secret = "sk-live-0123456789"

func (s *switchable) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	s.calls.Add(1)
	if s.dead.Load() {
		return nil, &providers.Error{Kind: providers.KindHTTP, Op: "embed", Status: 401, Model: "m",
			Message: "bad key " + secret + " at https://user:" + secret + "@embed.example/v1"}
	}
	return s.Embedder.Embed(ctx, texts)
}

// TestADeadEmbedderLeavesAnIndexWithoutVectorsUntilItAnswers: a project
// whose embedder fails still opens, on the snapshot's index without
// vectors; it keeps offering vector and hybrid search, which fail with a
// retrieval.UnavailableError whose note names the embedder and the kind
// of failure but no secret or endpoint; lexical search answers. A Refresh
// within RetryVectorsAfter does not call the embedder again; after it,
// once the embedder answers, the index has its vectors back.
func TestADeadEmbedderLeavesAnIndexWithoutVectorsUntilItAnswers(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{"a.go": "package a\n\n// Parse reads a request.\nfunc Parse() {}\n"})
	loc, err := providers.NewLocalEmbedder(providers.LocalConfig{})
	if err != nil {
		t.Fatal(err)
	}
	emb := &switchable{Embedder: loc}
	emb.dead.Store(true)
	p, err := Open(ctx, root, Options{InMemory: true, Embedder: emb})
	if err != nil {
		t.Fatalf("open with a dead embedder: %v", err)
	}
	defer p.Close()
	search := func(req retrieval.Request) (hits []retrieval.Hit, err error) {
		err = p.View(func(b retrieval.Backend, _ store.Identity) error {
			hits, err = b.Search(ctx, req)
			return err
		})
		return hits, err
	}
	note := p.VectorsUnavailable()
	if !strings.Contains(note, "the embedder") || !strings.Contains(note, "http 401") || strings.Contains(note, secret) || strings.Contains(note, "embed.example") {
		t.Errorf("VectorsUnavailable() = %q; want the embedder and its failure named, no key, no endpoint", note)
	}
	if !p.Capabilities().Supports(retrieval.Hybrid) || !p.Capabilities().Supports(retrieval.Vector) {
		t.Errorf("capabilities %v: the rules must still plan vector steps", p.Capabilities().Strategies)
	}
	for _, s := range []retrieval.Strategy{retrieval.Vector, retrieval.Hybrid} {
		_, err := search(retrieval.Request{Strategy: s, Text: "reads a request"})
		ue, ok := errors.AsType[*retrieval.UnavailableError](err)
		if !ok || !errors.Is(err, retrieval.ErrUnavailable) || ue.Note != note {
			t.Errorf("%s search: %v; want an UnavailableError with the note %q", s, err, note)
		}
	}
	if hits, err := search(retrieval.Request{Strategy: retrieval.Lexical, Text: "Parse"}); err != nil || len(hits) == 0 {
		t.Errorf("lexical search: %d hits, %v", len(hits), err)
	}
	emb.dead.Store(false)
	calls := emb.calls.Load()
	if _, err := p.Refresh(ctx); err != nil || emb.calls.Load() != calls || p.VectorsUnavailable() == "" {
		t.Fatalf("a refresh within RetryVectorsAfter: %v, %d embedder calls, note %q; want none and the note kept", err, emb.calls.Load()-calls, p.VectorsUnavailable())
	}
	p.index.backend.(*noVectors).since = time.Now().Add(-RetryVectorsAfter)
	if changed, err := p.Refresh(ctx); err != nil || changed || p.VectorsUnavailable() != "" {
		t.Fatalf("a refresh after RetryVectorsAfter: changed %v, %v, note %q; want the vectors back on the same snapshot", changed, err, p.VectorsUnavailable())
	}
	if hits, err := search(retrieval.Request{Strategy: retrieval.Vector, Text: "reads a request"}); err != nil || len(hits) == 0 {
		t.Errorf("vector search with the embedder back: %d hits, %v", len(hits), err)
	}
}
