package project_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestChromaCollectionFollowsIncrementalUpdatesRecordForRecord: with the
// vectors in a Chroma server, each search index update (a file edited,
// lines shifted, a file deleted, renamed, added) deletes and upserts the
// changed files' records itself: the collection then holds exactly the
// index's documents (ids and content hashes), so the open finds it in sync
// without comparing every record, and vector search answers.
func TestChromaCollectionFollowsIncrementalUpdatesRecordForRecord(t *testing.T) {
	cfg := chromaConfig(t)
	root := codeTree(t, 8, 5)
	emb := localEmbedder(t)
	opts := project.Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite"), Embedder: emb, Chroma: cfg}
	ctx := context.Background()
	p, err := project.Open(ctx, root, opts)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	coll := collectionOf(t, cfg, root, emb)
	for _, s := range []struct {
		name string
		edit func(t *testing.T, root string)
	}{
		{"a file edited", func(t *testing.T, root string) { writeCode(t, root, 2, 6, 1) }},
		{"lines shifted", func(t *testing.T, root string) {
			editFile(t, filepath.Join(root, "f003.go"), "package p\n", "package p\n\n// more lines\n")
		}},
		{"a file deleted", func(t *testing.T, root string) { mustRemove(t, filepath.Join(root, "f004.go")) }},
		{"a file renamed", func(t *testing.T, root string) {
			if err := os.Rename(filepath.Join(root, "f005.go"), filepath.Join(root, "g005.go")); err != nil {
				t.Fatal(err)
			}
		}},
		{"a file added", func(t *testing.T, root string) { writeCode(t, root, 9, 3, 0) }},
	} {
		s.edit(t, root)
		p, err := project.Open(ctx, root, opts)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		st, _ := p.VectorState()
		if p.Stats().DerivedFrom == 0 || !st.InSync() || st.Full {
			t.Errorf("%s: derived from %d, collection %s (full comparison %v): want updated and in sync without one", s.name, p.Stats().DerivedFrom, st, st.Full)
		}
		have, err := coll.Versions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(indexVersions(t, p), have); diff != "" {
			t.Errorf("%s: collection records (-index +collection):\n%s", s.name, diff)
		}
		hits, err := search(t, p, retrieval.Request{Strategy: retrieval.Vector, Text: "function number 2 of file", Limit: 5})
		if err != nil || len(hits) != 5 {
			t.Errorf("%s: %d vector hits, %v", s.name, len(hits), err)
		}
		p.Close()
	}
}
