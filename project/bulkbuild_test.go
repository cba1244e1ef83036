package project

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rlm-dev/rlm/internal/sqlitefile"
	"github.com/rlm-dev/rlm/retrieval/embedded"
)

// sqliteSchema is the tables and indexes of the SQLite file at path with
// their statements, and its schema version.
func sqliteSchema(t *testing.T, path string) (entries []string, version int) {
	t.Helper()
	db, err := sqlitefile.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_schema ORDER BY type, name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	return entries, version
}

// TestAFreshBuildIsPublishedWhole: a whole build, written without a
// journal and with its search indexes made at the end
// (embedded.WithBulkBuild), is renamed into place only once it holds the
// whole schema of a search index — every table and index a new embedded
// file has, at its schema version — in WAL mode. (That it holds what an
// update derives: TestAnIncrementallyUpdatedIndexHoldsWhatAFreshBuildHolds.)
func TestAFreshBuildIsPublishedWhole(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	for i := range 4 {
		src := fmt.Sprintf("package p\n\n// F%d is function number %d.\nfunc F%d() { F%d() }\n", i, i, i, (i+1)%4)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%d.go", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plain := filepath.Join(t.TempDir(), "plain.sqlite")
	b, err := embedded.Open(ctx, plain)
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	want, wantVersion := sqliteSchema(t, plain)
	made := 0
	opts := Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite")}
	opts.madeIndex = func(path string) {
		made++
		head := make([]byte, 20)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.Read(head)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if head[18] != 2 || head[19] != 2 {
			t.Errorf("the published index's header says read/write versions %d/%d, want 2/2 (WAL)", head[18], head[19])
		}
		got, version := sqliteSchema(t, path)
		for _, e := range want {
			if !slices.Contains(got, e) {
				t.Errorf("the published index lacks %s", e)
			}
		}
		if version != wantVersion {
			t.Errorf("the published index has schema version %d, want %d", version, wantVersion)
		}
	}
	p, err := Open(ctx, root, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if made != 1 {
		t.Errorf("made %d indexes, want 1", made)
	}
}
