package rlm_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/sqlitefile"
)

// TestADamagedSearchIndexIsMadeAgainNotServed: a search index whose rows
// hold data the backend never writes (every document body overwritten
// with bytes of unknown flags, as a flipped byte would leave them: the
// file's header and pages still look whole, so it is opened as before)
// fails the search that reads it; the project removes the file, makes it
// again from the knowledge base and answers — the same answer as before
// the damage — and the next command finds a whole index.
func TestADamagedSearchIndexIsMadeAgainNotServed(t *testing.T) {
	ctx := context.Background()
	root := writeTree(t, map[string]string{
		"a.go": "package a\n\n// Weigh returns the weight of a parcel.\nfunc Weigh() int { return 1 }\n\nfunc Ship() { Weigh() }\n",
	})
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	const q = "what calls Weigh?"
	open := func() *rlm.Project {
		p, err := rlm.Open(ctx, root, rlm.Options{DBPath: db})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := open()
	before := hitList(searchAll(t, p, q))
	p.Close()
	idx, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "search-*.sqlite"))
	if len(idx) != 1 {
		t.Fatalf("search index files %q, want one", idx)
	}
	sdb, err := sqlitefile.Open(idx[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.ExecContext(ctx, `UPDATE docs SET body = x'ff01'`); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	for round := range 2 {
		p := open()
		a, err := p.Search(ctx, q, 10)
		if err != nil {
			p.Close()
			t.Fatalf("round %d: search over the damaged index: %v", round, err)
		}
		if got := hitList(a); got != before {
			t.Errorf("round %d: answer %s, want %s as before the damage", round, got, before)
		}
		p.Close()
	}
}
