package project_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
	"github.com/rlm-dev/rlm/retrieval/embedded"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// primaryOf is the embedded search index behind b: b itself, or the
// primary of a router that serves vectors from Chroma.
func primaryOf(b retrieval.Backend) (*embedded.Backend, error) {
	if r, ok := b.(*retrieval.Router); ok {
		b = r.Primary
	}
	e, ok := b.(*embedded.Backend)
	if !ok {
		return nil, fmt.Errorf("not an embedded search index: %T", b)
	}
	return e, nil
}

// indexVersions is the current search index's documents: id -> content
// hash.
func indexVersions(t *testing.T, p *project.Project) map[string]string {
	t.Helper()
	var want map[string]string
	err := p.View(func(b retrieval.Backend, _ store.Identity) error {
		e, err := primaryOf(b)
		if err != nil {
			return err
		}
		want, err = e.Versions(context.Background(), 0)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// checkCurrentGeneration fails unless the collection coll holds exactly
// the records of p's search index (ids and content hashes; nil coll: no
// Chroma to compare) and a vector search returns a full page: min(limit,
// documents) hits.
func checkCurrentGeneration(t *testing.T, step string, p *project.Project, coll *chroma.Backend) {
	t.Helper()
	ctx := context.Background()
	want := indexVersions(t, p)
	if len(want) == 0 {
		t.Fatalf("%s: an empty search index proves nothing", step)
	}
	if coll != nil {
		have, err := coll.Versions(ctx)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if d := cmp.Diff(want, have); d != "" {
			t.Errorf("%s: the collection is not the current generation (-index +collection):\n%s", step, d)
		}
	}
	req := retrieval.Request{Strategy: retrieval.Vector, Text: "server handler that fetches a form", Limit: 5}
	hits, err := search(t, p, req)
	if err != nil || len(hits) != min(req.Limit, len(want)) {
		t.Errorf("%s: %d vector hits for %d documents, want %d: %v", step, len(hits), len(want), min(req.Limit, len(want)), err)
	}
	for _, h := range hits {
		if want[h.Document.ID] != h.Document.ContentHash {
			t.Errorf("%s: vector hit %s at %s is not a current document", step, h.Document.ID, h.Document.ContentHash)
		}
	}
}

// shiftLines adds lines at the top of a file (every definition moves) and
// a new definition at its end (the document count changes).
func shiftLines(t *testing.T, root, path string, n int) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(path))
	b, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "package ", "// an added line\n\npackage ", 1)
	s += fmt.Sprintf("\n// Added%d is edit %d.\nfunc Added%d() int { return %d }\n", n, n, n, n)
	if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSwitchingBackendsBothWaysEndsWithTheCurrentRecords: one persistent
// knowledge base opened embedded → chroma → embedded → chroma ..., with
// edits between switches: the collection misses what changed while the
// project ran embedded — new definitions, new bytes, and a deleted file
// and a renamed definition whose records must go (extra). After every open with Chroma the collection holds exactly the search
// index's documents (ids and hashes) and a vector search returns a full
// page; embedded, vector search works too.
func TestSwitchingBackendsBothWaysEndsWithTheCurrentRecords(t *testing.T) {
	root := testfixture.CopyTree(t, "../testdata/gosample")
	emb := localEmbedder(t)
	cfg := chromaConfig(t)
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	coll := collectionOf(t, cfg, root, emb)
	steps := []struct {
		name   string
		chroma bool
		edit   func()
		// want, if set, is what the reconcile at this open must have
		// found.
		want func(project.VectorState) bool
	}{
		{"embedded, first index", false, func() {}, nil},
		{"chroma after embedded", true, func() {}, nil},
		{"embedded after edits", false, func() { shiftLines(t, root, "server.go", 1) }, nil},
		{"chroma behind by an edit", true, func() {}, nil},
		{"embedded after a delete and a rename", false, func() {
			shiftLines(t, root, "server.go", 2)
			if err := os.Remove(filepath.Join(root, "sub", "client.go")); err != nil {
				t.Fatal(err)
			}
			full := filepath.Join(root, "server.go")
			b, err := os.ReadFile(full)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(strings.Replace(string(b), "type Server struct", "type Server2 struct", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, nil},
		// The Chroma index of an earlier snapshot would be updated, its
		// records with it (TestChromaCollectionFollowsIncrementalUpdatesRecordForRecord);
		// without one the index is built whole, and the reconcile at
		// open must find the records the build did not write.
		{"chroma behind by a delete and a rename", true, func() { removeChromaIndexes(t, filepath.Dir(db)) }, func(s project.VectorState) bool { return s.Extra > 0 }},
		{"chroma after an edit", true, func() { shiftLines(t, root, "server.go", 3) }, nil},
		{"embedded again", false, func() { shiftLines(t, root, "server.go", 4) }, nil},
	}
	for _, s := range steps {
		s.edit()
		opts := project.Options{DBPath: db, Embedder: emb}
		var c *chroma.Backend
		if s.chroma {
			opts.Chroma, c = cfg, coll
		}
		p, err := project.Open(ctx, root, opts)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if st, _ := p.VectorState(); s.want != nil && !s.want(st) {
			t.Errorf("%s: the collection was not behind as the step means it to be: %+v", s.name, st)
		}
		checkCurrentGeneration(t, s.name, p, c)
		p.Close()
	}
}

// removeChromaIndexes removes the search indexes built for Chroma in dir.
func removeChromaIndexes(t *testing.T, dir string) {
	t.Helper()
	for _, n := range dirFiles(t, dir, func(n string) bool { return isSearchIndex(n) && strings.Contains(n, "-chroma-") }) {
		if err := os.Remove(filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
}

// chromaDatabase is a Chroma configuration with a tenant and database of
// its own, so that emptying them touches no other test's records.
func chromaDatabase(t *testing.T) *chroma.Config {
	t.Helper()
	cfg := chromaConfig(t)
	n := time.Now().UnixNano()
	cfg.Tenant, cfg.Database = fmt.Sprintf("soakt%d", n), fmt.Sprintf("soakd%d", n)
	return cfg
}

// emptyServer makes cfg's server look, to a client, like one restarted on
// an empty data directory: every collection of the tenant's database is
// deleted through the HTTP API, then the database itself.
func emptyServer(t *testing.T, cfg *chroma.Config) {
	t.Helper()
	db := cfg.URL + "/api/v2/tenants/" + url.PathEscape(cfg.Tenant) + "/databases/" + url.PathEscape(cfg.Database)
	do := func(method, u string) []byte {
		req, err := http.NewRequest(method, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %s %s", method, u, resp.Status, b)
		}
		return b
	}
	var colls []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(do(http.MethodGet, db+"/collections?limit=1000"), &colls); err != nil {
		t.Fatal(err)
	}
	if len(colls) == 0 {
		t.Fatal("no collection to delete: the project kept none on the server")
	}
	for _, c := range colls {
		do(http.MethodDelete, db+"/collections/"+url.PathEscape(c.Name))
	}
	do(http.MethodDelete, db)
}

// TestAServerRestartedEmptyIsRefilledWithTheCurrentRecords: between runs
// the Chroma server loses everything (a restart on an empty data
// directory, done here by deleting every collection and the database
// through the HTTP API — what a fresh data directory looks like to a
// client — since the test cannot restart the shared CI server), and the
// tree was edited. The next open on the same knowledge base recreates
// the database and collection and ends with exactly the current
// generation's records and a full page of vector hits; so does the open
// after a second emptying with no edit at all.
func TestAServerRestartedEmptyIsRefilledWithTheCurrentRecords(t *testing.T) {
	root := testfixture.CopyTree(t, "../testdata/gosample")
	emb := localEmbedder(t)
	cfg := chromaDatabase(t)
	ctx := context.Background()
	opts := project.Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite"), Embedder: emb, Chroma: cfg}
	// The last run reuses its search index: only the reconcile at open
	// can refill the collection.
	for i, edit := range []func(){
		func() {},
		func() { shiftLines(t, root, "server.go", 1) },
		func() {},
	} {
		if i > 0 {
			emptyServer(t, cfg)
		}
		edit()
		p, err := project.Open(ctx, root, opts)
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		step := fmt.Sprintf("run %d", i)
		if st, _ := p.VectorState(); i == 2 && (!st.Full || st.Missing == 0) {
			t.Errorf("%s: an emptied server was not noticed: %+v", step, st)
		}
		checkCurrentGeneration(t, step, p, collectionOf(t, cfg, root, emb))
		p.Close()
	}
}

// TestKnowledgeBasesOfOneTreeLeaveEachOtherTheCurrentRecords: two
// knowledge bases of one tree (a persistent one and an in-memory one)
// share its collection. The in-memory one indexes an edit, which is then
// undone: the persistent one reuses its search index of the original
// bytes and finds the collection holding records of the edited bytes
// (stale) and of a definition only the edit had (extra); it ends with
// exactly its own generation's records and a full page of vector hits.
func TestKnowledgeBasesOfOneTreeLeaveEachOtherTheCurrentRecords(t *testing.T) {
	root := testfixture.CopyTree(t, "../testdata/gosample")
	emb := localEmbedder(t)
	cfg := chromaConfig(t)
	ctx := context.Background()
	persistent := project.Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite"), Embedder: emb, Chroma: cfg}
	p, err := project.Open(ctx, root, persistent)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	full := filepath.Join(root, "server.go")
	original, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	shiftLines(t, root, "server.go", 1)
	q, err := project.Open(ctx, root, project.Options{InMemory: true, Embedder: emb, Chroma: cfg})
	if err != nil {
		t.Fatal(err)
	}
	q.Close()
	if err := os.WriteFile(full, original, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err = project.Open(ctx, root, persistent)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if st, _ := p.VectorState(); st.Stale == 0 || st.Extra == 0 || !p.Stats().Reused {
		t.Errorf("the reused search index did not find the other knowledge base's records (reused %v): %+v", p.Stats().Reused, st)
	}
	checkCurrentGeneration(t, "after the other knowledge base", p, collectionOf(t, cfg, root, emb))
}
