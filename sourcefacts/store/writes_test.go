// Harness writes: patches, expected-hash checks, external CommitEdit.

package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// replaceLineDiff is a unified diff replacing line n (1-based) of src,
// whose lines all end in "\n", with repl.
func replaceLineDiff(path string, src []byte, n int, repl string) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	lines = lines[:len(lines)-1]
	start, end := max(1, n-2), min(len(lines), n+2)
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n@@ -%d,%d +%d,%d @@\n", path, path, start, end-start+1, start, end-start+1)
	for i := start; i <= end; i++ {
		if i == n {
			b.WriteString("-" + lines[i-1])
			b.WriteString("+" + repl + "\n")
		} else {
			b.WriteString(" " + lines[i-1])
		}
	}
	return []byte(b.String())
}

func lineOf(src []byte, s string) int {
	i := bytes.Index(src, []byte(s))
	if i < 0 {
		return -1
	}
	return bytes.Count(src[:i], []byte("\n")) + 1
}

func TestHarnessWriteDirtiesAtOnceAndThreeWritesCoalesceIntoOnePublication(t *testing.T) {
	ctx := testCtx(t)
	root := realTree(t)
	cx := newCountingExtractor(t)
	opts := &Options{Extractor: cx, ExtractorVersion: sourcefacts.ExtractorVersion}
	s := openStore(t, root, opts)
	snapshot(t, s, All(), SnapshotOptions{})
	const rel = "strings/builder.go"
	src0 := readFile(t, root, rel)
	h0 := sourcefacts.HashBytes(src0)

	// Write 1: byte-range edit.
	h1, err := s.ApplyPatch(ctx, rel, h0, Patch{Edits: []Edit{{Start: len(src0), End: len(src0), Text: []byte("\nfunc One() int { return 1 }\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := sourcefacts.HashBytes(readFile(t, root, rel)); got != h1 {
		t.Fatalf("ApplyPatch returned %s, file hashes to %s", h1, got)
	}
	// Dirty at once: current evidence is refused, naming the file ...
	_, err = s.Snapshot(ctx, All(), SnapshotOptions{RequireCurrent: true})
	nce := asErr[*NotCurrentError](t, err)
	if len(nce.Files) != 1 || nce.Files[0].Path != rel || nce.Files[0].Status != StatusStale || !nce.Files[0].Dirty {
		t.Fatalf("NotCurrentError.Files = %+v, want just %s stale and dirty", nce.Files, rel)
	}
	// ... and a plain snapshot flags the old facts stale and publishes
	// nothing of the intermediate bytes.
	plain := snapshot(t, s, All(), SnapshotOptions{})
	if g := plain.Identity().Generation; g != 1 {
		t.Fatalf("a snapshot published the dirty file: generation %d", g)
	}
	res, err := plain.Facts(ctx, rel)
	if err != nil {
		t.Fatal(err)
	}
	if res.File.Status != StatusStale || !res.File.Dirty || res.Facts.Status != StatusStale || res.File.Hash != h0 {
		t.Fatalf("dirty file served as %+v (facts status %s)", res.File, res.Facts.Status)
	}
	if hits := testfixture.Must(plain.Symbols(ctx, "One"))(t); len(hits) != 0 {
		t.Fatalf("intermediate state published: %+v", hits)
	}

	// The dirty mark survives a restart (it is in the database).
	s.Close()
	s = openStore(t, root, opts)
	if d, err := s.Dirty(ctx); err != nil || !slices.Equal(d, []string{rel}) {
		t.Fatalf("after reopen Dirty() = %v, %v", d, err)
	}

	// Write 2: unified diff. Write 3: edits again.
	src1 := readFile(t, root, rel)
	h2, err := s.ApplyPatch(ctx, rel, h1, Patch{UnifiedDiff: replaceLineDiff(rel, src1, lineOf(src1, "func One()"), "func Two() int { return 2 }")})
	if err != nil {
		t.Fatal(err)
	}
	src2 := readFile(t, root, rel)
	i := bytes.Index(src2, []byte("Two() int { return 2 }"))
	h3, err := s.ApplyPatch(ctx, rel, h2, Patch{Edits: []Edit{{Start: i, End: i + 3, Text: []byte("Three")}, {Start: i + 19, End: i + 20, Text: []byte("3")}}})
	if err != nil {
		t.Fatal(err)
	}
	final := readFile(t, root, rel)
	if !bytes.HasSuffix(final, []byte("\nfunc Three() int { return 3 }\n")) || sourcefacts.HashBytes(final) != h3 {
		t.Fatalf("after three writes the file ends %q", final[len(final)-40:])
	}
	if n := cx.count(rel); n != 1 {
		t.Fatalf("writes extracted %s: %d extractions, want 1 (the initial index)", rel, n)
	}
	j, err := s.Journal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var chain []sourcefacts.ContentHash
	for _, e := range j {
		chain = append(chain, e.Before, e.After)
	}
	if d := cmp.Diff([]sourcefacts.ContentHash{h0, h1, h1, h2, h2, h3}, chain); d != "" {
		t.Fatalf("journal hash chain (-want +got):\n%s", d)
	}

	// Flush: one read, one extraction, one generation for three writes.
	id, err := s.Flush(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if id.Generation != 2 {
		t.Fatalf("Flush published generation %d, want 2 (one publication)", id.Generation)
	}
	if n := cx.count(rel); n != 2 {
		t.Fatalf("Flush extracted %s %d times in all, want 2", rel, n)
	}
	cur := snapshot(t, s, All(), SnapshotOptions{RequireCurrent: true})
	if cur.Identity() != id {
		t.Fatalf("snapshot after Flush at %s, Flush said %s", cur.Identity(), id)
	}
	res, err = cur.Facts(ctx, rel)
	if err != nil {
		t.Fatal(err)
	}
	wantFF := testfixture.Must(cx.ex.Extract(ctx, rel, final))(t)
	wantFF.Provenance.Project, wantFF.Provenance.Generation = s.Project(), 2
	if d := cmp.Diff(wantFF, res.Facts); d != "" {
		t.Fatalf("flushed facts (-want +got):\n%s", d)
	}
	for _, name := range []string{"One", "Two"} {
		if hits := testfixture.Must(cur.Symbols(ctx, name))(t); len(hits) != 0 {
			t.Fatalf("intermediate symbol %s served after Flush", name)
		}
	}
	if d := testfixture.Must(s.Dirty(ctx))(t); len(d) != 0 {
		t.Fatalf("still dirty after Flush: %v", d)
	}
	if j := testfixture.Must(s.Journal(ctx))(t); len(j) != 0 {
		t.Fatalf("journal not empty after Flush: %d entries", len(j))
	}
	if again, err := s.Flush(ctx); err != nil || again != id {
		t.Fatalf("empty Flush: %s, %v; want %s", again, err, id)
	}

	t.Run("bounded journal flushes when full", func(t *testing.T) {
		root := realTree(t)
		s := openStore(t, root, &Options{JournalLimit: 2})
		snapshot(t, s, All(), SnapshotOptions{})
		h := sourcefacts.HashBytes(readFile(t, root, rel))
		gens := []int64{}
		for i := range 5 {
			var err error
			h, err = s.ApplyPatch(ctx, rel, h, Patch{Edits: []Edit{{Start: 0, End: 0, Text: fmt.Appendf(nil, "// write %d\n", i)}}})
			if err != nil {
				t.Fatal(err)
			}
			j := testfixture.Must(s.Journal(ctx))(t)
			if len(j) > 2 {
				t.Fatalf("journal holds %d edits, limit 2", len(j))
			}
			id := testfixture.Must(s.currentIdentity(ctx))(t)
			gens = append(gens, id.Generation)
		}
		// Writes 0,1 fill the journal; write 2 flushes them first, etc.
		if d := cmp.Diff([]int64{1, 1, 2, 2, 3}, gens); d != "" {
			t.Fatalf("generations after each write (-want +got):\n%s", d)
		}
	})
}

func TestExpectedHashConflictIsStructuredAndFileUntouched(t *testing.T) {
	const rel = "list/list.go"
	type state struct {
		names []string
		files map[string]string
		modes map[string]fs.FileMode
		times map[string]time.Time
	}
	// dirState captures every entry of the file's directory, so leftover
	// temporary files show too.
	dirState := func(t *testing.T, root string) state {
		dir := filepath.Join(root, "list")
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		st := state{files: map[string]string{}, modes: map[string]fs.FileMode{}, times: map[string]time.Time{}}
		for _, e := range ents {
			fi, err := e.Info()
			if err != nil {
				t.Fatal(err)
			}
			st.names = append(st.names, e.Name())
			st.modes[e.Name()], st.times[e.Name()] = fi.Mode(), fi.ModTime()
			if fi.Mode().IsRegular() {
				st.files[e.Name()] = string(readFile(t, dir, e.Name()))
			}
		}
		return st
	}
	outside := filepath.Join(t.TempDir(), "outside.go")
	if err := os.WriteFile(outside, []byte("package outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	insert := Patch{Edits: []Edit{{Start: 0, End: 0, Text: []byte("// hi\n")}}}

	cases := []struct {
		name     string
		setup    func(t *testing.T, root string)
		path     string
		expected func(src []byte) sourcefacts.ContentHash
		patch    Patch
		check    func(t *testing.T, root string, err error)
	}{
		{
			name:     "expected hash of other bytes",
			path:     rel,
			expected: func(src []byte) sourcefacts.ContentHash { return sourcefacts.HashBytes(append(src, '\n')) },
			patch:    insert,
			check: func(t *testing.T, root string, err error) {
				ce := asErr[*ConflictError](t, err)
				src := readFile(t, root, rel)
				want := &ConflictError{Path: rel, Expected: sourcefacts.HashBytes(append(src, '\n')), Actual: sourcefacts.HashBytes(src)}
				if d := cmp.Diff(want, ce); d != "" || !errors.Is(err, ErrConflict) {
					t.Fatalf("(-want +got):\n%s", d)
				}
			},
		},
		{
			name:     "missing file",
			path:     "list/nope.go",
			expected: func([]byte) sourcefacts.ContentHash { return sourcefacts.HashBytes(nil) },
			patch:    insert,
			check: func(t *testing.T, root string, err error) {
				ce := asErr[*ConflictError](t, err)
				if !ce.Missing || ce.Path != "list/nope.go" {
					t.Fatalf("%#v", ce)
				}
			},
		},
		{
			name:  "overlapping edits",
			path:  rel,
			patch: Patch{Edits: []Edit{{Start: 0, End: 10}, {Start: 5, End: 6}}},
			check: func(t *testing.T, root string, err error) {
				if pe := asErr[*PatchError](t, err); pe.Path != rel || !errors.Is(err, ErrBadPatch) {
					t.Fatalf("%#v", pe)
				}
			},
		},
		{
			name:  "edit out of range",
			path:  rel,
			patch: Patch{Edits: []Edit{{Start: 0, End: 1 << 30}}},
			check: func(t *testing.T, root string, err error) { asErr[*PatchError](t, err) },
		},
		{
			name:  "diff that does not apply",
			path:  rel,
			patch: Patch{UnifiedDiff: []byte("--- a/list/list.go\n+++ b/list/list.go\n@@ -1,1 +1,1 @@\n-not the first line\n+x\n")},
			check: func(t *testing.T, root string, err error) {
				if !errors.Is(asErr[*PatchError](t, err), ErrBadPatch) {
					t.Fatal(err)
				}
			},
		},
		{
			name:  "path escapes the root",
			path:  "../escape.go",
			patch: insert,
			check: func(t *testing.T, root string, err error) {
				if !errors.Is(err, ErrOutsideRoot) {
					t.Fatal(err)
				}
			},
		},
		{
			name: "symbolic link out of the root",
			setup: func(t *testing.T, root string) {
				if err := os.Symlink(outside, filepath.Join(root, "list", "link.go")); err != nil {
					t.Skip("no symlinks:", err)
				}
			},
			path:     "list/link.go",
			expected: func([]byte) sourcefacts.ContentHash { return sourcefacts.HashBytes([]byte("package outside\n")) },
			patch:    insert,
			check: func(t *testing.T, root string, err error) {
				if !errors.Is(err, ErrOutsideRoot) {
					t.Fatal(err)
				}
				if b := testfixture.Must(os.ReadFile(outside))(t); string(b) != "package outside\n" {
					t.Fatalf("file outside the root written: %q", b)
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			root := realTree(t)
			if tc.setup != nil {
				tc.setup(t, root)
			}
			s := openStore(t, root, nil)
			snapshot(t, s, All(), SnapshotOptions{})
			src := readFile(t, root, rel)
			exp := sourcefacts.HashBytes(src)
			if tc.expected != nil {
				exp = tc.expected(src)
			}
			before := dirState(t, root)
			time.Sleep(10 * time.Millisecond) // any write would show in mtimes
			_, err := s.ApplyPatch(ctx, tc.path, exp, tc.patch)
			if err == nil {
				t.Fatal("ApplyPatch succeeded")
			}
			tc.check(t, root, err)
			if d := cmp.Diff(before, dirState(t, root), cmp.AllowUnexported(state{})); d != "" {
				t.Fatalf("directory changed (-before +after):\n%s", d)
			}
			if d := testfixture.Must(s.Dirty(ctx))(t); len(d) != 0 {
				t.Fatalf("a failed write left %v dirty", d)
			}
			if _, err := s.Snapshot(ctx, All(), SnapshotOptions{RequireCurrent: true}); err != nil {
				t.Fatalf("after a failed write: %v", err)
			}
		})
	}

	t.Run("success keeps the mode", func(t *testing.T) {
		ctx := testCtx(t)
		root := realTree(t)
		s := openStore(t, root, nil)
		abs := filepath.Join(root, rel)
		if err := os.Chmod(abs, 0o640); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ApplyPatch(ctx, rel, sourcefacts.HashBytes(readFile(t, root, rel)), insert); err != nil {
			t.Fatal(err)
		}
		if fi := testfixture.Must(os.Stat(abs))(t); fi.Mode().Perm() != 0o640 {
			t.Fatalf("mode %v after write, want 0640", fi.Mode())
		}
	})
}

func TestExternalWriterCommitEditIsCheckedAndJournaled(t *testing.T) {
	ctx := testCtx(t)
	root := realTree(t)
	s := openStore(t, root, nil)
	snapshot(t, s, All(), SnapshotOptions{})
	const rel = "errors/wrap.go"
	before := sourcefacts.HashBytes(readFile(t, root, rel))
	writeFile(t, root, rel, append(readFile(t, root, rel), "\nfunc External() {}\n"...))
	after := sourcefacts.HashBytes(readFile(t, root, rel))

	// Claiming bytes the file does not hold is a conflict; nothing is
	// recorded.
	err := s.CommitEdit(ctx, rel, before, before, Patch{})
	if ce := asErr[*ConflictError](t, err); ce.Expected != before || ce.Actual != after {
		t.Fatalf("%#v", ce)
	}
	if d := testfixture.Must(s.Dirty(ctx))(t); len(d) != 0 {
		t.Fatalf("a refused CommitEdit left %v dirty", d)
	}
	if err := s.CommitEdit(ctx, rel, before, after, Patch{Edits: []Edit{{Start: 0, End: 0, Text: []byte("x")}}}); err != nil {
		t.Fatal(err)
	}
	j, err := s.Journal(ctx)
	if err != nil || len(j) != 1 || j[0].Kind != "commit" || j[0].Before != before || j[0].After != after || len(j[0].Patch) == 0 {
		t.Fatalf("journal %+v, %v", j, err)
	}
	// Dirty: a snapshot neither publishes the new bytes nor grants them.
	if _, err := s.Snapshot(ctx, All(), SnapshotOptions{RequireCurrent: true}); !errors.Is(err, ErrNotCurrent) {
		t.Fatalf("RequireCurrent over a committed, unflushed edit: %v", err)
	}
	if hits := testfixture.Must(snapshot(t, s, All(), SnapshotOptions{}).Symbols(ctx, "External"))(t); len(hits) != 0 {
		t.Fatal("unflushed external edit published by a snapshot")
	}
	if _, err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if hits := testfixture.Must(snapshot(t, s, All(), SnapshotOptions{RequireCurrent: true}).Symbols(ctx, "External"))(t); len(hits) != 1 || hits[0].Provenance.Hash != after {
		t.Fatalf("after Flush: %+v", hits)
	}
}
