//go:build linux

package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/nonroot"
)

// TestReadOnlyKnowledgeBaseAnswersFromItsLastGenerationAndNamesWhatChanged:
// a knowledge base file of mode 0444 (its directory writable, as a user
// file modes apply to) is opened read-only; snapshots show its last
// generation, name every file new, changed or deleted since as not current
// (RequireCurrent refuses them), forget a file once its bytes are back,
// and the file is never written.
func TestReadOnlyKnowledgeBaseAnswersFromItsLastGenerationAndNamesWhatChanged(t *testing.T) {
	nonroot.Run(t, func(t *testing.T) {
		ctx := testCtx(t)
		root := t.TempDir()
		a := []byte("package p\n\nfunc A() {}\n")
		writeFile(t, root, "a.go", a)
		writeFile(t, root, "b.go", []byte("package p\n\nfunc B() {}\n"))
		db := filepath.Join(t.TempDir(), "kb.sqlite")
		s := openStore(t, root, &Options{DBPath: db})
		gen := snapshot(t, s, All(), SnapshotOptions{}).Identity().Generation
		if s.ReadOnly() {
			t.Fatal("a writable knowledge base says it is read-only")
		}
		s.Close()
		if err := os.Chmod(db, 0o444); err != nil {
			t.Fatal(err)
		}
		before, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}

		s = openStore(t, root, &Options{DBPath: db})
		if !s.ReadOnly() {
			t.Fatal("a knowledge base of mode 0444 does not say it is read-only")
		}
		type state struct{ Path, Status, Error string }
		notCurrent := func(sn *Snapshot) []state {
			t.Helper()
			nc, err := sn.NotCurrent(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var out []state
			for _, f := range nc {
				out = append(out, state{f.Path, f.Status, f.Error})
			}
			return out
		}
		if got := notCurrent(snapshot(t, s, All(), SnapshotOptions{})); len(got) != 0 {
			t.Errorf("unchanged files not current: %v", got)
		}

		writeFile(t, root, "a.go", []byte("package p\n\nfunc A2() {}\n"))
		os.Remove(filepath.Join(root, "b.go"))
		writeFile(t, root, "c.go", []byte("package p\n\nfunc C() {}\n"))
		sn := snapshot(t, s, All(), SnapshotOptions{})
		if sn.Identity().Generation != gen {
			t.Errorf("generation %d, want the last one, %d", sn.Identity().Generation, gen)
		}
		want := []state{
			{"a.go", StatusStale, ReadOnlyReason + " changed since its last generation"},
			{"b.go", StatusStale, ReadOnlyReason + " deleted since its last generation"},
			{"c.go", StatusStale, ReadOnlyReason + " new since its last generation"},
		}
		if diff := cmp.Diff(want, notCurrent(sn)); diff != "" {
			t.Errorf("not current (-want +got):\n%s", diff)
		}
		if f := fileMap(t, sn)["a.go"]; f.Status != StatusStale {
			t.Errorf("a.go in Files: status %q, want %q", f.Status, StatusStale)
		}
		_, err = s.Snapshot(ctx, All(), SnapshotOptions{RequireCurrent: true})
		var nce *NotCurrentError
		if !errors.As(err, &nce) || len(nce.Files) != 3 {
			t.Errorf("RequireCurrent: %v, want a *NotCurrentError naming 3 files", err)
		}

		writeFile(t, root, "a.go", a)
		if diff := cmp.Diff(want[1:], notCurrent(snapshot(t, s, All(), SnapshotOptions{}))); diff != "" {
			t.Errorf("not current once a.go is back (-want +got):\n%s", diff)
		}
		s.Close()
		after, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Equal(before, after) {
			t.Error("the read-only knowledge base file was written")
		}
	})
}
