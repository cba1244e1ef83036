package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStatsCountsTheFactsOfEveryCommit: Stats' numbers of definitions,
// references and imports are those of the database after every kind of
// change — this Store's own publishes (an edit adding facts, a file
// deleted, a file added), which carry the counts kept from the last
// count instead of counting again, another Store's publish, a harness
// write and its flush on the Store's other connections — and while a
// check holds the Store (counted on the side).
func TestStatsCountsTheFactsOfEveryCommit(t *testing.T) {
	ctx := testCtx(t)
	root, paths := checkTree(t, 12)
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	s := openStore(t, root, &Options{DBPath: db})
	type counts struct{ Symbols, References, Imports int }
	fresh := func() counts {
		t.Helper()
		var c counts
		if err := s.db.QueryRowContext(ctx, `SELECT `+countsColumns).Scan(&c.Symbols, &c.References, &c.Imports); err != nil {
			t.Fatal(err)
		}
		return c
	}
	stats := func(step string) {
		t.Helper()
		st, err := s.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(fresh(), counts{st.Symbols, st.References, st.Imports}); diff != "" {
			t.Errorf("%s: Stats (-counted now +Stats):\n%s", step, diff)
		}
	}
	// ownPublish changes the tree, checks it and wants the counts kept
	// before it carried through its publish.
	ownPublish := func(step string, change func()) {
		t.Helper()
		stats(step + ": before")
		kept := s.state.counts
		change()
		snapshot(t, s, All(), SnapshotOptions{})
		if kept == nil || s.state.counts != kept {
			t.Errorf("%s: the publish did not carry the kept counts (%p, now %p)", step, kept, s.state.counts)
		}
		stats(step)
	}
	snapshot(t, s, All(), SnapshotOptions{})
	ownPublish("edited, facts added", func() {
		writeFile(t, root, paths[1], append(readFile(t, root, paths[1]), "\nfunc Mine() { Other(); Third() }\n\nfunc Other() {}\n"...))
	})
	ownPublish("edited, facts taken away", func() {
		writeFile(t, root, paths[2], []byte("package p\n"))
	})
	ownPublish("deleted", func() {
		if err := os.Remove(filepath.Join(root, paths[3])); err != nil {
			t.Fatal(err)
		}
	})
	ownPublish("added", func() {
		writeFile(t, root, "extra/new.go", []byte("package extra\n\nimport \"fmt\"\n\nfunc New() { fmt.Println() }\n"))
	})
	writeFile(t, root, paths[4], append(readFile(t, root, paths[4]), "\nfunc Theirs() {}\n"...))
	other := openStore(t, root, &Options{DBPath: db})
	snapshot(t, other, All(), SnapshotOptions{})
	other.Close()
	stats("published by another Store")
	h := fileHash(t, root, paths[5])
	if _, err := s.ApplyPatch(ctx, paths[5], h, Patch{Edits: []Edit{{Start: 0, End: 0, Text: []byte("func Patched() {}\n")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	stats("written and flushed")
	writeFile(t, root, paths[6], append(readFile(t, root, paths[6]), "\nfunc Late() {}\n"...))
	snapshot(t, s, All(), SnapshotOptions{})
	s.mu.Lock()
	stats("while the Store is held")
	s.mu.Unlock()
	stats("the Store free again")
}
