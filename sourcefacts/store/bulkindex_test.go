package store

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
)

// schemaOf lists the database's schema: every table, index and trigger
// sqlite_master holds with its statement, by name.
func schemaOf(t *testing.T, s *Store) string {
	t.Helper()
	rows, err := s.db.QueryContext(context.Background(), `SELECT type, name, tbl_name, COALESCE(sql, '') FROM sqlite_master ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, tbl, stmt string
		if err := rows.Scan(&typ, &name, &tbl, &stmt); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s ON %s: %s\n", typ, name, tbl, stmt)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// factRows dumps every fact row of the three fact tables, in key order.
func factRows(t *testing.T, s *Store) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT f.path, x.idx, x.file_gen, x.name, x.kind, x.receiver, x.container, x.signature, x.doc, x.sb, x.eb, x.sl, x.el, x.sc, x.ec, x.nsb, x.neb, x.nsl, x.nel, x.nsc, x.nec, x.role, x.type FROM symbols x JOIN files f ON f.id = x.file_id ORDER BY f.path, x.idx`,
		`SELECT f.path, x.idx, x.file_gen, x.name, x.kind, x.receiver, x.enclosing, x.sb, x.eb, x.sl, x.el, x.sc, x.ec, x.via, x.module, x.type, x.path FROM refs x JOIN files f ON f.id = x.file_id ORDER BY f.path, x.idx`,
		`SELECT f.path, x.idx, x.file_gen, x.path, x.alias, x.sb, x.eb, x.sl, x.el, x.sc, x.ec FROM imports x JOIN files f ON f.id = x.file_id ORDER BY f.path, x.idx`,
	} {
		rows, err := s.db.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%q\n", vals)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return b.String()
}

// usesIndex reports whether SQLite plans query with the index name.
func usesIndex(t *testing.T, s *Store, query, name string) bool {
	t.Helper()
	rows, err := s.db.QueryContext(context.Background(), `EXPLAIN QUERY PLAN `+query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(detail + "\n")
	}
	return strings.Contains(plan.String(), name)
}

// TestAColdBulkPublishEndsWithTheSchemaAndFactsOfARowByRowOne: a cold
// build (empty fact tables, many files) builds the secondary indexes
// after the rows; the knowledge base it commits has the very schema (every
// table and index, with its statement) and fact rows of one whose indexes
// were kept up to date row by row, passes Verify, and its name lookups
// use the indexes. A later publish into the filled tables keeps them and
// builds nothing again, and a cold publish of fewer files than the bound
// keeps them too.
func TestAColdBulkPublishEndsWithTheSchemaAndFactsOfARowByRowOne(t *testing.T) {
	ctx := testCtx(t)
	root := realTree(t)
	bulk := openStore(t, root, &Options{DBPath: t.TempDir() + "/bulk.sqlite"})
	bulk.bulkIndexFiles = 1
	rowwise := openStore(t, root, &Options{DBPath: t.TempDir() + "/rows.sqlite"})
	rowwise.bulkIndexFiles = math.MaxInt
	few := openStore(t, root, &Options{DBPath: t.TempDir() + "/few.sqlite"})
	few.bulkIndexFiles = len(realSources) + 1
	for _, s := range []*Store{bulk, rowwise, few} {
		snapshot(t, s, All(), SnapshotOptions{RequireCurrent: true}).Close()
	}
	if n := bulk.bulkBuilds.Load(); n != 1 {
		t.Fatalf("the cold publish built the indexes after the rows %d times, want 1", n)
	}
	if n := rowwise.bulkBuilds.Load() + few.bulkBuilds.Load(); n != 0 {
		t.Fatalf("publishes under the bound built the indexes after the rows %d times, want 0", n)
	}
	want, wantRows := schemaOf(t, rowwise), factRows(t, rowwise)
	if !strings.Contains(want, "index refs_name ON refs: CREATE INDEX refs_name ON refs(name, kind)") {
		t.Fatalf("the row-by-row schema lacks refs_name:\n%s", want)
	}
	if wantRows == "" {
		t.Fatal("no fact rows: the case proves nothing")
	}
	check := func(when string) {
		t.Helper()
		if got := schemaOf(t, bulk); got != want {
			t.Errorf("%s: schema\n%s\nwant that of a row-by-row publish:\n%s", when, got, want)
		}
		if got := factRows(t, bulk); got != factRows(t, rowwise) {
			t.Errorf("%s: the fact rows differ from a row-by-row publish's", when)
		}
		if err := bulk.Verify(ctx); err != nil {
			t.Errorf("%s: %v", when, err)
		}
		for q, idx := range map[string]string{
			`SELECT file_id FROM symbols WHERE name = 'Wrap'`:                "symbols_name",
			`SELECT file_id FROM refs WHERE name = 'Wrap' AND kind = 'call'`: "refs_name",
			`SELECT file_id FROM imports WHERE path = 'errors'`:              "imports_path",
		} {
			if !usesIndex(t, bulk, q, idx) {
				t.Errorf("%s: %s does not use %s", when, q, idx)
			}
		}
	}
	check("after the cold publish")

	// An edit publishes into filled tables: row by row.
	writeFile(t, root, "errors/wrap.go", append(readFile(t, root, "errors/wrap.go"), "\nfunc Added() {}\n"...))
	for _, s := range []*Store{bulk, rowwise} {
		snapshot(t, s, All(), SnapshotOptions{RequireCurrent: true}).Close()
	}
	if n := bulk.bulkBuilds.Load(); n != 1 {
		t.Fatalf("a publish into filled tables built the indexes again (%d builds, want 1)", n)
	}
	check("after an edit")
}
