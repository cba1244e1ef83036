package embedded

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// schemaOf is the tables, indexes and triggers of b's database with their
// statements, and its schema version.
func schemaOf(t *testing.T, b *Backend) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := b.db.QueryContext(ctx, "SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_schema ORDER BY type, name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var v int
	if err := b.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return append(out, fmt.Sprint("user_version ", v))
}

// TestABulkBuildEndsWithTheSchemaAndRowsOfAnOrdinaryWrite: a file filled
// WithBulkBuild (no journal, the search indexes left for FinishBulk) and
// finished holds the schema, version, documents and answers of a file
// filled the ordinary way with the same writes; before FinishBulk it
// lacks the search indexes and the version, so that it is no database of
// this package yet.
func TestABulkBuildEndsWithTheSchemaAndRowsOfAnOrdinaryWrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	fill := func(name string, opts ...Option) *Backend {
		b, err := Open(ctx, filepath.Join(dir, name), opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		replaceAll(t, b, "v1", corpus())
		return b
	}
	plain := fill("plain.sqlite")
	bulk := fill("bulk.sqlite", WithBulkBuild(), WithUnsyncedWrites())
	before := schemaOf(t, bulk)
	for _, ix := range []string{"docs_symbol", "docs_qualified", "docs_symbol_fold", "docs_qualified_fold", "refs_nk"} {
		if slices.ContainsFunc(before, func(s string) bool { return s == "index "+ix || len(s) > len(ix)+7 && s[:len(ix)+7] == "index "+ix+" " }) {
			t.Errorf("before FinishBulk the bulk build has index %s", ix)
		}
	}
	if got := before[len(before)-1]; got != "user_version 0" {
		t.Errorf("before FinishBulk the bulk build has %s, want user_version 0", got)
	}
	var mode string
	if err := bulk.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "off" {
		t.Errorf("bulk build journal_mode %q (%v), want off", mode, err)
	}
	if err := bulk.FinishBulk(ctx); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(schemaOf(t, plain), schemaOf(t, bulk)); diff != "" {
		t.Errorf("schema (-ordinary +bulk):\n%s", diff)
	}
	if diff := cmp.Diff(allDocs(t, plain), allDocs(t, bulk)); diff != "" {
		t.Errorf("documents (-ordinary +bulk):\n%s", diff)
	}
	if diff := cmp.Diff(answersOf(t, plain), answersOf(t, bulk)); diff != "" {
		t.Errorf("answers (-ordinary +bulk):\n%s", diff)
	}
	// Reopened as an index is (WAL), the same.
	bulk.Close()
	again, err := Open(ctx, filepath.Join(dir, "bulk.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if diff := cmp.Diff(schemaOf(t, plain), schemaOf(t, again)); diff != "" {
		t.Errorf("schema reopened (-ordinary +bulk):\n%s", diff)
	}
	if err := again.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("reopened journal_mode %q (%v), want wal", mode, err)
	}
}

// TestAnUnfinishedBulkBuildIsCompletedByAnOrdinaryOpen: a bulk build
// closed without FinishBulk (its caller should discard it) is not taken
// as whole by an ordinary Open, which creates what FinishBulk would.
func TestAnUnfinishedBulkBuildIsCompletedByAnOrdinaryOpen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	plain, err := Open(ctx, filepath.Join(dir, "plain.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	replaceAll(t, plain, "v1", corpus())
	path := filepath.Join(dir, "bulk.sqlite")
	bulk, err := Open(ctx, path, WithBulkBuild())
	if err != nil {
		t.Fatal(err)
	}
	replaceAll(t, bulk, "v1", corpus())
	bulk.Close()
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if diff := cmp.Diff(schemaOf(t, plain), schemaOf(t, b)); diff != "" {
		t.Errorf("schema (-ordinary +unfinished bulk, opened):\n%s", diff)
	}
	if diff := cmp.Diff(answersOf(t, plain), answersOf(t, b)); diff != "" {
		t.Errorf("answers (-ordinary +unfinished bulk, opened):\n%s", diff)
	}
}
