package store

import (
	"bytes"
	"context"
	"database/sql"
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
	"github.com/rlm-dev/rlm/sourcefacts"
)

func TestEveryFactIsBoundToExactContentHashAndGeneration(t *testing.T) {
	ctx := testCtx(t)
	root := realTree(t)
	cx := newCountingExtractor(t)
	s := openStore(t, root, &Options{Extractor: cx, ExtractorVersion: sourcefacts.ExtractorVersion, Project: "p"})

	// want is what the extractor says about these exact bytes, stamped
	// with the project and the file generation.
	want := func(t *testing.T, rel string, src []byte, fileGen int64) *sourcefacts.FileFacts {
		ff, err := cx.ex.Extract(ctx, rel, src)
		if err != nil {
			t.Fatal(err)
		}
		ff.Provenance.Project = "p"
		ff.Provenance.Generation = fileGen
		return ff
	}
	// check proves that every fact of rel the snapshot serves — whole-file
	// facts, symbol, caller and import hits — is bound to HashBytes(src)
	// and fileGen, and equals a fresh extraction of src.
	check := func(t *testing.T, snap *Snapshot, rel string, src []byte, fileGen int64) {
		t.Helper()
		h := sourcefacts.HashBytes(src)
		id := snap.Identity()
		res, err := snap.Facts(ctx, rel)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want(t, rel, src, fileGen), res.Facts); d != "" {
			t.Fatalf("%s at %s: facts differ from extraction of its bytes (-want +got):\n%s", rel, id, d)
		}
		if res.File.Hash != h || res.File.FileGeneration != fileGen || res.Snapshot != id || res.File.Snapshot != id {
			t.Fatalf("%s: file state %+v, want hash %s, file generation %d, snapshot %s", rel, res.File, h, fileGen, id)
		}
		bound := func(what string, p sourcefacts.Provenance, sid Identity) {
			t.Helper()
			if p.Path == rel && (p.Hash != h || p.Generation != fileGen || sid != id) {
				t.Fatalf("%s hit in %s bound to %s gen %d at %s; want %s gen %d at %s", what, rel, p.Hash, p.Generation, sid, h, fileGen, id)
			}
		}
		for _, y := range res.Facts.Symbols {
			hits, err := snap.Symbols(ctx, y.Name)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, hit := range hits {
				bound("symbol "+y.Name, hit.Provenance, hit.Snapshot)
				found = found || hit.Provenance.Path == rel && hit.Symbol == y
			}
			if !found {
				t.Fatalf("Symbols(%q) misses %s's definition", y.Name, rel)
			}
		}
		for i, r := range res.Facts.References {
			if r.Kind != sourcefacts.RefCall || i%4 != 0 { // a sample keeps the test quick
				continue
			}
			hits, err := snap.Callers(ctx, r.Name)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, hit := range hits {
				bound("caller of "+r.Name, hit.Provenance, hit.Snapshot)
				if hit.Provenance.Path == rel && hit.Reference == r {
					found = true
					if r.Enclosing >= 0 && (hit.Caller == nil || *hit.Caller != res.Facts.Symbols[r.Enclosing]) {
						t.Fatalf("caller of %s: got %+v, want %+v", r.Name, hit.Caller, res.Facts.Symbols[r.Enclosing])
					}
				}
			}
			if !found {
				t.Fatalf("Callers(%q) misses the call in %s at %+v", r.Name, rel, r.Range)
			}
		}
		imps, err := snap.Imports(ctx, rel)
		if err != nil {
			t.Fatal(err)
		}
		if len(imps) != len(res.Facts.Imports) {
			t.Fatalf("Imports(%s): %d, facts have %d", rel, len(imps), len(res.Facts.Imports))
		}
		for i, im := range imps {
			bound("import", im.Provenance, im.Snapshot)
			if im.Import != res.Facts.Imports[i] {
				t.Fatalf("import %d: %+v, want %+v", i, im.Import, res.Facts.Imports[i])
			}
		}
	}
	paths := sortedKeys(realSources)

	snap1 := snapshot(t, s, All(), SnapshotOptions{})
	if g := snap1.Identity().Generation; g != 1 {
		t.Fatalf("first index published generation %d, want 1", g)
	}
	checkFingerprint(t, snap1)
	for _, rel := range paths {
		t.Run("gen1/"+rel, func(t *testing.T) { check(t, snap1, rel, readFile(t, root, rel), 1) })
	}

	// An edit of one file publishes generation 2: that file's generation
	// bumps, the others keep theirs and their facts.
	const edited = "list/list.go"
	old := readFile(t, root, edited)
	writeFile(t, root, edited, append(slices.Clone(old), "\n// Extra is new.\nfunc Extra() *List { return New().Init() }\n"...))
	snap2 := snapshot(t, s, All(), SnapshotOptions{})
	if g := snap2.Identity().Generation; g != 2 {
		t.Fatalf("after an edit: generation %d, want 2", g)
	}
	checkFingerprint(t, snap2)
	files := fileMap(t, snap2)
	for _, rel := range paths {
		t.Run("gen2/"+rel, func(t *testing.T) {
			wantGen, wantPub := int64(1), int64(1)
			if rel == edited {
				wantGen, wantPub = 2, 2
			}
			f := files[rel]
			if f.FileGeneration != wantGen || f.ParseGeneration != wantGen || f.PublishedIn != wantPub || f.Status != sourcefacts.StatusCurrent {
				t.Fatalf("%+v: want file/parse generation %d, published in %d, current", f, wantGen, wantPub)
			}
			if wantGen == 1 && cx.count(rel) != 1 {
				t.Fatalf("unchanged %s extracted %d times", rel, cx.count(rel))
			}
			check(t, snap2, rel, readFile(t, root, rel), wantGen)
		})
	}
	// The first snapshot, still open, keeps serving generation 1: the
	// old bytes' facts, bound to the old hash.
	check(t, snap1, edited, old, 1)
	if hits, _ := snap1.Symbols(ctx, "Extra"); len(hits) != 0 {
		t.Fatalf("generation-1 snapshot sees a generation-2 symbol: %+v", hits)
	}

	// Rewriting identical bytes publishes nothing and extracts nothing.
	writeFile(t, root, edited, readFile(t, root, edited))
	snap3 := snapshot(t, s, All(), SnapshotOptions{})
	if snap3.Identity() != snap2.Identity() || cx.count(edited) != 2 {
		t.Fatalf("identical rewrite: %s (was %s), %d extractions", snap3.Identity(), snap2.Identity(), cx.count(edited))
	}
	if err := s.Verify(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestExternalEditDetectedOnNextSnapshotWithoutWatcher(t *testing.T) {
	const rel = "list/list.go"
	old := time.Now().Add(-time.Hour)
	cases := []struct {
		name   string
		change func(t *testing.T, root string)
		path   string
		gone   bool
		symbol string // a definition that must now be served from path
		// statBlind: the edit keeps size, mtime and inode, so only hashing
		// sees it; TrustStat misses it (documented) but RequireCurrent
		// never trusts stat.
		statBlind bool
	}{
		{
			name: "same size, mtime restored",
			change: func(t *testing.T, root string) {
				b := bytes.Replace(readFile(t, root, rel), []byte("func New() *List"), []byte("func Neu() *List"), 1)
				writeFile(t, root, rel, b)
				if err := os.Chtimes(filepath.Join(root, rel), old, old); err != nil {
					t.Fatal(err)
				}
			},
			path: rel, symbol: "Neu", statBlind: true,
		},
		{
			name: "edited in place",
			change: func(t *testing.T, root string) {
				writeFile(t, root, rel, append(readFile(t, root, rel), "\nfunc Appended() {}\n"...))
			},
			path: rel, symbol: "Appended",
		},
		{
			name: "replaced by rename",
			change: func(t *testing.T, root string) {
				tmp := filepath.Join(root, "list", ".tmp")
				if err := os.WriteFile(tmp, []byte("package list\n\nfunc Replaced() {}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(tmp, filepath.Join(root, rel)); err != nil {
					t.Fatal(err)
				}
			},
			path: rel, symbol: "Replaced",
		},
		{
			name: "created",
			change: func(t *testing.T, root string) {
				writeFile(t, root, "extra/extra.go", []byte("package extra\n\nfunc Created() {}\n"))
			},
			path: "extra/extra.go", symbol: "Created",
		},
		{
			name: "deleted",
			change: func(t *testing.T, root string) {
				if err := os.Remove(filepath.Join(root, "sort/search.go")); err != nil {
					t.Fatal(err)
				}
			},
			path: "sort/search.go", gone: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			root := realTree(t)
			for p := range realSources {
				if err := os.Chtimes(filepath.Join(root, p), old, old); err != nil {
					t.Fatal(err)
				}
			}
			s := openStore(t, root, nil)
			before := snapshot(t, s, All(), SnapshotOptions{}).Identity()
			tc.change(t, root)

			served := func(snap *Snapshot) bool {
				t.Helper()
				f, ok := fileMap(t, snap)[tc.path]
				if tc.gone {
					_, err := snap.Facts(ctx, tc.path)
					return !ok && errors.Is(err, ErrNotFound)
				}
				hits, err := snap.Symbols(ctx, tc.symbol)
				if err != nil {
					t.Fatal(err)
				}
				return ok && len(hits) == 1 && hits[0].Provenance.Path == tc.path &&
					hits[0].Provenance.Hash == sourcefacts.HashBytes(readFile(t, root, tc.path)) && f.Hash == hits[0].Provenance.Hash
			}

			fast := snapshot(t, s, All(), SnapshotOptions{TrustStat: true})
			if got := served(fast); got == tc.statBlind {
				t.Fatalf("TrustStat snapshot served the change: %v, want %v", got, !tc.statBlind)
			}
			exact := snapshot(t, s, All(), SnapshotOptions{TrustStat: true, RequireCurrent: true})
			if !served(exact) {
				t.Fatal("RequireCurrent snapshot does not serve the edit")
			}
			plain := snapshot(t, s, All(), SnapshotOptions{})
			if !served(plain) || plain.Identity().Generation != before.Generation+1 {
				t.Fatalf("plain snapshot %s after %s: edit not served in exactly one new generation", plain.Identity(), before)
			}
			checkFingerprint(t, plain)
		})
	}
}

func TestFileIDIsStableAcrossDeleteAndRecreateAndNeverReused(t *testing.T) {
	root := realTree(t)
	s := openStore(t, root, nil)
	ids := func() map[string]int64 {
		m := map[string]int64{}
		for p, f := range fileMap(t, snapshot(t, s, All(), SnapshotOptions{})) {
			m[p] = f.ID
		}
		return m
	}
	first := ids()
	src := readFile(t, root, "sort/search.go")
	os.Remove(filepath.Join(root, "sort/search.go"))
	if _, ok := ids()["sort/search.go"]; ok {
		t.Fatal("deleted file still served")
	}
	writeFile(t, root, "sort/search.go", src)
	writeFile(t, root, "sort/new.go", []byte("package sort\n"))
	again := ids()
	if again["sort/search.go"] != first["sort/search.go"] {
		t.Fatalf("re-created path got id %d, was %d", again["sort/search.go"], first["sort/search.go"])
	}
	for p, id := range first {
		if id == again["sort/new.go"] {
			t.Fatalf("new path reuses the id of %s", p)
		}
	}
}

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
	if hits, _ := plain.Symbols(ctx, "One"); len(hits) != 0 {
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
	wantFF, _ := cx.ex.Extract(ctx, rel, final)
	wantFF.Provenance.Project, wantFF.Provenance.Generation = s.Project(), 2
	if d := cmp.Diff(wantFF, res.Facts); d != "" {
		t.Fatalf("flushed facts (-want +got):\n%s", d)
	}
	for _, name := range []string{"One", "Two"} {
		if hits, _ := cur.Symbols(ctx, name); len(hits) != 0 {
			t.Fatalf("intermediate symbol %s served after Flush", name)
		}
	}
	if d, _ := s.Dirty(ctx); len(d) != 0 {
		t.Fatalf("still dirty after Flush: %v", d)
	}
	if j, _ := s.Journal(ctx); len(j) != 0 {
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
			j, _ := s.Journal(ctx)
			if len(j) > 2 {
				t.Fatalf("journal holds %d edits, limit 2", len(j))
			}
			id, _ := s.currentIdentity(ctx)
			gens = append(gens, id.Generation)
		}
		// Writes 0,1 fill the journal; write 2 flushes them first, etc.
		if d := cmp.Diff([]int64{1, 1, 2, 2, 3}, gens); d != "" {
			t.Fatalf("generations after each write (-want +got):\n%s", d)
		}
	})
}

func TestConcurrentChangeBetweenExtractionAndPublishIsRejectedAndRetried(t *testing.T) {
	src := func(v string) []byte { return []byte("package p\n\nfunc " + v + "() {}\n") }

	t.Run("retried", func(t *testing.T) {
		ctx := testCtx(t)
		root := t.TempDir()
		writeFile(t, root, "a.go", src("V1"))
		writeFile(t, root, "b.go", src("B"))
		cx := newCountingExtractor(t)
		s := openStore(t, root, &Options{Extractor: cx})
		changed := false
		s.beforePublish = func(p string) {
			if p == "a.go" && !changed {
				changed = true
				writeFile(t, root, "a.go", src("V2")) // between extraction and commit
			}
		}
		snap := snapshot(t, s, All(), SnapshotOptions{})
		if !changed {
			t.Fatal("hook not called")
		}
		if g := snap.Identity().Generation; g != 1 {
			t.Fatalf("generation %d: the discarded candidate was published", g)
		}
		f := fileMap(t, snap)["a.go"]
		if f.Hash != sourcefacts.HashBytes(src("V2")) {
			t.Fatalf("a.go published as %s, want the bytes on disk", f.Hash)
		}
		if hits, _ := snap.Symbols(ctx, "V1"); len(hits) != 0 {
			t.Fatalf("stale candidate published: %+v", hits)
		}
		if hits, _ := snap.Symbols(ctx, "V2"); len(hits) != 1 || hits[0].Provenance.Hash != f.Hash {
			t.Fatalf("V2 hits %+v", hits)
		}
		if n := cx.count("a.go"); n != 2 {
			t.Fatalf("a.go extracted %d times, want 2 (stale candidate, then retry)", n)
		}
		if err := s.Verify(ctx); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("bounded", func(t *testing.T) {
		ctx := testCtx(t)
		root := t.TempDir()
		writeFile(t, root, "a.go", src("V0"))
		writeFile(t, root, "b.go", src("B"))
		s := openStore(t, root, nil)
		n := 0
		s.beforePublish = func(p string) {
			if p == "a.go" {
				n++
				writeFile(t, root, "a.go", src(fmt.Sprintf("V%d", n)))
			}
		}
		_, err := s.Snapshot(ctx, All(), SnapshotOptions{})
		se := asErr[*StaleError](t, err)
		if !errors.Is(err, ErrConcurrentChange) || se.Path != "a.go" || se.Attempts != DefaultMaxPublishAttempts {
			t.Fatalf("got %#v", se)
		}
		s.beforePublish = nil
		snap := snapshot(t, s, All(), SnapshotOptions{SkipValidation: true})
		if g := snap.Identity().Generation; g != 0 {
			t.Fatalf("a failed publish left generation %d", g)
		}
		if fs := fileMap(t, snap); len(fs) != 0 {
			t.Fatalf("a failed publish left files %v", fs)
		}
	})

	t.Run("flush", func(t *testing.T) {
		ctx := testCtx(t)
		root := t.TempDir()
		writeFile(t, root, "a.go", src("V0"))
		s := openStore(t, root, nil)
		snapshot(t, s, All(), SnapshotOptions{})
		if _, err := s.ApplyPatch(ctx, "a.go", sourcefacts.HashBytes(src("V0")), Patch{Edits: []Edit{{Start: 16, End: 18, Text: []byte("V1")}}}); err != nil {
			t.Fatal(err)
		}
		once := false
		s.beforePublish = func(p string) {
			if !once {
				once = true
				writeFile(t, root, "a.go", src("V9"))
			}
		}
		id, err := s.Flush(ctx)
		if err != nil {
			t.Fatal(err)
		}
		snap := snapshot(t, s, All(), SnapshotOptions{RequireCurrent: true})
		if snap.Identity() != id || fileMap(t, snap)["a.go"].Hash != sourcefacts.HashBytes(src("V9")) {
			t.Fatalf("flush published %s / %+v", id, fileMap(t, snap)["a.go"])
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
				if b, _ := os.ReadFile(outside); string(b) != "package outside\n" {
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
			if d, _ := s.Dirty(ctx); len(d) != 0 {
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
		if fi, _ := os.Stat(abs); fi.Mode().Perm() != 0o640 {
			t.Fatalf("mode %v after write, want 0640", fi.Mode())
		}
	})
}

func TestStalePartialErrorCannotSatisfyCurrentEvidenceQuery(t *testing.T) {
	ctx := testCtx(t)
	root := t.TempDir()
	files := map[string]string{
		"ok.go":      "package p\n\nfunc OK() {}\n",
		"partial.go": "package p\n\nfunc Broken( {\n",
		"binary.go":  "package p\x00\x01\x02",
		"big.go":     "package p\n\n// " + strings.Repeat("x", 200) + "\n",
		"dirty.go":   "package p\n\nfunc Dirty() {}\n",
		"sub/ok.go":  "package sub\n\nfunc SubOK() {}\n",
	}
	for p, b := range files {
		writeFile(t, root, p, []byte(b))
	}
	s := openStore(t, root, &Options{MaxFileBytes: 100})
	snapshot(t, s, All(), SnapshotOptions{})
	if _, err := s.ApplyPatch(ctx, "dirty.go", sourcefacts.HashBytes([]byte(files["dirty.go"])),
		Patch{Edits: []Edit{{Start: 16, End: 21, Text: []byte("Changed")}}}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "new.go", []byte("package p\n"))
	if err := s.MarkDirty(ctx, "new.go"); err != nil {
		t.Fatal(err)
	}

	type row struct {
		Path, Status string
		Dirty        bool
		FileGen      int64
	}
	rows := func(fs []FileState) []row {
		var out []row
		for _, f := range fs {
			out = append(out, row{f.Path, f.Status, f.Dirty, f.FileGeneration})
		}
		return out
	}
	cases := []struct {
		name  string
		scope Scope
		want  []row // nil: the snapshot is granted
	}{
		{"whole project", All(), []row{
			{"big.go", sourcefacts.StatusError, false, 1},
			{"binary.go", sourcefacts.StatusError, false, 1},
			{"dirty.go", StatusStale, true, 1},
			{"new.go", StatusStale, true, 0},
			{"partial.go", sourcefacts.StatusPartial, false, 1},
		}},
		{"one partial file", Scope{Paths: []string{"partial.go"}}, []row{{"partial.go", sourcefacts.StatusPartial, false, 1}}},
		{"one dirty file", Scope{Paths: []string{"dirty.go", "ok.go"}}, []row{{"dirty.go", StatusStale, true, 1}}},
		{"current files only", Scope{Paths: []string{"ok.go"}, Prefixes: []string{"sub"}}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			snap, err := s.Snapshot(ctx, tc.scope, SnapshotOptions{RequireCurrent: true})
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				defer snap.Close()
				for _, f := range fileMap(t, snap) {
					if f.Status != sourcefacts.StatusCurrent {
						t.Fatalf("granted snapshot serves %+v", f)
					}
				}
				return
			}
			if snap != nil {
				t.Fatal("a snapshot was returned with the error")
			}
			nce := asErr[*NotCurrentError](t, err)
			if !errors.Is(err, ErrNotCurrent) {
				t.Fatal("does not wrap ErrNotCurrent")
			}
			if d := cmp.Diff(tc.want, rows(nce.Files)); d != "" {
				t.Fatalf("NotCurrentError.Files (-want +got):\n%s", d)
			}
		})
	}

	// Without RequireCurrent the same facts are served, each flagged.
	plain := snapshot(t, s, All(), SnapshotOptions{})
	nc, err := plain.NotCurrent(ctx)
	if err != nil || len(nc) != 5 {
		t.Fatalf("NotCurrent: %v, %v", rows(nc), err)
	}
	if hits, _ := plain.Symbols(ctx, "Dirty"); len(hits) != 1 || hits[0].Status != StatusStale {
		t.Fatalf("old facts of a dirty file not flagged stale: %+v", hits)
	}
	// Repairing everything grants current evidence again.
	writeFile(t, root, "partial.go", []byte("package p\n\nfunc Fixed() {}\n"))
	os.Remove(filepath.Join(root, "binary.go"))
	os.Remove(filepath.Join(root, "big.go"))
	if _, err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	snap := snapshot(t, s, All(), SnapshotOptions{RequireCurrent: true})
	if hits, _ := snap.Symbols(ctx, "Changed"); len(hits) != 1 || hits[0].Status != sourcefacts.StatusCurrent {
		t.Fatalf("flushed write: %+v", hits)
	}
}

func TestHintedSnapshotNarrowsValidationOnlyWhenAsked(t *testing.T) {
	ctx := testCtx(t)
	root := realTree(t)
	cx := newCountingExtractor(t)
	s := openStore(t, root, &Options{Extractor: cx})
	// Before any full validation a hinted snapshot validates everything.
	s.SourceChangeHint("list/list.go")
	snapshot(t, s, All(), SnapshotOptions{Hinted: true})
	for p := range realSources {
		if cx.count(p) != 1 {
			t.Fatalf("%s extracted %d times", p, cx.count(p))
		}
	}
	writeFile(t, root, "list/list.go", append(readFile(t, root, "list/list.go"), "\nfunc Hinted() {}\n"...))
	writeFile(t, root, "sort/search.go", append(readFile(t, root, "sort/search.go"), "\nfunc Unhinted() {}\n"...))
	s.SourceChangeHint(filepath.Join(root, "list", "list.go")) // absolute paths are accepted
	hinted := snapshot(t, s, All(), SnapshotOptions{Hinted: true})
	h1, _ := hinted.Symbols(ctx, "Hinted")
	h2, _ := hinted.Symbols(ctx, "Unhinted")
	if len(h1) != 1 || len(h2) != 0 {
		t.Fatalf("hinted snapshot: hinted change %d hits, unhinted %d; want 1, 0", len(h1), len(h2))
	}
	full := snapshot(t, s, All(), SnapshotOptions{})
	if h2, _ := full.Symbols(ctx, "Unhinted"); len(h2) != 1 {
		t.Fatal("a snapshot without Hinted missed an unhinted change")
	}
}

func TestSchemaMigratesOlderDatabaseAndRefusesNewer(t *testing.T) {
	ctx := testCtx(t)
	root := realTree(t)
	old, err := open(ctx, root, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.db.ExecContext(ctx, `INSERT INTO files(path, present, status) VALUES ('kept.go', 0, 'current')`); err != nil {
		t.Fatal(err)
	}
	old.Close()

	s, err := Open(ctx, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	var v, id int
	s.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v)
	s.db.QueryRowContext(ctx, `SELECT id FROM files WHERE path = 'kept.go'`).Scan(&id)
	if v != SchemaVersion || id != 1 {
		t.Fatalf("after migration: user_version %d, kept row id %d", v, id)
	}
	snap, err := s.Snapshot(ctx, All(), SnapshotOptions{RequireCurrent: true}) // uses the v2 journal tables
	if err != nil {
		t.Fatal(err)
	}
	snap.Close()
	s.Close()

	db, err := sql.Open("sqlite", dsn(filepath.Join(root, ".rlm", "kb.sqlite"), time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(ctx, root, nil)
	se := asErr[*SchemaError](t, err)
	if !errors.Is(err, ErrSchemaTooNew) || se.Have != 99 || se.Want != SchemaVersion {
		t.Fatalf("%#v", se)
	}
}

func TestStoreAndSnapshotReportClosed(t *testing.T) {
	ctx := context.Background()
	root := realTree(t)
	s, err := Open(ctx, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := s.Snapshot(ctx, All(), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	snap.Close()
	if _, err := snap.Files(ctx); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed snapshot: %v", err)
	}
	s.Close()
	if _, err := s.Snapshot(ctx, All(), SnapshotOptions{}); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed store: %v", err)
	}
}

func TestStatsReportSizesOfTheCurrentGeneration(t *testing.T) {
	ctx := testCtx(t)
	root := realTree(t)
	s := openStore(t, root, nil)
	snapshot(t, s, All(), SnapshotOptions{})
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var src int64
	for p := range realSources {
		src += int64(len(readFile(t, root, p)))
	}
	if st.Generation != 1 || st.Files != len(realSources) || st.SourceBytes != src || st.Symbols == 0 || st.References == 0 || st.DBBytes <= 0 {
		t.Fatalf("%+v", st)
	}
	t.Logf("database: %.0f KB per MB of source (%d bytes for %d bytes)", float64(st.DBBytes)/1024/(float64(src)/1e6), st.DBBytes, src)
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
	if d, _ := s.Dirty(ctx); len(d) != 0 {
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
	if hits, _ := snapshot(t, s, All(), SnapshotOptions{}).Symbols(ctx, "External"); len(hits) != 0 {
		t.Fatal("unflushed external edit published by a snapshot")
	}
	if _, err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if hits, _ := snapshot(t, s, All(), SnapshotOptions{RequireCurrent: true}).Symbols(ctx, "External"); len(hits) != 1 || hits[0].Provenance.Hash != after {
		t.Fatalf("after Flush: %+v", hits)
	}
}
