package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// renamed is an embedder under another model id: another identity.
type renamed struct {
	retrieval.Embedder
	model string
}

func (r renamed) Model() string { return r.model }

// treeFails is an embedder that answers the identity probe but fails on
// the tree's texts, as the local embedder once failed on one huge text of
// GOROOT after answering the probe.
type treeFails struct{ switchable }

func (e *treeFails) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 1 && texts[0] == ProbeText {
		e.calls.Add(1)
		return e.switchable.Embedder.Embed(ctx, texts)
	}
	return e.switchable.Embed(ctx, texts)
}

// TestAFailedEmbedderIsNotRetriedByLaterProcessesBeforeTheInterval: once
// an embedder failed on a snapshot, the next Project opened over the same
// knowledge base (another process) does not call it at all before the
// retry interval: it opens the index without vectors at once, its vector
// and hybrid searches report the recorded failure, and ReadStatus shows
// the record. An embedder of another identity, or the same one after the
// interval, is called again; once it answers, the record is gone.
func TestAFailedEmbedderIsNotRetriedByLaterProcessesBeforeTheInterval(t *testing.T) {
	loc, err := providers.NewLocalEmbedder(providers.LocalConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		emb  func() (retrieval.Embedder, *switchable)
	}{
		{"dead embedder", func() (retrieval.Embedder, *switchable) { s := &switchable{Embedder: loc}; return s, s }},
		{"embedder failing on the tree", func() (retrieval.Embedder, *switchable) {
			e := &treeFails{switchable{Embedder: loc}}
			return e, &e.switchable
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			root := t.TempDir()
			testfixture.WriteFiles(t, root, map[string]string{"a.go": "package a\n\n// Parse reads a request.\nfunc Parse() {}\n"})
			emb, sw := c.emb()
			sw.dead.Store(true)
			open := func(e retrieval.Embedder, retry time.Duration) *Project {
				t.Helper()
				p, err := Open(ctx, root, Options{Embedder: e, RetryVectorsAfter: retry})
				if err != nil {
					t.Fatalf("open: %v", err)
				}
				t.Cleanup(func() { p.Close() })
				return p
			}
			first := open(emb, 0)
			note := first.VectorsUnavailable()
			if note == "" {
				t.Fatal("the first open has vectors from a failing embedder")
			}
			first.Close()

			calls := sw.calls.Load()
			second := open(emb, 0)
			if n := sw.calls.Load() - calls; n != 0 {
				t.Errorf("the second open called the failing embedder %d times within the retry interval, want 0", n)
			}
			if got := second.VectorsUnavailable(); got != note {
				t.Errorf("second open: VectorsUnavailable() = %q, want the recorded %q", got, note)
			}
			err := second.View(func(b retrieval.Backend, _ store.Identity) error {
				_, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Hybrid, Text: "reads a request"})
				return err
			})
			vf, ok := errors.AsType[*VectorFailure](err)
			if !errors.Is(err, retrieval.ErrUnavailable) || !ok || vf.Reason != "http 401" || strings.Contains(err.Error(), secret) {
				t.Errorf("hybrid search on the second open: %v; want ErrUnavailable caused by the recorded failure (http 401), no secret", err)
			}
			st, err := ReadStatus(ctx, root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if st.VectorFailure == nil || st.VectorFailure.Note != note || st.VectorFailure.Generation != st.Snapshot.Generation {
				t.Errorf("status: vector failure %+v, want the record of generation %d", st.VectorFailure, st.Snapshot.Generation)
			}
			second.Close()

			calls = sw.calls.Load()
			open(renamed{emb, "another-model"}, 0).Close()
			if sw.calls.Load() == calls {
				t.Error("an embedder of another identity was not called")
			}
			calls = sw.calls.Load()
			open(emb, time.Nanosecond).Close()
			if sw.calls.Load() == calls {
				t.Error("the failing embedder was not called again after the retry interval")
			}

			sw.dead.Store(false)
			back := open(emb, time.Nanosecond)
			if back.VectorsUnavailable() != "" {
				t.Fatalf("with the embedder back: %q", back.VectorsUnavailable())
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(back.st.DBPath()), vectorFailureFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the failure record is still there once the vectors were built: %v", err)
			}
		})
	}
}
