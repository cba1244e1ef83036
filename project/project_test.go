package project_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestCapabilitiesWithoutATreeMatchAnOpenedProject: what the planner is
// told a configuration offers when there is no tree (rlm explain) is what
// a project opened with that configuration offers.
func TestCapabilitiesWithoutATreeMatchAnOpenedProject(t *testing.T) {
	for name, opts := range map[string]project.Options{
		"no embedder": {},
		"embedder":    {Embedder: localEmbedder(t)},
	} {
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

// TestSwitchingEmbedderKeepsTheOtherSearchIndex: the search index of a
// snapshot built with one embedder survives building it with another, so
// switching back reuses it; a new snapshot removes both.
func TestSwitchingEmbedderKeepsTheOtherSearchIndex(t *testing.T) {
	root := testfixture.CopyTree(t, "../testdata/gosample")
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	ctx := context.Background()
	open := func(opts project.Options) project.Stats {
		opts.DBPath = db
		p, err := project.Open(ctx, root, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		return p.Stats()
	}
	emb := localEmbedder(t)
	open(project.Options{})
	open(project.Options{Embedder: emb})
	if !open(project.Options{}).Reused || !open(project.Options{Embedder: emb}).Reused {
		t.Fatal("switching embedders rebuilt a search index of the same snapshot")
	}
	if err := os.WriteFile(filepath.Join(root, "server.go"), []byte("package sample\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	open(project.Options{})
	idx, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "search-g*"))
	if len(idx) != 1 {
		t.Fatalf("after a new snapshot, search indexes %v; want only the new one", idx)
	}
}
