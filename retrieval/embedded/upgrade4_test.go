package embedded

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/rlm-dev/rlm/retrieval"
)

// resolvedCorpus is corpus() with what version 4 added to documents: a
// role, and calls that carry what they resolve to (all but those of
// readRequest, which stay matched by name).
func resolvedCorpus() []retrieval.Document {
	docs := corpus()
	for i := range docs {
		docs[i].Role = []string{"source", "test", "example"}[i%3]
		for j := range docs[i].Refs {
			if docs[i].Refs[j].Kind == "call" && docs[i].Refs[j].Name != "readRequest" {
				docs[i].Refs[j].Via, docs[i].Refs[j].Scope, docs[i].Refs[j].Type = "import", "go:net/http", "Server"
			}
		}
	}
	return docs
}

// v4Database writes docs into a new version 4 database at path, the way
// version 4 wrote them (version 3's tables plus docs.role, the refs
// columns via, scope and type, vectors.gen and vectorSchema), and returns
// it open.
func v4Database(t *testing.T, path string, docs []retrieval.Document) *sql.DB {
	t.Helper()
	ctx := context.Background()
	db := v3Database(t, path, docs, true)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("ALTER TABLE docs ADD COLUMN role TEXT NOT NULL DEFAULT ''")
	for _, c := range []string{"via", "scope", "type"} {
		exec("ALTER TABLE refs ADD COLUMN " + c + " TEXT NOT NULL DEFAULT ''")
	}
	exec("ALTER TABLE vectors ADD COLUMN gen INTEGER NOT NULL DEFAULT 0")
	exec(vectorSchemaV6)
	exec("DELETE FROM refs")
	for _, d := range docs {
		exec("UPDATE docs SET role = ? WHERE id = ?", d.Role, d.ID)
		for _, r := range d.Refs {
			exec("INSERT INTO refs (doc_id, name, kind, line, via, scope, type) VALUES (?, ?, ?, ?, ?, ?, ?)", d.ID, r.Name, r.Kind, r.Line, r.Via, r.Scope, r.Type)
		}
	}
	exec("PRAGMA user_version = 4")
	return db
}

// TestUpgradeFromSchemaVersion4KeepsRolesAndCallResolutions: a version 4
// database (roles, resolved calls, the quantised index's tables) opens as
// the current version with the same documents — roles and what each call
// resolves to included — and the same answers to role filters and callers
// as a database written by this version, its vector store identity kept.
func TestUpgradeFromSchemaVersion4KeepsRolesAndCallResolutions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v4.db")
	db := v4Database(t, path, resolvedCorpus())
	var uid string
	if err := db.QueryRowContext(ctx, "SELECT uid FROM vector_store").Scan(&uid); err != nil {
		t.Fatal(err)
	}
	db.Close()
	old := openVec(t, path, WithEmbedder(newWords()))
	if old.uid != uid {
		t.Errorf("vector store identity %q after the upgrade, want %q", old.uid, uid)
	}
	sameAsFresh(t, old, resolvedCorpus(), []retrieval.Request{
		{Strategy: retrieval.Structural, Filter: retrieval.Filter{Roles: []string{"test"}}},
		{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "readRequest"},
		{Strategy: retrieval.Vector, Text: "reads request"},
	})
}
