package embedded

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// In-memory backends start as a copy of one schema image; each still gets
// a vector store identity of its own, and the copy holds the whole schema
// of a database created the usual way.
func TestInMemoryBackendsStartFromTheSchemaImageWithTheirOwnIdentity(t *testing.T) {
	ctx := context.Background()
	seen := map[string]bool{}
	for range 3 {
		b := openMem(t)
		if b.uid == "" || seen[b.uid] {
			t.Fatalf("vector store identity %q repeated or empty: %v", b.uid, seen)
		}
		seen[b.uid] = true
	}
	// The same tables, indexes, triggers and version as a file database
	// whose schema was created by its statements.
	schemaOf := func(b *Backend) []string {
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
		var v int
		if err := b.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return append(out, "user_version "+string(rune('0'+v)))
	}
	file, err := Open(ctx, t.TempDir()+"/f.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if diff := cmp.Diff(schemaOf(file), schemaOf(openMem(t))); diff != "" {
		t.Errorf("in-memory schema differs from a created one (-file +memory):\n%s", diff)
	}
}
