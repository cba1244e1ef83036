package project_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
)

// TestChromaHitsAreCheckedAgainstCurrentHashes: vectors left in a Chroma
// collection by an earlier index of a file that has since been deleted or
// changed never count as current hits.
func TestChromaHitsAreCheckedAgainstCurrentHashes(t *testing.T) {
	url := testfixture.ChromaURL(t)
	root := testfixture.CopyTree(t, "../testdata/gosample")
	emb := localEmbedder(t)
	cfg := &chroma.Config{URL: url, CollectionPrefix: fmt.Sprintf("fresh%d", time.Now().UnixNano())}
	ctx := context.Background()
	ix, err := project.Open(ctx, root, project.Options{InMemory: true, Embedder: emb, Chroma: cfg})
	if err != nil {
		t.Fatal(err)
	}
	req := retrieval.Request{Strategy: retrieval.Vector, Text: "Fetch parses a multipart form boundary and calls the server", Limit: 10}
	hits, err := search(t, ix, req)
	if err != nil || len(hits) == 0 || hits[0].Document.Path != "sub/client.go" {
		t.Fatalf("first index: %v %+v", err, hits)
	}
	ix.Close()

	// Delete one file and change another; index again into the same
	// collection. Chroma still holds the old vectors of both.
	if err := os.Remove(filepath.Join(root, "sub", "client.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "server.go"), []byte("package sample\n\n// Server2 replaces Server.\ntype Server2 struct{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix2, err := project.Open(ctx, root, project.Options{InMemory: true, Embedder: emb, Chroma: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer ix2.Close()
	hits, err = search(t, ix2, req)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Document.Path == "sub/client.go" || h.Document.Symbol == "ServeHTTP" {
			t.Errorf("stale hit counted as current: %s %s", h.Document.Path, h.Document.Symbol)
		}
	}
	if ix2.StaleHits() == 0 {
		t.Errorf("no stale hits were dropped; the check did not run")
	}
}
