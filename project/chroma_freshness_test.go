package project_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// countDocs counts the documents of a search index served with Chroma.
func countDocs(ctx context.Context, b retrieval.Backend) (int, error) {
	e, err := primaryOf(b)
	if err != nil {
		return 0, err
	}
	return e.Count(ctx)
}

// chromaConfig is a Chroma configuration of a collection prefix of its
// own, so that tests sharing a server never see each other's records.
func chromaConfig(t *testing.T) *chroma.Config {
	t.Helper()
	return &chroma.Config{URL: testfixture.ChromaURL(t), CollectionPrefix: fmt.Sprintf("fresh%d", time.Now().UnixNano())}
}

// collectionOf opens the Chroma collection a project at root uses with cfg.
func collectionOf(t *testing.T, cfg *chroma.Config, root string, emb retrieval.Embedder) *chroma.Backend {
	t.Helper()
	c := *cfg
	c.Embedder, c.Namespace = emb, project.ChromaNamespace(root)
	b, err := chroma.Open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// TestChromaHitsAreCheckedAgainstCurrentHashes: a record in the Chroma
// collection for another version of a file (left by another process
// indexing the tree at the same time) never counts as a current hit, and
// the hits it displaced are made up for: the search still returns as many
// current hits as the collection has.
func TestChromaHitsAreCheckedAgainstCurrentHashes(t *testing.T) {
	root := testfixture.CopyTree(t, "../testdata/gosample")
	emb := localEmbedder(t)
	cfg := chromaConfig(t)
	ctx := context.Background()
	ix, err := project.Open(ctx, root, project.Options{InMemory: true, Embedder: emb, Chroma: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	req := retrieval.Request{Strategy: retrieval.Vector, Text: "Fetch parses a multipart form boundary and calls the server", Limit: 3}
	before, err := search(t, ix, req)
	if err != nil || len(before) != 3 || before[0].Document.Path != "sub/client.go" {
		t.Fatalf("first search: %v %+v", err, before)
	}
	// Records of an older version of the files, nearest to the query.
	var stale []retrieval.Document
	for i := range 5 {
		stale = append(stale, retrieval.Document{ID: fmt.Sprintf("sub/client.go#Fetch~%d", 10+i), Path: "sub/client.go",
			Symbol: "Fetch", Qualified: "Fetch", Kind: "function", Language: "go", ContentHash: "sha256:old",
			Text: req.Text})
	}
	if err := collectionOf(t, cfg, root, emb).Upsert(ctx, stale); err != nil {
		t.Fatal(err)
	}
	hits, err := search(t, ix, req)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Document.ContentHash == "sha256:old" {
			t.Errorf("stale hit counted as current: %s", h.Document.ID)
		}
	}
	if len(hits) != len(before) {
		t.Errorf("%d hits after stale records displaced some, want %d", len(hits), len(before))
	}
	if ix.StaleHits() == 0 {
		t.Errorf("no stale hits were dropped; the check did not run")
	}
}

// TestChromaRecordsFollowTheTreeAcrossEdits: after edits that shift every
// line, a deleted file and a renamed definition, each reopened project's
// collection holds exactly the search index's documents (ids stable
// across line shifts; records of vanished documents deleted), and vector
// search returns a full page of current hits.
func TestChromaRecordsFollowTheTreeAcrossEdits(t *testing.T) {
	root := testfixture.CopyTree(t, "../testdata/gosample")
	emb := localEmbedder(t)
	cfg := chromaConfig(t)
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	req := retrieval.Request{Strategy: retrieval.Vector, Text: "server handler", Limit: 4}
	open := func(step string) (*project.Project, int) {
		t.Helper()
		p, err := project.Open(ctx, root, project.Options{DBPath: db, Embedder: emb, Chroma: cfg})
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		n := 0
		err = p.View(func(b retrieval.Backend, _ store.Identity) error {
			var err error
			n, err = countDocs(ctx, b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return p, n
	}
	p, _ := open("first index")
	p.Close()
	shift := func(path string) {
		full := filepath.Join(root, filepath.FromSlash(path))
		b, err := os.ReadFile(full)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Replace(string(b), "package ", "// an added line\n\npackage ", 1)
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name string
		edit func()
	}{
		{"lines shifted in server.go", func() { shift("server.go") }},
		{"lines shifted in both files", func() { shift("server.go"); shift("sub/client.go") }},
		{"lines shifted again", func() { shift("sub/client.go") }},
		{"a definition renamed", func() {
			full := filepath.Join(root, "server.go")
			b, _ := os.ReadFile(full)
			os.WriteFile(full, []byte(strings.Replace(string(b), "type Server struct", "type Server3 struct", 1)), 0o644)
		}},
		{"a file deleted", func() { os.Remove(filepath.Join(root, "sub", "client.go")) }},
		{"lines shifted once more", func() { shift("server.go") }},
	}
	coll := collectionOf(t, cfg, root, emb)
	for _, s := range steps {
		s.edit()
		p, docs := open(s.name)
		st, ok := p.VectorState()
		records, err := coll.Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok || records != docs {
			t.Errorf("%s: the collection holds %d records for %d documents (state %+v)", s.name, records, docs, st)
		}
		hits, err := search(t, p, req)
		if err != nil || len(hits) != min(docs, req.Limit) {
			t.Errorf("%s: %d vector hits for %d documents: %v", s.name, len(hits), docs, err)
		}
		p.Close()
	}
}

// TestTreesWithTheSamePathsKeepTheirOwnVectors: two trees whose files
// share relative paths, indexed against one Chroma server with one
// configuration, keep their own collections: indexing the second leaves
// the first's vector hits whole.
func TestTreesWithTheSamePathsKeepTheirOwnVectors(t *testing.T) {
	emb := localEmbedder(t)
	cfg := chromaConfig(t)
	ctx := context.Background()
	first := testfixture.CopyTree(t, "../testdata/gosample")
	second := testfixture.CopyTree(t, "../testdata/gosample")
	if err := os.WriteFile(filepath.Join(second, "server.go"), []byte("package sample\n\n// Other is all there is.\ntype Other struct{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	req := retrieval.Request{Strategy: retrieval.Vector, Text: "server handler", Limit: 10}
	p1, err := project.Open(ctx, first, project.Options{InMemory: true, Embedder: emb, Chroma: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer p1.Close()
	before, err := search(t, p1, req)
	if err != nil || len(before) == 0 {
		t.Fatalf("%v %d hits", err, len(before))
	}
	p2, err := project.Open(ctx, second, project.Options{InMemory: true, Embedder: emb, Chroma: cfg})
	if err != nil {
		t.Fatal(err)
	}
	p2.Close()
	after, err := search(t, p1, req)
	if err != nil || len(after) != len(before) {
		t.Errorf("the first tree's vector hits went %d -> %d after indexing the second (%v)", len(before), len(after), err)
	}
	if project.ChromaNamespace(first) == project.ChromaNamespace(second) {
		t.Errorf("two trees share the namespace %s", project.ChromaNamespace(first))
	}
}

// TestAReusedSearchIndexRefillsItsCollection: a collection deleted behind
// the project's back (or a server started on a fresh data directory) is
// noticed when the search index is reused, refilled, and reported.
func TestAReusedSearchIndexRefillsItsCollection(t *testing.T) {
	root := testfixture.CopyTree(t, "../testdata/gosample")
	emb := localEmbedder(t)
	cfg := chromaConfig(t)
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	opts := project.Options{DBPath: db, Embedder: emb, Chroma: cfg}
	p, err := project.Open(ctx, root, opts)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := p.VectorState()
	p.Close()
	if !first.InSync() || !first.Built || !strings.Contains(first.String(), "written with the new search index") {
		t.Fatalf("a freshly built index: %+v (%s), want in sync and built", first, first)
	}
	coll := collectionOf(t, cfg, root, emb)
	if err := coll.DeleteCollection(ctx); err != nil {
		t.Fatal(err)
	}
	p, err = project.Open(ctx, root, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	st, _ := p.VectorState()
	if st.Missing != st.Documents || st.Documents == 0 || !st.Full || st.Built || !strings.Contains(st.String(), "repaired") {
		t.Errorf("state after the collection was deleted: %+v (%s)", st, st)
	}
	hits, err := search(t, p, retrieval.Request{Strategy: retrieval.Vector, Text: "server handler", Limit: 3})
	if err != nil || len(hits) != 3 {
		t.Errorf("%d vector hits after the refill: %v", len(hits), err)
	}
}
