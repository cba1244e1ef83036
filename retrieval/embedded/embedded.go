// Package embedded is rlm's default retrieval.Backend: one SQLite database
// (modernc.org/sqlite — pure Go, FTS5 built in), no server.
//
// It answers the exact, lexical (BM25), graph and structural strategies,
// and, when opened WithEmbedder, the vector (cosine similarity) and
// hybrid (reciprocal rank fusion of lexical and vector) strategies. It
// honours every retrieval.Filter field on all of them. Without an embedder,
// vector and hybrid requests fail with an error wrapping
// retrieval.ErrUnsupported; callers with their own vectors use
// UpsertVectors and QueryVector (WithVectorModel).
//
// Storage: a docs table (every Document field but Refs; the id only where
// it is not path#qualified, retrieval.SymbolDocumentID's, which a
// generated column makes again; the Text without the name, signature, doc
// comment and path it starts with and deflated where shorter, encodeBody;
// the content hash,
// the parser and Metadata as JSON are ids of a vals dictionary of
// strings; the id is found through an index on a 64-bit hash of it; the
// case-folded names are stored only when SQLite's ASCII lower() would not
// give them; the role as given), a refs table (doc_rid, id of the ref's
// name, kind and, for calls, via, scope and type — what it resolves to,
// retrieval.Ref — in the ref_names dictionary, line) indexed by that id
// for the graph strategy, whose
// rows of one document have consecutive rowids (docs.refs_at, docs.refs_n:
// a document's Refs are read and deleted as one rowid range, in the order
// given), a vectors table, a sources table (path → version, see
// Writer.ReplaceSources) and a contentless FTS5 table (content option
// empty, contentless_delete=1: the index holds no copy of the text;
// unicode61 tokenizer, '_' a token character) with the columns name, doc,
// signature, path and body. Every indexed field is pre-split in Go by
// SplitIdentifier, so that "ServeHTTP" is indexed as "serve http
// servehttp" and a query for "serve http" finds it. No text is stored
// twice. Dictionary entries are never deleted (a content hash of an old
// file version stays behind, a few dozen bytes).
//
// Vectors are stored per (embedder model id, dimensions), an id of the
// vector_models table: a row keyed (document rid, model id) holding the
// vector scaled to unit length as IEEE binary16 values (encodeVector: 2
// bytes a dimension; search uses only a vector's direction, and every
// search, exact or quantised, scores these stored values), stamped with
// the generation that wrote it. A Backend reads and writes only the rows of its own model and
// dimensions, so a change of embedder never mixes vectors; replacing or
// deleting a document drops its vectors of every model (recording their
// rids as tombstones). Every write transaction advances a generation
// counter, so nothing derived from the rows is ever stale, also when
// another process writes the same file.
//
// Vector search has two paths, chosen per generation by the number of
// vectors:
//   - up to exactMaxFloats (2^22) floats — 10,922 vectors of 384
//     dimensions — it is exact: the first search after a write loads the
//     model's vectors into one in-memory []float32, each scaled to unit
//     length, and every search scans all of them (split over up to four
//     goroutines), keeping the top k in a heap (vindex.go);
//   - above, each vector is also held as 7-bit scalar-quantised codes
//     (quant.go: one byte per dimension, 4× smaller than float32) in a
//     base file beside the database (SidecarFiles), memory-mapped, plus the
//     rows written since (the delta) less the tombstoned ones; a search
//     scans the codes for the max(4k, 64) best candidates and re-ranks them
//     by exact cosine from their stored binary16 rows, read in the same
//     transaction (qindex.go). Returned scores are the exact search's, bit
//     for bit, ties by ascending id; what can differ is recall: a true
//     top-k document whose code ranks below the pool is missed. Measured on
//     GOROOT/src (236,777 vectors): recall@10 1.000 against exact search
//     (docs/BENCHMARKS.md). Upsert and Delete cost their own rows; a
//     search that finds more than compactAt (2,048) delta rows and
//     tombstones merges them into a new base file. WithExactVectors keeps
//     the exact path at any size.
//
// A Backend is safe for concurrent use. Writers are serialised inside the
// process; a file database uses WAL mode so readers proceed while a batch is
// written, and readers see either all or none of a batch.
package embedded

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rlm-dev/rlm/internal/sqlitefile"
	"github.com/rlm-dev/rlm/retrieval"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// MaxDocumentBytes bounds one document: the summed length in bytes of all
// its strings (id, path, names, kind, language, signature, doc, text,
// content hash, ref names, kinds and resolutions, metadata keys and
// values). Upsert rejects a batch holding a larger document with a
// *retrieval.DocumentError wrapping retrieval.ErrTooLarge.
const MaxDocumentBytes = 1 << 20

// MaxFilterValues bounds each list of a retrieval.Filter (path prefixes,
// kinds, languages, parsers, roles). Longer lists fail with retrieval.ErrTooLarge.
const MaxFilterValues = 256

// schemaVersion is stored in PRAGMA user_version. Open upgrades a version
// 1 database (which lacks the vector tables), a version 2 one (whose docs
// lack the changed and parser columns), a version 3 one (refs as JSON in
// docs and keyed by document id in refs, FTS5 with its own copy of the
// text) and a version 4 one (version 3 plus the role column, vectorSchema
// and the refs columns via, scope and type), see upgrade, a version 5 one
// (which lacks the docs column name_words: Document.NameWords) by adding
// the column, a version 6 one (whose docs hold every id and Text whole)
// by rewriting docs (upgradeDocs7), and refuses any other non-zero
// version. Version 7: docs.id is generated from path and qualified where
// it is retrieval.SymbolDocumentID's (id_own holds only the others), and
// docs.body holds a Text encoded (encodeBody).
const schemaVersion = 7

// Column weights for bm25(): name, doc, signature, path, body, in the order
// the FTS5 table declares them. The name counts most.
const bm25Weights = "10.0, 2.0, 3.0, 1.5, 1.0"

// bm25DocWeights are the column weights of a request with
// retrieval.EmphasisDoc: the doc column at 4. FTS5's bm25() sums a term's
// weighted frequencies over the columns and saturates that sum against the
// length of the whole row, so a weight also decides how much a long row
// costs: with the doc at 2 a definition whose long doc comment (a Python
// docstring describing every option) holds more of a description's words
// ranked below a short one holding fewer (Python json's loads below
// JSONDecoder.decode for loads' own first sentence); at 4 the
// description's words in the doc count more than its length (rlm eval,
// docs/BENCHMARKS.md).
const bm25DocWeights = "10.0, 4.0, 3.0, 1.5, 1.0"

// bm25WeightsFor is the bm25() column weights of a request with emphasis e.
func bm25WeightsFor(e retrieval.Emphasis) string {
	if e == retrieval.EmphasisDoc {
		return bm25DocWeights
	}
	return bm25Weights
}

// bm25Score is the SQL expression of a match's score under emphasis e,
// every lexical query's: FTS5's bm25() (lower is better) negated, so that
// a higher score ranks first (retrieval.ScoreBM25).
func bm25Score(e retrieval.Emphasis) string {
	return "-bm25(fts, " + bm25WeightsFor(e) + ")"
}

const schema = schemaTables + searchIndexes

// searchIndexes are the indexes of schema that only searches use (by
// name, folded name, reference): a bulk build (WithBulkBuild) creates
// them once the rows are in (FinishBulk), which costs SQLite a sort of
// each instead of an insert into each per row.
const searchIndexes = `
CREATE INDEX IF NOT EXISTS docs_symbol ON docs(symbol);
CREATE INDEX IF NOT EXISTS docs_qualified ON docs(qualified);
CREATE INDEX IF NOT EXISTS docs_symbol_fold ON docs(coalesce(symbol_fold, lower(symbol)));
CREATE INDEX IF NOT EXISTS docs_qualified_fold ON docs(coalesce(qualified_fold, lower(qualified)));
CREATE INDEX IF NOT EXISTS refs_nk ON refs(nk);
`

// schemaTables is schema without searchIndexes: the tables and the
// indexes writes look documents up by (id hash, path).
const schemaTables = `
CREATE TABLE IF NOT EXISTS docs (
	rid            INTEGER PRIMARY KEY,
	id_own         TEXT,             -- the id, NULL when it is path || '#' || qualified (retrieval.SymbolDocumentID)
	id             TEXT GENERATED ALWAYS AS (coalesce(id_own, path || '#' || qualified)) VIRTUAL,
	id_hash        INTEGER NOT NULL, -- idHash(id): documents are found by id through docs_id
	path           TEXT NOT NULL,
	start_line     INTEGER NOT NULL,
	end_line       INTEGER NOT NULL,
	symbol         TEXT NOT NULL,
	qualified      TEXT NOT NULL,
	symbol_fold    TEXT,             -- NULL when the ASCII lower() of symbol is its fold
	qualified_fold TEXT,             -- likewise
	kind           TEXT NOT NULL,
	language       TEXT NOT NULL,
	signature      TEXT NOT NULL,
	doc            TEXT NOT NULL,
	body           NOT NULL,         -- Text: TEXT as given, or a BLOB encoded (encodeBody: its fields not again, deflated)
	hash_v         INTEGER NOT NULL, -- vals.id of the content hash
	test           INTEGER NOT NULL,
	meta_v         INTEGER NOT NULL, -- vals.id of the metadata as JSON ('' for none)
	changed        INTEGER NOT NULL,
	parser_v       INTEGER NOT NULL, -- vals.id of the parser
	refs_at        INTEGER NOT NULL, -- rowid of the document's first refs row
	refs_n         INTEGER NOT NULL, -- its number of refs rows
	role           TEXT NOT NULL DEFAULT '', -- Document.Role as given ('' : see roleSQL)
	name_words     TEXT NOT NULL DEFAULT ''  -- Document.NameWords as a JSON array ('' for none)
);
CREATE INDEX IF NOT EXISTS docs_id ON docs(id_hash);
CREATE INDEX IF NOT EXISTS docs_path ON docs(path, start_line);
CREATE TABLE IF NOT EXISTS vals (
	id INTEGER PRIMARY KEY,
	v  TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS ref_names (
	id    INTEGER PRIMARY KEY,
	name  TEXT NOT NULL,
	kind  TEXT NOT NULL,
	via   TEXT NOT NULL, -- for a call, what it resolves to (retrieval.Ref)
	scope TEXT NOT NULL,
	type  TEXT NOT NULL,
	UNIQUE (name, kind, via, scope, type)
);
CREATE TABLE IF NOT EXISTS refs (
	doc_rid INTEGER NOT NULL, -- docs.rid of the document that holds the reference
	nk      INTEGER NOT NULL, -- ref_names.id of its name and kind
	line    INTEGER NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
	name, doc, signature, path, body,
	content = '', contentless_delete = 1,
	tokenize = "unicode61 tokenchars '_'"
);
CREATE TABLE IF NOT EXISTS vector_models (
	id    INTEGER PRIMARY KEY,
	model TEXT NOT NULL,
	dims  INTEGER NOT NULL,
	UNIQUE (model, dims)
);
CREATE TABLE IF NOT EXISTS vectors (
	doc_rid INTEGER NOT NULL, -- docs.rid: vectors live and die with their document row
	mid     INTEGER NOT NULL, -- vector_models.id of the (model, dims)
	gen     INTEGER NOT NULL DEFAULT 0,
	vec     BLOB NOT NULL,    -- encodeVector: the unit vector as IEEE binary16
	PRIMARY KEY (doc_rid, mid)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vector_generation (
	id  INTEGER PRIMARY KEY CHECK (id = 0),
	gen INTEGER NOT NULL
);
INSERT OR IGNORE INTO vector_generation (id, gen) VALUES (0, 0);
CREATE TABLE IF NOT EXISTS sources (
	path    TEXT PRIMARY KEY,
	version TEXT NOT NULL
) WITHOUT ROWID;
`

// vectorSchema is what the quantised vector index (qindex.go) adds, run
// after the columns it indexes exist: vectors.gen is the vector generation
// that wrote a row; vector_tombstones the rids of vector rows deleted, by
// the generation that deleted them; vector_store.uid a random identity of
// this database, which its base files carry.
const vectorSchema = `
CREATE INDEX IF NOT EXISTS vectors_gen ON vectors(mid, gen);
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

// Backend is the embedded SQLite retrieval backend. Create it with Open;
// it is safe for concurrent use.
type Backend struct {
	db   *sql.DB
	wmu  sync.Mutex // serialises writers within the process
	opts options

	path string // the database file; "" in memory
	uid  string // vector_store.uid

	vcache    atomic.Pointer[vindex] // newest loaded vectors, see index
	vload     sync.Mutex             // serialises loads of vcache and qcache
	qcache    atomic.Pointer[qindex] // newest quantised index, see quantIndex
	qbase     baseState              // base in use; guarded by vload
	vmode     atomic.Pointer[vmode]  // exact or quantised, per generation
	persisted atomic.Int64           // generation of the base this Backend wrote, -1 if none

	dicts dicts     // committed dictionary ids (see interner)
	stmts stmtCache // prepared search statements (see stmtCache)

	rankedInText atomic.Int64  // unfiltered lexical rankings rankInText settled (tests)
	overlap      *overlapHooks // nil but in tests of hybrid search's overlap
}

// overlapHooks observe the two halves of a hybrid search (tests only):
// scanning runs in the vector scan's goroutine before the scan, ranking
// before (done false) and after (done true) the lexical ranking.
type overlapHooks struct {
	scanning func()
	ranking  func(done bool)
}

var _ retrieval.Backend = (*Backend)(nil)

// Open opens (creating if needed) the backend's database. path "" or
// ":memory:" gives a private in-memory database that lives until Close;
// any other path is a file database in WAL mode (its directory must
// exist). Open creates the schema and fails if the file holds a schema of
// another version. Options add vectors (WithEmbedder, WithVectorModel); an
// invalid option fails with an error wrapping retrieval.ErrBadRequest.
func Open(ctx context.Context, path string, opts ...Option) (*Backend, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if err := o.resolve(); err != nil {
		return nil, fmt.Errorf("embedded: open %q: %w", path, err)
	}
	memory := path == "" || path == ":memory:"
	var dsn string
	if memory {
		// Each connection to ":memory:" is its own database, so the pool is
		// held to one connection that is never recycled.
		dsn = ":memory:"
	} else {
		// A file: URI with the path escaped ('?', '#' and '%' are not URI
		// syntax), WAL, busy timeout, and BEGIN IMMEDIATE for write
		// transactions so that two writers never deadlock on a lock
		// upgrade; read-only transactions (Search, Fetch) begin deferred.
		var err error
		if dsn, err = sqlitefile.DSN(path); err != nil {
			return nil, fmt.Errorf("embedded: open %q: %w", path, err)
		}
		if o.unsynced {
			dsn += "&_pragma=" + url.QueryEscape("synchronous(OFF)") // after synchronous(NORMAL): it wins
		}
		if o.bulk {
			if dsn, err = sqlitefile.BuildDSN(path, bulkCacheKiB); err != nil {
				return nil, fmt.Errorf("embedded: open %q: %w", path, err)
			}
		}
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("embedded: open %q: %w", path, err)
	}
	if memory {
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
	} else {
		db.SetMaxOpenConns(4)
	}
	b := &Backend{db: db, opts: o}
	if !memory {
		b.path = path
	}
	b.persisted.Store(-1)
	switch {
	case memory && o.image != nil:
		if err := startFrom(ctx, db, o.image); err != nil {
			db.Close()
			return nil, fmt.Errorf("embedded: open %q from an image: %w", path, err)
		}
	case memory:
		// A copy of the empty schema image; should that fail, init
		// creates the schema (it reads the version either way).
		_ = startFromImage(ctx, db)
	}
	if err := b.init(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("embedded: open %q: %w", path, err)
	}
	return b, nil
}

func (b *Backend) init(ctx context.Context) error {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	switch v {
	case schemaVersion:
		return b.readUID(ctx, tx)
	case 0:
		if b.opts.bulk && b.path != "" {
			// The version, with the search indexes, at FinishBulk.
			if _, err := tx.ExecContext(ctx, schemaTables); err != nil {
				return err
			}
			if err := addVectorSchema(ctx, tx); err != nil {
				return err
			}
			if err := b.readUID(ctx, tx); err != nil {
				return err
			}
			return tx.Commit()
		}
		if _, err := tx.ExecContext(ctx, schema); err != nil {
			return err
		}
		if err := addVectorSchema(ctx, tx); err != nil {
			return err
		}
	case 1, 2, 3, 4:
		if err := upgrade(ctx, tx); err != nil {
			return fmt.Errorf("upgrade from schema version %d: %w", v, err)
		}
	case 5, 6:
		if err := sqlitefile.AddColumns(ctx, tx, "docs", []sqlitefile.Column{{Name: "name_words", Decl: "TEXT NOT NULL DEFAULT ''"}}); err != nil {
			return fmt.Errorf("upgrade from schema version %d: %w", v, err)
		}
		if err := upgradeDocs7(ctx, tx); err != nil {
			return fmt.Errorf("upgrade from schema version %d: %w", v, err)
		}
		if err := addVectorSchema(ctx, tx); err != nil {
			return fmt.Errorf("upgrade from schema version %d: %w", v, err)
		}
	default:
		return fmt.Errorf("database schema version %d, this build reads %d", v, schemaVersion)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
		return err
	}
	if err := b.readUID(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if v == 0 || b.path == "" {
		return nil
	}
	// An upgrade rewrites most rows (schema 7's smaller bodies and
	// vectors among them): the pages they left are given back, or the
	// file would stay as large as before plus what was rewritten.
	if _, err := b.db.ExecContext(ctx, "VACUUM"); err != nil {
		return fmt.Errorf("vacuum after the upgrade from schema version %d: %w", v, err)
	}
	return nil
}

// WithBulkBuild opens a new file database for one writer to fill before
// anyone reads it, such as a search index built under a temporary name
// and checked and synced before it is renamed into place (package
// project): no journal and no syncs (sqlitefile.BuildDSN: a failed or
// interrupted write, a Rollback included, leaves the file damaged, to be
// discarded), a page cache of bulkCacheKiB, and the indexes only
// searches use (searchIndexes) and the schema version left for
// FinishBulk, which creates them from the rows at once. Until then the
// file is no whole database of this package: a plain Open of it creates
// what FinishBulk would (and a search before it is slow, not wrong). An
// in-memory database ignores the option.
func WithBulkBuild() Option {
	return func(o *options) { o.bulk = true }
}

// bulkCacheKiB is the page cache of a bulk build (WithBulkBuild): the
// pages of the tables and indexes it writes stay in memory instead of
// being written and read back (SQLite's default is 2 MiB).
const bulkCacheKiB = 16 << 10

// FinishBulk ends a bulk build (WithBulkBuild): it creates the search
// indexes and records the schema version, so that the file holds what
// an Open without the option creates and the same rows. A backend opened
// otherwise has nothing to finish. No Writer may be open.
func (b *Backend) FinishBulk(ctx context.Context) error {
	if !b.opts.bulk || b.path == "" {
		return nil
	}
	b.wmu.Lock()
	defer b.wmu.Unlock()
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("embedded: finish bulk build: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, searchIndexes+fmt.Sprintf("PRAGMA user_version = %d;", schemaVersion)); err != nil {
		return fmt.Errorf("embedded: finish bulk build: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("embedded: finish bulk build: %w", err)
	}
	return nil
}

// readUID reads the database's vector store identity.
func (b *Backend) readUID(ctx context.Context, tx *sql.Tx) error {
	return tx.QueryRowContext(ctx, "SELECT uid FROM vector_store WHERE id = 0").Scan(&b.uid)
}

// Close closes the database. An in-memory database is discarded.
func (b *Backend) Close() error {
	b.stmts.close()
	return b.db.Close()
}

// Capabilities reports the exact, lexical, graph and structural strategies,
// plus vector and hybrid when the backend has an embedder (QueryVector needs
// only a vector model) and that embedder's nature (retrieval.EmbedderNature),
// filters on all of them, and retrieval.MaxLimit.
func (b *Backend) Capabilities() retrieval.Capabilities {
	s := []retrieval.Strategy{retrieval.Exact, retrieval.Lexical, retrieval.Graph, retrieval.Structural}
	if b.opts.embedder != nil {
		s = append(s, retrieval.Vector, retrieval.Hybrid)
	}
	return retrieval.Capabilities{Strategies: s, Filters: true, MaxLimit: retrieval.MaxLimit,
		Embedder: retrieval.EmbedderNature(b.opts.embedder)}
}

// Count returns the number of stored documents.
func (b *Backend) Count(ctx context.Context) (int, error) {
	var n int
	if err := b.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM docs").Scan(&n); err != nil {
		return 0, fmt.Errorf("embedded: count: %w", err)
	}
	return n, nil
}

// documentBytes is the size Upsert bounds by MaxDocumentBytes.
func documentBytes(d retrieval.Document) int {
	n := len(d.ID) + len(d.Path) + len(d.Symbol) + len(d.Qualified) + len(d.Kind) +
		len(d.Language) + len(d.Signature) + len(d.Doc) + len(d.Text) + len(d.ContentHash) + len(d.Parser)
	for _, r := range d.Refs {
		n += len(r.Name) + len(r.Kind) + len(r.Via) + len(r.Scope) + len(r.Type)
	}
	for k, v := range d.Metadata {
		n += len(k) + len(v)
	}
	return n
}

func validateDocument(d retrieval.Document) error {
	if d.ID == "" {
		return &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("%w: empty document id", retrieval.ErrBadRequest)}
	}
	if n := documentBytes(d); n > MaxDocumentBytes {
		return &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("%w: %d bytes of text, limit %d", retrieval.ErrTooLarge, n, MaxDocumentBytes)}
	}
	return nil
}

// row is a Document encoded for the tables.
type row struct {
	doc          retrieval.Document
	vec          []float32 // stored under the backend's vector model when non-nil
	metadata     string
	nameWords    string // doc.NameWords as stored: a JSON array, "" for none
	ftsName      string
	ftsDoc       string
	ftsSignature string
	ftsPath      string
	ftsBody      string
	body         any // docs.body: encodeBody
}

// encode makes the row of d, splitting its prose through memo (see
// splitMemo; nil for none).
func encode(d retrieval.Document, memo splitMemo) (row, error) {
	r := row{doc: d}
	if len(d.Metadata) > 0 {
		b, err := json.Marshal(d.Metadata)
		if err != nil {
			return r, err
		}
		r.metadata = string(b)
	}
	if len(d.NameWords) > 0 {
		b, err := json.Marshal(d.NameWords)
		if err != nil {
			return r, err
		}
		r.nameWords = string(b)
	}
	r.ftsName = nameIndexText(d.NameWords, d.Symbol, d.Qualified)
	r.ftsDoc = proseIndexText(d.Doc, memo)
	r.ftsSignature = proseIndexText(d.Signature, memo)
	r.ftsPath = proseIndexText(d.Path, memo)
	r.ftsBody = proseIndexText(d.Text, memo)
	r.body = encodeBody(&r.doc)
	return r, nil
}

// ownID is the docs.id_own of d: nil when its id is the one
// retrieval.SymbolDocumentID gives its path and qualified name first
// (the generated column id makes it again), else the id.
func ownID(d retrieval.Document) any {
	if len(d.ID) == len(d.Path)+1+len(d.Qualified) && strings.HasPrefix(d.ID, d.Path) &&
		d.ID[len(d.Path)] == '#' && strings.HasSuffix(d.ID, d.Qualified) {
		return nil
	}
	return d.ID
}

// Upsert stores docs, replacing any stored document with the same ID (its
// refs, index entries and vectors of every model included). The batch is
// one transaction: either every document is stored or none is. A document
// with an empty ID fails the batch with a *retrieval.DocumentError wrapping
// retrieval.ErrBadRequest; one over MaxDocumentBytes with one wrapping
// retrieval.ErrTooLarge. If the batch repeats an ID, the last one wins.
//
// With an embedder (WithEmbedder), Upsert first embeds the
// retrieval.EmbeddingText of every document that has one (in batches of
// WithEmbedBatchSize texts) and stores each vector under the embedder's
// (model, dimensions); a document whose EmbeddingText is "" is stored
// without a vector. All embedding is done before the transaction begins: an
// embedder error, a done ctx, or a vector that is of the wrong length, not
// finite or all zero (a *retrieval.DocumentError wrapping
// retrieval.ErrBadRequest) fails the batch with nothing written. Without an
// embedder, the stored documents have no vector.
func (b *Backend) Upsert(ctx context.Context, docs []retrieval.Document) error {
	rows, err := prepareRows(docs)
	if err != nil {
		return fmt.Errorf("embedded: upsert: %w", err)
	}
	if len(rows) == 0 {
		return ctx.Err()
	}
	if b.opts.embedder != nil {
		if err := b.embedRows(ctx, rows); err != nil {
			return fmt.Errorf("embedded: upsert: %w", err)
		}
	}
	if err := b.writeRows(ctx, rows); err != nil {
		return fmt.Errorf("embedded: upsert: %w", err)
	}
	return nil
}

// prepareRows validates and encodes docs, keeping the last version of a
// repeated ID at the position of its first.
func prepareRows(docs []retrieval.Document) ([]row, error) {
	rows := make([]row, 0, len(docs))
	last := make(map[string]int, len(docs)) // id → index in rows of its last version
	memo := splitMemo{}
	for _, d := range docs {
		if err := validateDocument(d); err != nil {
			return nil, err
		}
		r, err := encode(d, memo)
		if err != nil {
			return nil, &retrieval.DocumentError{ID: d.ID, Err: err}
		}
		if i, ok := last[d.ID]; ok {
			rows[i] = r
			continue
		}
		last[d.ID] = len(rows)
		rows = append(rows, r)
	}
	return rows, nil
}

// writeRows replaces the documents of rows (distinct ids) in one
// transaction.
func (b *Backend) writeRows(ctx context.Context, rows []row) error {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.doc.ID
	}
	b.wmu.Lock()
	defer b.wmu.Unlock()
	return b.write(ctx, ids, rows)
}

// Delete removes the documents with the given ids (their refs, index
// entries and vectors of every model included) in one transaction. Unknown
// ids are ignored.
func (b *Backend) Delete(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return ctx.Err()
	}
	b.wmu.Lock()
	defer b.wmu.Unlock()
	if err := b.write(ctx, ids, nil); err != nil {
		return fmt.Errorf("embedded: delete: %w", err)
	}
	return nil
}

func placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}

// Versions returns stored documents' ids and content hashes: every
// document when sample ≤ 0, else at most sample of them — the oldest and
// the newest rows, half each — for a cheap comparison against another
// store holding the same documents (project checks a Chroma collection
// this way before comparing everything).
func (b *Backend) Versions(ctx context.Context, sample int) (map[string]string, error) {
	const hash = "(SELECT v FROM vals WHERE id = hash_v)"
	q := "SELECT id, " + hash + " FROM docs"
	var args []any
	if sample > 0 {
		q = "SELECT id, " + hash + " FROM (SELECT id, hash_v FROM docs ORDER BY rid LIMIT ?) " +
			"UNION SELECT id, " + hash + " FROM (SELECT id, hash_v FROM docs ORDER BY rid DESC LIMIT ?)"
		args = []any{(sample + 1) / 2, sample / 2}
	}
	out, err := b.queryPairs(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("embedded: versions: %w", err)
	}
	return out, nil
}

// queryPairs runs q, which selects two strings a row, and returns them as
// a map from the first to the second (a later row's pair wins). SQLite
// packs the rows into one string, each pair led by the byte lengths of
// its two strings ("4,2,pathv1"): reading thousands of rows one by one
// through the driver costs more than SQLite's own work. A NULL in a row
// is an error, as a scan of it would be.
func (b *Backend) queryPairs(ctx context.Context, q string, args ...any) (map[string]string, error) {
	var (
		n      int
		packed sql.NullString
	)
	err := b.db.QueryRowContext(ctx, `WITH pairs(k, v) AS (`+q+`) SELECT count(*),
		group_concat(length(CAST(k AS BLOB)) || ',' || length(CAST(v AS BLOB)) || ',' || k || v, '') FROM pairs`, args...).Scan(&n, &packed)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, n)
	rest, rows := packed.String, 0
	for ; rest != ""; rows++ {
		kn, vn := 0, 0
		var ok1, ok2 bool
		kn, rest, ok1 = cutLength(rest)
		vn, rest, ok2 = cutLength(rest)
		if !ok1 || !ok2 || kn+vn > len(rest) {
			return nil, fmt.Errorf("packed pairs: row %d malformed", rows)
		}
		out[rest[:kn]] = rest[kn : kn+vn]
		rest = rest[kn+vn:]
	}
	if rows != n {
		return nil, fmt.Errorf("packed pairs: %d of %d rows without NULL", rows, n)
	}
	return out, nil
}

// cutLength cuts the decimal length and its comma off the front of s.
func cutLength(s string) (int, string, bool) {
	i := strings.IndexByte(s, ',')
	if i <= 0 {
		return 0, s, false
	}
	n, err := strconv.Atoi(s[:i])
	return n, s[i+1:], err == nil && n >= 0
}
