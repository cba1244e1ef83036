package project_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/internal/testfixture"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestCapabilitiesWithoutATreeMatchAnOpenedProject: what the planner is
// told a configuration offers when there is no tree (rlm explain) is what
// a project opened with that configuration offers, the nature of its
// embedder included (the local one is lexical).
func TestCapabilitiesWithoutATreeMatchAnOpenedProject(t *testing.T) {
	for name, c := range map[string]struct {
		opts     project.Options
		embedder string
	}{
		"no embedder": {project.Options{}, ""},
		"embedder":    {project.Options{Embedder: localEmbedder(t)}, retrieval.EmbedderLexical},
	} {
		opts := c.opts
		t.Run(name, func(t *testing.T) {
			opts.InMemory = true
			p, err := project.Open(context.Background(), "../testdata/gosample", opts)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			sorted := func(c retrieval.Capabilities) retrieval.Capabilities {
				c.Strategies = slices.Clone(c.Strategies)
				slices.Sort(c.Strategies)
				return c
			}
			if diff := cmp.Diff(sorted(p.Capabilities()), sorted(project.Capabilities(opts))); diff != "" {
				t.Fatalf("(-opened +predicted):\n%s", diff)
			}
			if got := p.Capabilities().Embedder; got != c.embedder {
				t.Errorf("embedder %q, want %q", got, c.embedder)
			}
		})
	}
}

// TestRefreshMovesToTheNewSnapshotAfterAnEdit: without reopening, Refresh
// sees a file edited since Open and the search index shows the new bytes;
// with no change it reports none and keeps the snapshot.
func TestRefreshMovesToTheNewSnapshotAfterAnEdit(t *testing.T) {
	root := testfixture.CopyTree(t, "../testdata/gosample")
	ctx := context.Background()
	p, err := project.Open(ctx, root, project.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	before := p.Snapshot()
	if changed, err := p.Refresh(ctx); err != nil || changed {
		t.Fatalf("Refresh with no edit: changed=%v err=%v", changed, err)
	}
	find := func(name string) int {
		hits, err := search(t, p, retrieval.Request{Strategy: retrieval.Exact, Name: name, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return len(hits)
	}
	if find("Refreshed") != 0 {
		t.Fatal("Refreshed found before the edit")
	}
	if err := os.WriteFile(filepath.Join(root, "server.go"), []byte("package sample\n\nfunc Refreshed() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed, err := p.Refresh(ctx)
	if err != nil || !changed {
		t.Fatalf("Refresh after an edit: changed=%v err=%v", changed, err)
	}
	if p.Snapshot().Generation <= before.Generation {
		t.Fatalf("generation %d after the edit, was %d", p.Snapshot().Generation, before.Generation)
	}
	if find("Refreshed") != 1 || find("Server") != 0 {
		t.Fatalf("search index does not show the edited bytes: Refreshed=%d Server=%d", find("Refreshed"), find("Server"))
	}
}

// TestInMemoryWritesNothingUnderTheRoot: an InMemory project leaves the
// tree as it was and removes its temporary knowledge base on Close.
func TestInMemoryWritesNothingUnderTheRoot(t *testing.T) {
	root := testfixture.CopyTree(t, "../testdata/gosample")
	list := func() []string {
		var out []string
		filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error { out = append(out, p); return nil })
		return out
	}
	before := list()
	p, err := project.Open(context.Background(), root, project.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	db := p.Store().DBPath()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, list()); diff != "" {
		t.Fatalf("the tree changed:\n%s", diff)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("temporary knowledge base %s still there after Close (%v)", db, err)
	}
}

// TestSwitchingEmbedderKeepsABoundedSetOfSearchIndexes: the search index
// of a snapshot built with one embedder survives building it with another,
// so switching back reuses it without embedding again; across new
// snapshots each embedder keeps at most its two newest indexes (the current
// snapshot's among them; an index no one has open is updated in place into
// the next snapshot's of its embedder, so one project alone keeps one, and
// one that is read is copied), and at most four embedders keep any besides
// the current snapshot's, the least recently used dropped first.
func TestSwitchingEmbedderKeepsABoundedSetOfSearchIndexes(t *testing.T) {
	root := testfixture.CopyTree(t, "../testdata/gosample")
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	ctx := context.Background()
	open := func(e retrieval.Embedder) project.Stats {
		p, err := project.Open(ctx, root, project.Options{DBPath: db, Embedder: e})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		return p.Stats()
	}
	word := func(model string) *testfixture.WordEmbedder {
		return &testfixture.WordEmbedder{ModelID: model, Dims: 16}
	}
	a, b := word("a"), word("b")
	open(nil)
	open(a)
	open(b)
	texts := a.Texts.Load()
	if !open(nil).Reused || !open(a).Reused || !open(b).Reused {
		t.Fatal("switching embedders rebuilt a search index of the same snapshot")
	}
	if n := a.Texts.Load() - texts; n != 1 {
		t.Errorf("switching back to embedder a embedded %d texts, want only its probe", n)
	}
	gen := 1
	edit := func() {
		gen++
		if err := os.WriteFile(filepath.Join(root, "server.go"), []byte(fmt.Sprintf("package sample\n\nvar V%d int\n", gen)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kept := func() []string {
		idx, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "search-g*.sqlite"))
		var out []string
		for _, p := range idx {
			parts := strings.SplitN(strings.TrimSuffix(filepath.Base(p), ".sqlite"), "-", 4) // search, g<gen>, fingerprint, embedder...
			out = append(out, parts[1]+" "+strings.SplitN(parts[3], "-", 2)[0])
		}
		slices.Sort(out)
		return out
	}
	steps := []struct {
		use  retrieval.Embedder
		want []string
	}{
		{nil, []string{"g1 a", "g1 b", "g2 none"}},
		{nil, []string{"g1 a", "g1 b", "g3 none"}},
		{a, []string{"g1 b", "g3 none", "g4 a"}},
		{a, []string{"g1 b", "g3 none", "g5 a"}},
	}
	for i, s := range steps {
		edit()
		open(s.use)
		if diff := cmp.Diff(s.want, kept()); diff != "" {
			t.Fatalf("step %d: search indexes (generation, embedder) (-want +got):\n%s", i+1, diff)
		}
	}
	// Four more embedders at generation 5, c used again last; then at
	// generation 6 (a's index of generation 5 updated into it) only the
	// four most recently used (c, f, e, d) keep indexes of other
	// snapshots: none and b keep nothing.
	for _, m := range []string{"c", "d", "e", "f", "c"} {
		time.Sleep(10 * time.Millisecond) // distinct modification times
		open(word(m))
	}
	edit()
	open(a)
	want := []string{"g5 c", "g5 d", "g5 e", "g5 f", "g6 a"}
	if diff := cmp.Diff(want, kept()); diff != "" {
		t.Fatalf("with six embedders: search indexes (generation, embedder) (-want +got):\n%s", diff)
	}
	// While a project reads a's index of generation 6, generation 7's is
	// a copy of it; once no one reads them, generation 8's is generation
	// 7's updated in place and a keeps two (6 and 8): a, used last, and c,
	// f, e keep indexes of other snapshots, d no longer.
	hold, err := project.Open(ctx, root, project.Options{DBPath: db, Embedder: a})
	if err != nil {
		t.Fatal(err)
	}
	edit()
	open(a)
	hold.Close()
	edit()
	open(a)
	want = []string{"g5 c", "g5 e", "g5 f", "g6 a", "g8 a"}
	if diff := cmp.Diff(want, kept()); diff != "" {
		t.Fatalf("after an index was read during an update: search indexes (generation, embedder) (-want +got):\n%s", diff)
	}
}

// TestAKnowledgeBasePathThatIsASourceFileIsRefused: a knowledge base path
// naming an existing source file the tree's listing selects — an empty
// __init__.py — is refused before anything is written: the file keeps its
// bytes (SQLite would have made it a database); a path the listing does
// not select (kb.sqlite in the tree) opens.
func TestAKnowledgeBasePathThatIsASourceFileIsRefused(t *testing.T) {
	root := testfixture.WriteTree(t, map[string]string{"pkg/__init__.py": "", "pkg/m.py": "def f():\n    pass\n"})
	ctx := context.Background()
	for _, db := range []string{filepath.Join(root, "pkg", "__init__.py")} {
		p, err := project.Open(ctx, root, project.Options{DBPath: db})
		if err == nil {
			p.Close()
			t.Errorf("%s: opened, want it refused", db)
			continue
		}
		if !strings.Contains(err.Error(), "is a source file of the tree") {
			t.Errorf("%s: %v", db, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(root, "pkg", "__init__.py")); err != nil || fi.Size() != 0 {
		t.Errorf("__init__.py was changed: %v, %v", fi, err)
	}
	p, err := project.Open(ctx, root, project.Options{DBPath: filepath.Join(root, "kb.sqlite")})
	if err != nil {
		t.Fatalf("kb.sqlite in the tree: %v", err)
	}
	p.Close()
}
