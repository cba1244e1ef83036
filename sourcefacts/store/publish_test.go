// Publication, snapshots, schema and lifecycle.

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/sourcefacts"
)

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
		if hits := testfixture.Must(snap.Symbols(ctx, "V1"))(t); len(hits) != 0 {
			t.Fatalf("stale candidate published: %+v", hits)
		}
		if hits := testfixture.Must(snap.Symbols(ctx, "V2"))(t); len(hits) != 1 || hits[0].Provenance.Hash != f.Hash {
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
		// big.go, over the size cap, is skipped: current, not refused.
		{"whole project", All(), []row{
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
	if err != nil || len(nc) != 4 {
		t.Fatalf("NotCurrent: %v, %v", rows(nc), err)
	}
	skipped := testfixture.Must(plain.Skipped(ctx))(t)
	if len(skipped) != 1 || skipped[0].Path != "big.go" || skipped[0].Status != sourcefacts.StatusSkipped ||
		skipped[0].Error != "too large: 215 bytes, over the size cap of 100" {
		t.Fatalf("Skipped: %+v", skipped)
	}
	if hits := testfixture.Must(plain.Symbols(ctx, "Dirty"))(t); len(hits) != 1 || hits[0].Status != StatusStale {
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
	if hits := testfixture.Must(snap.Symbols(ctx, "Changed"))(t); len(hits) != 1 || hits[0].Status != sourcefacts.StatusCurrent {
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
	h1 := testfixture.Must(hinted.Symbols(ctx, "Hinted"))(t)
	h2 := testfixture.Must(hinted.Symbols(ctx, "Unhinted"))(t)
	if len(h1) != 1 || len(h2) != 0 {
		t.Fatalf("hinted snapshot: hinted change %d hits, unhinted %d; want 1, 0", len(h1), len(h2))
	}
	full := snapshot(t, s, All(), SnapshotOptions{})
	if h2 := testfixture.Must(full.Symbols(ctx, "Unhinted"))(t); len(h2) != 1 {
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
