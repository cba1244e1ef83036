package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/internal/testfixture"
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
	if hits := testfixture.Must(snap1.Symbols(ctx, "Extra"))(t); len(hits) != 0 {
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
