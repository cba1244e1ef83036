package embedded

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rlm-dev/rlm/internal/sqlitefile"
	"github.com/rlm-dev/rlm/retrieval"
)

// docsV6 is the docs table of versions 5 and 6 (with name_words: 6): every
// id and Text stored whole.
const docsV6 = `
CREATE TABLE docs (
	rid            INTEGER PRIMARY KEY,
	id             TEXT NOT NULL,
	id_hash        INTEGER NOT NULL,
	path           TEXT NOT NULL,
	start_line     INTEGER NOT NULL,
	end_line       INTEGER NOT NULL,
	symbol         TEXT NOT NULL,
	qualified      TEXT NOT NULL,
	symbol_fold    TEXT,
	qualified_fold TEXT,
	kind           TEXT NOT NULL,
	language       TEXT NOT NULL,
	signature      TEXT NOT NULL,
	doc            TEXT NOT NULL,
	body           TEXT NOT NULL,
	hash_v         INTEGER NOT NULL,
	test           INTEGER NOT NULL,
	meta_v         INTEGER NOT NULL,
	changed        INTEGER NOT NULL,
	parser_v       INTEGER NOT NULL,
	refs_at        INTEGER NOT NULL,
	refs_n         INTEGER NOT NULL,
	role           TEXT NOT NULL DEFAULT '',
	name_words     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX docs_id ON docs(id_hash);
CREATE INDEX docs_path ON docs(path, start_line);
CREATE INDEX docs_symbol ON docs(symbol);
CREATE INDEX docs_qualified ON docs(qualified);
CREATE INDEX docs_symbol_fold ON docs(coalesce(symbol_fold, lower(symbol)));
CREATE INDEX docs_qualified_fold ON docs(coalesce(qualified_fold, lower(qualified)));
CREATE TABLE vectors (
	model   TEXT NOT NULL,
	dims    INTEGER NOT NULL,
	doc_id  TEXT NOT NULL,
	doc_rid INTEGER NOT NULL,
	vec     BLOB NOT NULL,
	gen     INTEGER NOT NULL DEFAULT 0,
	UNIQUE (model, dims, doc_id)
);
CREATE INDEX vectors_doc_id ON vectors(doc_id);
CREATE INDEX vectors_gen ON vectors(model, dims, gen);
CREATE INDEX vectors_rid ON vectors(model, dims, doc_rid);
`

// v6Database writes docs with the word embedder's vectors into a new
// database at path as version 6 held them: written by this version, then
// its docs and vectors tables put back in version 6's layout (ids and
// Texts whole, vectors as float32 keyed by model, dims and document id).
func v6Database(t *testing.T, path string, docs []retrieval.Document) {
	t.Helper()
	ctx := context.Background()
	b, err := Open(ctx, path, WithEmbedder(newWords()))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	b.Close()
	db, err := sqlitefile.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, q := range []string{"docs_id", "docs_path", "docs_symbol", "docs_qualified", "docs_symbol_fold", "docs_qualified_fold", "vectors_gen"} {
		exec("DROP INDEX " + q)
	}
	exec("ALTER TABLE docs RENAME TO docs7")
	exec("ALTER TABLE vectors RENAME TO vectors7")
	exec(docsV6)
	exec(`INSERT INTO docs SELECT rid, id, id_hash, path, start_line, end_line, symbol, qualified, symbol_fold, qualified_fold,
		kind, language, signature, doc, '', hash_v, test, meta_v, changed, parser_v, refs_at, refs_n, role, name_words FROM docs7`)
	e := newWords()
	for _, d := range docs {
		exec("UPDATE docs SET body = ? WHERE id = ?", d.Text, d.ID)
		vs, err := e.Embed(ctx, []string{retrieval.EmbeddingText(d)})
		if err != nil {
			t.Fatal(err)
		}
		exec(`INSERT INTO vectors (model, dims, doc_id, doc_rid, vec, gen)
			SELECT ?, ?, ?, v.doc_rid, ?, v.gen FROM vectors7 v JOIN docs d ON d.rid = v.doc_rid WHERE d.id = ?`,
			e.Model(), e.Dimensions(), d.ID, encodeFloat32(vs[0]), d.ID)
	}
	exec("DROP TABLE docs7")
	exec("DROP TABLE vectors7")
	exec("DROP TABLE vector_models")
	exec("PRAGMA user_version = 6")
}

// TestUpgradeFromSchemaVersion6StoresWhatThisVersionStores: a version 6
// database opens as version 7 with the same documents and answers
// (vectors included) as one this version wrote, its ids and Texts rewritten
// as this version stores them where they can be (no id made from path and
// name stored, every Text readable) and its vectors as binary16 keyed by
// document row.
func TestUpgradeFromSchemaVersion6StoresWhatThisVersionStores(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v6.db")
	// Every other document has the id project gives a definition.
	docs := corpus()
	nth, made := map[string]int{}, 0
	for i := range docs {
		if i%2 == 0 && docs[i].Qualified != "" {
			k := docs[i].Path + "#" + docs[i].Qualified
			docs[i].ID = retrieval.SymbolDocumentID(docs[i].Path, docs[i].Qualified, nth[k])
			if nth[k] == 0 {
				made++
			}
			nth[k]++
		}
	}
	v6Database(t, path, docs)
	old := openVec(t, path, WithEmbedder(newWords()))
	sameAsFresh(t, old, docs, []retrieval.Request{
		{Strategy: retrieval.Lexical, Text: "serve http request"},
		{Strategy: retrieval.Exact, Name: "ServeHTTP"},
		{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "readRequest"},
		{Strategy: retrieval.Vector, Text: "reads request"},
		{Strategy: retrieval.Hybrid, Text: "reads request"},
	})
	// The upgrade gives back the pages the rewritten rows left.
	var free int
	if err := old.db.QueryRowContext(ctx, "PRAGMA freelist_count").Scan(&free); err != nil || free != 0 {
		t.Errorf("%d free pages after the upgrade (%v), want 0", free, err)
	}
	var v int
	if err := old.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil || v != schemaVersion {
		t.Errorf("user_version %d, %v; want %d", v, err, schemaVersion)
	}
	q := func(query string) int {
		t.Helper()
		var n int
		if err := old.db.QueryRowContext(ctx, query).Scan(&n); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return n
	}
	if n := q("SELECT COUNT(*) FROM docs WHERE id_own IS NULL"); n != made || made == 0 {
		t.Errorf("%d ids made from path and name not stored, want %d", n, made)
	}
	if n, want := q("SELECT COUNT(*) FROM vectors WHERE length(vec) = 2 * 64"), len(docs); n != want {
		t.Errorf("%d binary16 vectors after the upgrade, want %d", n, want)
	}
	if n := q("SELECT COUNT(*) FROM pragma_table_info('vectors') WHERE name = 'doc_id'"); n != 0 {
		t.Errorf("vectors.doc_id after the upgrade")
	}
	// A write after the upgrade stores the new form and is found.
	d := docs[0]
	d.Text += "\nrewritten after the upgrade"
	if err := old.Upsert(ctx, []retrieval.Document{d}); err != nil {
		t.Fatal(err)
	}
	if typ := q("SELECT typeof(body) = 'blob' FROM docs WHERE id = '" + d.ID + "'"); typ != 1 {
		t.Errorf("a Text written after the upgrade is not encoded")
	}
	got, err := old.Fetch(ctx, []string{d.ID})
	if err != nil || len(got) != 1 || got[0].Text != d.Text {
		t.Errorf("Fetch after the upgrade = %v, %v", got, err)
	}
}
