package project_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// bigTree writes n Go files, each defining one function.
func bigTree(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	for i := range n {
		src := fmt.Sprintf("package p\n\n// F%d is function number %d.\nfunc F%d() { F%d() }\n", i, i, i, (i+1)%n)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%03d.go", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestConcurrentOpensOfOneRootAllSucceed: projects opened at the same time
// on one fresh tree and knowledge base (one process, several goroutines)
// each build or reuse the search index; no build clobbers another's.
func TestConcurrentOpensOfOneRootAllSucceed(t *testing.T) {
	root := bigTree(t, 200)
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := project.Open(context.Background(), root, project.Options{DBPath: db})
			if err == nil {
				_, err = search(t, p, retrieval.Request{Strategy: retrieval.Exact, Name: "F7", Limit: 5})
				p.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("open %d: %v", i, err)
		}
	}
}

// TestAnotherProjectsRefreshKeepsAnOpenSearchIndex: a project reading the
// search index of snapshot 1 keeps answering after another project on the
// same knowledge base moves on by three snapshots and cleans up old
// indexes.
func TestAnotherProjectsRefreshKeepsAnOpenSearchIndex(t *testing.T) {
	root := bigTree(t, 50)
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	ctx := context.Background()
	a, err := project.Open(ctx, root, project.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := project.Open(ctx, root, project.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// Enough new snapshots that a's index is past those kept for its
	// embedder (keepPerEmbedder): only a's lock keeps it.
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(root, "new.go"), fmt.Appendf(nil, "package p\n\nfunc Fresh%d() {}\n", i), 0o644); err != nil {
			t.Fatal(err)
		}
		if changed, err := b.Refresh(ctx); err != nil || !changed {
			t.Fatalf("b.Refresh: changed=%v err=%v", changed, err)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				hits, err := search(t, a, retrieval.Request{Strategy: retrieval.Lexical, Text: "function number", Limit: 5})
				if err != nil || len(hits) == 0 {
					t.Errorf("a's search after b's refresh: %d hits, %v", len(hits), err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestSearchAndRefreshAfterCloseAreErrors: a closed project answers
// store.ErrClosed, never a panic, also when Close races with searches.
func TestSearchAndRefreshAfterCloseAreErrors(t *testing.T) {
	root := bigTree(t, 20)
	p, err := project.Open(context.Background(), root, project.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				_, err := p.Refresh(context.Background())
				if err == nil {
					_, err = search(t, p, retrieval.Request{Strategy: retrieval.Exact, Name: "F1", Limit: 5})
				}
				if err != nil && !errors.Is(err, store.ErrClosed) {
					t.Errorf("during Close: %v", err)
					return
				}
			}
		}()
	}
	p.Close()
	wg.Wait()
	if _, err := p.Refresh(context.Background()); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Refresh after Close: %v", err)
	}
	if _, err := search(t, p, retrieval.Request{Strategy: retrieval.Exact, Name: "F1"}); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("search after Close: %v", err)
	}
}
