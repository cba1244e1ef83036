package project_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// TestATreeWithDocumentsChromaCannotHoldIsStillIndexed: with the Chroma
// backend, a definition whose references are over what a record's metadata
// may hold (like cmd/compile's generated tables) is stored with all its
// references (kept in the overflow collection), and one the collection refuses outright (an id over
// chroma.MaxIDBytes, from a deep path) does not stop the build: the tree
// is indexed, that definition is found by exact search, and the refusal is
// counted in the VectorState.
func TestATreeWithDocumentsChromaCannotHoldIsStillIndexed(t *testing.T) {
	ctx := context.Background()
	var table strings.Builder
	table.WriteString("package ssa\n\n// rewriteValue calls every rule.\nfunc rewriteValue() {\n")
	for i := range 6000 {
		fmt.Fprintf(&table, "\trule%05d()\n", i)
	}
	table.WriteString("}\n\n")
	for i := range 6000 {
		fmt.Fprintf(&table, "func rule%05d() {}\n", i)
	}
	deep := filepath.Join(strings.Repeat(strings.Repeat("d", 200)+"/", 6), "deep.go")
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{
		"ssa/opGen.go": table.String(),
		"a/a.go":       "package a\n\n// Parse reads a request.\nfunc Parse() {}\n",
		deep:           "package deep\n\n// Buried is far down.\nfunc Buried() {}\n",
	})
	cfg := chromaConfig(t)
	p, err := project.Open(ctx, root, project.Options{InMemory: true, Embedder: localEmbedder(t), Chroma: cfg})
	if err != nil {
		t.Fatalf("open a tree with a document Chroma refuses: %v", err)
	}
	defer p.Close()
	vs, _ := p.VectorState()
	if vs.Refused != 1 || !strings.Contains(vs.Refusal, "id over") {
		t.Errorf("VectorState %+v: want the one deep definition refused for its id", vs)
	}
	if hits, err := search(t, p, retrieval.Request{Strategy: retrieval.Exact, Name: "Buried"}); err != nil || len(hits) != 1 {
		t.Errorf("exact search for the refused definition: %d hits, %v", len(hits), err)
	}
	var want []retrieval.Document
	err = p.View(func(b retrieval.Backend, _ store.Identity) error {
		hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Exact, Name: "rewriteValue"})
		if err != nil || len(hits) != 1 {
			return fmt.Errorf("exact search for rewriteValue: %v, %v", hits, err)
		}
		want, err = b.Fetch(ctx, []string{hits[0].Document.ID})
		return err
	})
	if err != nil || len(want) != 1 || len(want[0].Refs) < 6000 {
		t.Fatalf("rewriteValue from the search index: %v, want its 6000 references", err)
	}
	got, err := collectionOf(t, cfg, root, localEmbedder(t)).Fetch(ctx, []string{want[0].ID})
	if err != nil || len(got) != 1 {
		t.Fatalf("rewriteValue from the collection: %d documents, %v", len(got), err)
	}
	if diff := cmp.Diff(want[0].Refs, got[0].Refs); diff != "" {
		t.Errorf("references in the collection (-search index +collection):\n%s", diff)
	}
}
