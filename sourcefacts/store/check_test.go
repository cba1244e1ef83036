package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// checkTree writes n small Go packages into a new root: pkgNN/fNN.go,
// each with one function, and returns the root and the paths.
func checkTree(t *testing.T, n int) (string, []string) {
	t.Helper()
	root := t.TempDir()
	var paths []string
	for i := range n {
		p := fmt.Sprintf("pkg%02d/f%02d.go", i%7, i)
		writeFile(t, root, p, fmt.Appendf(nil, "package pkg%02d\n\n// F%02d is file %d.\nfunc F%02d() int { return %d }\n", i%7, i, i, i, i))
		paths = append(paths, p)
	}
	return root, paths
}

// sameStatEdit rewrites the file in place with one letter changed (its
// doc comment's "file" becomes "File"): same size, same inode, and its old
// modification time put back.
func sameStatEdit(t *testing.T, root, rel string) {
	t.Helper()
	b := readFile(t, root, rel)
	i := bytes.Index(b, []byte(" is file "))
	if i < 0 {
		t.Fatalf("%s has no doc comment to edit", rel)
	}
	b[i+4] = 'F'
	rewriteInPlace(t, root, rel, b)
}

// rewriteInPlace writes b, as long as the file, over the file's bytes:
// same size, same inode, and its old modification time put back.
func rewriteInPlace(t *testing.T, root, rel string, b []byte) {
	t.Helper()
	abs := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Stat(abs)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(abs, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(b, 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(abs, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(abs)
	if err != nil {
		t.Fatal(err)
	}
	if after.Size() != fi.Size() || !after.ModTime().Equal(fi.ModTime()) || statOf(after).Ino != statOf(fi).Ino {
		t.Fatalf("%s: the edit changed its stat", rel)
	}
}

func TestTheParallelCheckSeesEveryChangedByteUnderAnUnchangedStat(t *testing.T) {
	for _, workers := range []int{1, 2, 8} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			ctx := testCtx(t)
			root, paths := checkTree(t, 40)
			s := openStore(t, root, &Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite"), Workers: workers})
			before := fileMap(t, snapshot(t, s, All(), SnapshotOptions{}))
			// A second check settles the stat cache; its Files come from the
			// cache of the first.
			snapshot(t, s, All(), SnapshotOptions{})
			// Every fifth file: one byte changed, its size, inode and
			// modification time as they were.
			changed := map[string]bool{}
			for i := 0; i < len(paths); i += 5 {
				sameStatEdit(t, root, paths[i])
				changed[paths[i]] = true
			}
			snap := snapshot(t, s, All(), SnapshotOptions{})
			after := fileMap(t, snap)
			checkFingerprint(t, snap)
			for _, p := range paths {
				want := before[p].Hash
				if changed[p] {
					want = fileHash(t, root, p)
					if want == before[p].Hash {
						t.Fatalf("%s: the edit kept the hash", p)
					}
				}
				if got := after[p].Hash; got != want {
					t.Errorf("%s: hash %s, want %s (changed %v)", p, got, want, changed[p])
				}
			}
			if err := s.Verify(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// fileHash hashes the file's bytes as they are now.
func fileHash(t *testing.T, root, rel string) sourcefacts.ContentHash {
	t.Helper()
	return sourcefacts.HashBytes(readFile(t, root, rel))
}

func TestFilesOfALaterSnapshotEqualTheFilesReadWhole(t *testing.T) {
	ctx := testCtx(t)
	root, paths := checkTree(t, 30)
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	s := openStore(t, root, &Options{DBPath: db})
	steps := []struct {
		name string
		do   func(t *testing.T)
	}{
		{"nothing changed", func(t *testing.T) {}},
		{"one file edited", func(t *testing.T) {
			writeFile(t, root, paths[3], append(readFile(t, root, paths[3]), "\nfunc Added() {}\n"...))
		}},
		{"files created, one deleted", func(t *testing.T) {
			for _, p := range []string{"aaa/first.go", "pkg03/zzz.go", "zzz/last.go"} {
				writeFile(t, root, p, []byte("package x\n\nfunc New() {}\n"))
			}
			if err := os.Remove(filepath.Join(root, paths[7])); err != nil {
				t.Fatal(err)
			}
		}},
		{"a file marked dirty", func(t *testing.T) {
			if err := s.MarkDirty(ctx, paths[11]); err != nil {
				t.Fatal(err)
			}
		}},
		{"the dirty mark flushed without a change (no generation)", func(t *testing.T) {
			if _, err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}},
		{"a harness write, unflushed", func(t *testing.T) {
			h := fileHash(t, root, paths[12])
			if _, err := s.ApplyPatch(ctx, paths[12], h, Patch{Edits: []Edit{{Start: 0, End: 0, Text: []byte("// edited\n")}}}); err != nil {
				t.Fatal(err)
			}
		}},
		{"the write flushed", func(t *testing.T) {
			if _, err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}},
		{"a deleted file back", func(t *testing.T) {
			writeFile(t, root, paths[7], []byte("package pkg00\n\nfunc Back() {}\n"))
		}},
		{"another process published", func(t *testing.T) {
			writeFile(t, root, paths[20], append(readFile(t, root, paths[20]), "\nfunc Other() {}\n"...))
			other := openStore(t, root, &Options{DBPath: db})
			snapshot(t, other, All(), SnapshotOptions{})
			other.Close()
		}},
	}
	for _, st := range steps {
		st.do(t)
		s.files.mu.Lock()
		base, baseID := s.files.files, s.files.id
		s.files.mu.Unlock()
		snap := snapshot(t, s, All(), SnapshotOptions{})
		if base != nil {
			// The files come from the cache and the rows published since,
			// not from a whole read after a failed merge.
			err := snap.query(func(tx *sql.Tx) error {
				_, merged, err := snap.filesSince(ctx, tx, base, baseID.Generation)
				if err == nil && !merged {
					t.Errorf("%s: the merge of the cache with the rows published since does not have the snapshot's fingerprint", st.name)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := snap.Files(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// A Store of its own reads every row: nothing cached.
		fresh := openStore(t, root, &Options{DBPath: db})
		want, err := snapshot(t, fresh, All(), SnapshotOptions{SkipValidation: true}).Files(ctx)
		if err != nil {
			t.Fatal(err)
		}
		fresh.Close()
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: Files (-read whole +from the cache):\n%s", st.name, diff)
		}
		if err := s.Verify(ctx); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		// And again from the cache of the same generation.
		again, err := snapshot(t, s, All(), SnapshotOptions{SkipValidation: true}).Files(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, again); diff != "" {
			t.Fatalf("%s: Files of the same generation (-read whole +from the cache):\n%s", st.name, diff)
		}
	}
}

func TestAPublishAfterAnotherConnectionCommittedLoadsTheStateAgain(t *testing.T) {
	ctx := testCtx(t)
	root, paths := checkTree(t, 12)
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	s := openStore(t, root, &Options{DBPath: db})
	snapshot(t, s, All(), SnapshotOptions{})
	// paths[0] changes before the check, so it publishes; paths[5]
	// changes after the check read it and another Store publishes it
	// before this one's publish begins.
	writeFile(t, root, paths[0], append(readFile(t, root, paths[0]), "\nfunc Mine() {}\n"...))
	s.afterCheck = func() {
		s.afterCheck = nil
		writeFile(t, root, paths[5], append(readFile(t, root, paths[5]), "\nfunc Theirs() {}\n"...))
		other := openStore(t, root, &Options{DBPath: db})
		snapshot(t, other, All(), SnapshotOptions{})
		other.Close()
	}
	snap := snapshot(t, s, All(), SnapshotOptions{})
	if err := s.Verify(ctx); err != nil {
		t.Fatalf("the publish took the state it loaded before the other's commit: %v", err)
	}
	files := fileMap(t, snap)
	for _, p := range []string{paths[0], paths[5]} {
		if got, want := files[p].Hash, fileHash(t, root, p); got != want {
			t.Errorf("%s: hash %s, want the bytes on disk %s", p, got, want)
		}
	}
	checkFingerprint(t, snap)
}

func TestTheCheckIsTheSameWhateverTheWorkersAndTheirScheduling(t *testing.T) {
	// The same edits on two copies of a tree, checked with 1 and with 8
	// workers: the same files, ids, generations, statuses and errors, in
	// the same order.
	run := func(workers int) ([]FileState, []FileState) {
		ctx := testCtx(t)
		root, paths := checkTree(t, 40)
		s := openStore(t, root, &Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite"), Workers: workers})
		snapshot(t, s, All(), SnapshotOptions{})
		for i := range 25 { // new files: ids are given in path order
			writeFile(t, root, fmt.Sprintf("new%02d/n.go", (i*7)%25), []byte("package n\n\nfunc N() {}\n"))
		}
		for i := 0; i < len(paths); i += 3 {
			writeFile(t, root, paths[i], append(readFile(t, root, paths[i]), "\nfunc E() {}\n"...))
		}
		writeFile(t, root, paths[1], []byte("package broken\n\nfunc (\n"))
		if err := os.Remove(filepath.Join(root, paths[2])); err != nil {
			t.Fatal(err)
		}
		snap := snapshot(t, s, All(), SnapshotOptions{})
		files, err := snap.Files(ctx)
		if err != nil {
			t.Fatal(err)
		}
		bad, err := snap.NotCurrent(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, fs := range [][]FileState{files, bad} {
			for i := range fs {
				fs[i].Snapshot = Identity{Generation: fs[i].Snapshot.Generation, Fingerprint: fs[i].Snapshot.Fingerprint}
			}
		}
		return files, bad
	}
	files1, bad1 := run(1)
	files8, bad8 := run(8)
	if diff := cmp.Diff(files1, files8); diff != "" {
		t.Errorf("Files (-1 worker +8 workers):\n%s", diff)
	}
	if diff := cmp.Diff(bad1, bad8); diff != "" {
		t.Errorf("NotCurrent (-1 worker +8 workers):\n%s", diff)
	}
	if len(bad1) == 0 {
		t.Error("the broken file is not among NotCurrent")
	}
}

func TestACancelledCheckStopsReadingAndPublishesNothing(t *testing.T) {
	ctx := testCtx(t)
	root, paths := checkTree(t, 60)
	ex := newCountingExtractor(t)
	s := openStore(t, root, &Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite"), Extractor: ex, Workers: 2})
	gen := snapshot(t, s, All(), SnapshotOptions{}).Identity().Generation
	// Only the last files in path order change: a check that went on
	// after the cancel would read the unchanged ones and extract these.
	sorted := slices.Sorted(slices.Values(paths))
	changed := sorted[len(sorted)-10:]
	for _, p := range changed {
		writeFile(t, root, p, append(readFile(t, root, p), "\nfunc E() {}\n"...))
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu        sync.Mutex
		done      int
		cancelled bool
	)
	const at = 5
	_, err := s.Snapshot(cctx, All(), SnapshotOptions{Progress: func(d, total int) {
		mu.Lock()
		defer mu.Unlock()
		done = d
		if d == at && !cancelled {
			cancelled = true
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Snapshot after cancel: %v, want context.Canceled", err)
	}
	// Each worker finishes at most the file it holds.
	if done > at+2 {
		t.Errorf("%d of %d files checked after the cancel at %d", done, len(paths), at)
	}
	for _, p := range changed {
		if n := ex.count(p); n != 1 { // the first check's
			t.Errorf("%s extracted %d times, want once (before the edits)", p, n)
		}
	}
	if got := snapshot(t, s, All(), SnapshotOptions{SkipValidation: true}).Identity().Generation; got != gen {
		t.Errorf("generation %d after a cancelled check, want %d", got, gen)
	}
}

func TestTheStateKeptBetweenChecksFollowsEveryCommit(t *testing.T) {
	ctx := testCtx(t)
	root, paths := checkTree(t, 20)
	old := time.Now().Add(-time.Hour) // no stat is racy
	for _, p := range paths {
		if err := os.Chtimes(filepath.Join(root, p), old, old); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	s := openStore(t, root, &Options{DBPath: db})
	// priorIsCurrent: the state the next check starts from is the one a
	// load reads now.
	priorIsCurrent := func(step string) {
		t.Helper()
		s.mu.Lock()
		pr, err := s.prior(ctx)
		s.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := loadState(ctx, s.db)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(fresh, pr.st, cmp.AllowUnexported(dbState{}, fileRow{})); diff != "" {
			t.Errorf("%s: the state a check starts from (-loaded now +kept):\n%s", step, diff)
		}
	}
	check := func(step string) Identity {
		t.Helper()
		snap := snapshot(t, s, All(), SnapshotOptions{})
		files := fileMap(t, snap)
		for _, p := range paths {
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				continue
			}
			if got, want := files[p].Hash, fileHash(t, root, p); got != want {
				t.Errorf("%s: %s has hash %s, the bytes on disk %s", step, p, got, want)
			}
		}
		if err := s.Verify(ctx); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		// Nothing was committed since the check: the state it keeps is
		// the one a load reads now.
		if pr := s.state.pr; pr == nil || pr.st == nil {
			t.Errorf("%s: no state kept", step)
		}
		priorIsCurrent(step)
		return snap.Identity()
	}
	id := check("indexed")
	// This Store's own publish brings the kept state up to date: the next
	// check of the unchanged tree publishes nothing.
	writeFile(t, root, paths[1], append(readFile(t, root, paths[1]), "\nfunc Mine() {}\n"...))
	if err := os.Chtimes(filepath.Join(root, paths[1]), old.Add(time.Minute), old.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	id = check("edited")
	if again := check("unchanged after an edit"); again.Generation != id.Generation {
		t.Errorf("an unchanged tree published generation %d after %d: the kept state missed this Store's own publish", again.Generation, id.Generation)
	}
	// Another Store publishes an edit, then the file is put back as it
	// was, its stat unchanged throughout: the kept state (before the
	// edit) matches the disk, the knowledge base does not.
	orig := readFile(t, root, paths[2])
	sameStatEdit(t, root, paths[2])
	other := openStore(t, root, &Options{DBPath: db})
	snapshot(t, other, All(), SnapshotOptions{})
	other.Close()
	priorIsCurrent("after another Store published")
	rewriteInPlace(t, root, paths[2], orig)
	check("edited, published by another Store, put back")
	// A harness write and its flush commit on the Store's other
	// connections.
	h := fileHash(t, root, paths[3])
	if _, err := s.ApplyPatch(ctx, paths[3], h, Patch{Edits: []Edit{{Start: 0, End: 0, Text: []byte("// edited\n")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, paths[3], orig3(t, root, paths[3]))
	check("written, flushed, put back")
	if err := os.Remove(filepath.Join(root, paths[4])); err != nil {
		t.Fatal(err)
	}
	id = check("deleted")
	if again := check("unchanged after a delete"); again.Generation != id.Generation {
		t.Errorf("an unchanged tree published generation %d after %d", again.Generation, id.Generation)
	}
	// New files, their paths before, between and after the stored ones:
	// the kept state's paths stay in order (the publish's fingerprint
	// is computed from them; Verify reads it back).
	for _, p := range []string{"a.go", "pkg03/e.go", "pkg03/f03.go.go", "zz/new.go"} {
		writeFile(t, root, p, []byte("package x\n\nfunc New() {}\n"))
	}
	check("added")
	writeFile(t, root, paths[4], []byte("package pkg04\n"))
	check("deleted file back")
	// Another Store publishes: this one loads the state again, its paths
	// in order from the query, and publishes from it.
	writeFile(t, root, paths[5], []byte("package pkg05\n"))
	other = openStore(t, root, &Options{DBPath: db})
	snapshot(t, other, All(), SnapshotOptions{})
	other.Close()
	writeFile(t, root, paths[6], []byte("package pkg06\n"))
	check("loaded again, edited")
}

// orig3 is the file without the first line ApplyPatch added.
func orig3(t *testing.T, root, rel string) []byte {
	t.Helper()
	b := readFile(t, root, rel)
	_, rest, ok := bytes.Cut(b, []byte("\n"))
	if !ok {
		t.Fatalf("%s has one line", rel)
	}
	return rest
}
