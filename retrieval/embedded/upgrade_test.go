package embedded

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/sqlitefile"
	"github.com/rlm-dev/rlm/retrieval"
)

// schemaV3 is the schema of version 3 databases, as written before refs
// moved to rowid ranges and the FTS5 table became contentless.
const schemaV3 = `
CREATE TABLE IF NOT EXISTS docs (
	rid            INTEGER PRIMARY KEY,
	id             TEXT NOT NULL UNIQUE,
	path           TEXT NOT NULL,
	start_line     INTEGER NOT NULL,
	end_line       INTEGER NOT NULL,
	symbol         TEXT NOT NULL,
	qualified      TEXT NOT NULL,
	symbol_fold    TEXT NOT NULL,
	qualified_fold TEXT NOT NULL,
	kind           TEXT NOT NULL,
	language       TEXT NOT NULL,
	signature      TEXT NOT NULL,
	doc            TEXT NOT NULL,
	body           TEXT NOT NULL,
	content_hash   TEXT NOT NULL,
	test           INTEGER NOT NULL,
	refs           TEXT NOT NULL,
	metadata       TEXT NOT NULL,
	changed        INTEGER NOT NULL DEFAULT 0,
	parser         TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS docs_symbol ON docs(symbol);
CREATE INDEX IF NOT EXISTS docs_qualified ON docs(qualified);
CREATE INDEX IF NOT EXISTS docs_symbol_fold ON docs(symbol_fold);
CREATE INDEX IF NOT EXISTS docs_qualified_fold ON docs(qualified_fold);
CREATE INDEX IF NOT EXISTS docs_path ON docs(path, start_line);
CREATE TABLE IF NOT EXISTS refs (
	doc_id TEXT NOT NULL,
	name   TEXT NOT NULL,
	kind   TEXT NOT NULL,
	line   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS refs_name ON refs(name, kind);
CREATE INDEX IF NOT EXISTS refs_doc_id ON refs(doc_id);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
	name, doc, signature, path, body,
	tokenize = "unicode61 tokenchars '_'"
);
CREATE TABLE IF NOT EXISTS vectors (
	model   TEXT NOT NULL,
	dims    INTEGER NOT NULL,
	doc_id  TEXT NOT NULL,
	doc_rid INTEGER NOT NULL, -- docs.rid of doc_id: vectors live and die with their document row
	vec     BLOB NOT NULL,
	UNIQUE (model, dims, doc_id)
);
CREATE INDEX IF NOT EXISTS vectors_doc_id ON vectors(doc_id);
CREATE TABLE IF NOT EXISTS vector_generation (
	id  INTEGER PRIMARY KEY CHECK (id = 0),
	gen INTEGER NOT NULL
);
INSERT OR IGNORE INTO vector_generation (id, gen) VALUES (0, 0);
`

// vectorSchemaV6 is vectorSchema of versions 4 to 6 (vectors keyed by
// model, dims and document id).
const vectorSchemaV6 = `
CREATE INDEX IF NOT EXISTS vectors_gen ON vectors(model, dims, gen);
CREATE INDEX IF NOT EXISTS vectors_rid ON vectors(model, dims, doc_rid);
CREATE TABLE IF NOT EXISTS vector_tombstones (
	doc_rid INTEGER NOT NULL,
	gen     INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS vector_tombstones_gen ON vector_tombstones(gen);
CREATE TABLE IF NOT EXISTS vector_store (
	id  INTEGER PRIMARY KEY CHECK (id = 0),
	uid TEXT NOT NULL
);
INSERT OR IGNORE INTO vector_store (id, uid) VALUES (0, lower(hex(randomblob(8))));
`

// encodeFloat32 is a vector as versions 1 to 6 stored it: little-endian
// float32, as given.
func encodeFloat32(v []float32) []byte {
	buf := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(x))
	}
	return buf
}

// v3Database writes docs (with the word embedder's vectors when vectors) into
// a new version 3 database at path, the way version 3 wrote them, and
// returns it open for the test to change further.
func v3Database(t *testing.T, path string, docs []retrieval.Document, vectors bool) *sql.DB {
	t.Helper()
	ctx := context.Background()
	db, err := sqlitefile.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	exec := func(q string, args ...any) sql.Result {
		t.Helper()
		res, err := db.ExecContext(ctx, q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return res
	}
	exec(schemaV3)
	e := newWords()
	for _, d := range docs {
		r, err := encode(d, nil)
		if err != nil {
			t.Fatal(err)
		}
		refs := ""
		if len(d.Refs) > 0 {
			b, _ := json.Marshal(d.Refs)
			refs = string(b)
		}
		test := 0
		if d.Test {
			test = 1
		}
		res := exec(`INSERT INTO docs (id, path, start_line, end_line, symbol, qualified, symbol_fold, qualified_fold, kind, language,
			signature, doc, body, content_hash, test, refs, metadata, changed, parser) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			d.ID, d.Path, d.StartLine, d.EndLine, d.Symbol, d.Qualified, strings.ToLower(d.Symbol), strings.ToLower(d.Qualified), d.Kind, d.Language,
			d.Signature, d.Doc, d.Text, d.ContentHash, test, refs, r.metadata, d.Changed, d.Parser)
		rid, _ := res.LastInsertId()
		for _, ref := range d.Refs {
			exec("INSERT INTO refs (doc_id, name, kind, line) VALUES (?, ?, ?, ?)", d.ID, ref.Name, ref.Kind, ref.Line)
		}
		exec("INSERT INTO fts (rowid, name, doc, signature, path, body) VALUES (?, ?, ?, ?, ?, ?)", rid, r.ftsName, r.ftsDoc, r.ftsSignature, r.ftsPath, r.ftsBody)
		if vectors {
			vs, err := e.Embed(ctx, []string{retrieval.EmbeddingText(d)})
			if err != nil {
				t.Fatal(err)
			}
			exec("INSERT INTO vectors (model, dims, doc_id, doc_rid, vec) VALUES (?, ?, ?, ?, ?)", e.Model(), e.Dimensions(), d.ID, rid, encodeFloat32(vs[0]))
		}
	}
	exec("PRAGMA user_version = 3")
	return db
}

// TestUpgradeFromSchemaVersion3KeepsEveryDocumentAndAnswer: a version 3
// database opens as the current version and holds the same documents
// (Refs in their order included) and gives the same answers, vector search
// included, as a database written by this version; the JSON and text copies
// are gone.
func TestUpgradeFromSchemaVersion3KeepsEveryDocumentAndAnswer(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v3.db")
	v3Database(t, path, corpus(), true).Close()
	old := openVec(t, path, WithEmbedder(newWords()))
	sameAsFresh(t, old, corpus(), []retrieval.Request{
		{Strategy: retrieval.Lexical, Text: "serve http request"},
		{Strategy: retrieval.Exact, Name: "ServeHTTP"},
		{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "readRequest"},
		{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: "Server.ServeHTTP"},
		{Strategy: retrieval.Structural, Filter: retrieval.Filter{PathPrefixes: []string{"net/http/"}}},
		{Strategy: retrieval.Vector, Text: "reads request"},
	})
	var cols int
	if err := old.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM pragma_table_info('docs') WHERE name = 'refs'").Scan(&cols); err != nil || cols != 0 {
		t.Errorf("docs.refs after the upgrade: %d columns, %v", cols, err)
	}
	var content string
	if err := old.db.QueryRowContext(ctx, "SELECT sql FROM sqlite_schema WHERE name = 'fts'").Scan(&content); err != nil || !strings.Contains(content, "content = ''") {
		t.Errorf("fts after the upgrade: %q, %v; want a contentless table", content, err)
	}
}

// sameAsFresh checks that the upgraded database old holds the same
// documents as one written by this version with docs (every field, Refs
// in their order included) and gives the same answers to reqs, each of
// which finds something.
func sameAsFresh(t *testing.T, old *Backend, docs []retrieval.Document, reqs []retrieval.Request) {
	t.Helper()
	ctx := context.Background()
	fresh := openVec(t, "", WithEmbedder(newWords()))
	if err := fresh.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, d := range docs {
		all = append(all, d.ID)
	}
	want, err := fresh.Fetch(ctx, all)
	if err != nil {
		t.Fatal(err)
	}
	got, err := old.Fetch(ctx, all)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("documents after the upgrade (-fresh +upgraded):\n%s", diff)
	}
	for _, req := range reqs {
		w, err := fresh.Search(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		g, err := old.Search(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if len(w) == 0 {
			t.Fatalf("%+v finds nothing in the fresh database", req)
		}
		if diff := cmp.Diff(briefs(w), briefs(g)); diff != "" {
			t.Errorf("%s %q%s after the upgrade (-fresh +upgraded):\n%s", req.Strategy, req.Text, req.Name, diff)
		}
	}
}
