package embedded

import (
	"context"
	"database/sql"
	"encoding/binary"
	"math"

	"github.com/rlm-dev/rlm/internal/sqlitefile"
)

// upgrade brings a database of schema version 1, 2, 3 or 4 to
// schemaVersion inside tx: version 2 added the vector tables, version 3
// the docs columns changed and parser, version 4 the docs column role,
// the refs columns via, scope and type and vectorSchema (the quantised
// vector index's generations, tombstones and store identity, kept). Version 5
// stores no text twice: refs keyed by
// docs.rid in one rowid range per document (docs.refs_at, refs_n) with
// their names in the ref_names dictionary, instead of by document id plus
// a JSON copy in docs.refs; content hashes, parsers and metadata in the
// vals dictionary; the id found through a hash of it rather than a unique
// index holding it again; case folds only where SQLite's lower() differs;
// a contentless FTS5 table (its text was a second copy of what docs
// holds); and the sources table. The rows keep their docs.rid, so vectors
// and index entries stay attached.
func upgrade(ctx context.Context, tx *sql.Tx) error {
	if err := sqlitefile.AddColumns(ctx, tx, "docs", []sqlitefile.Column{
		{Name: "changed", Decl: "INTEGER NOT NULL DEFAULT 0"},
		{Name: "parser", Decl: "TEXT NOT NULL DEFAULT ''"},
		{Name: "role", Decl: "TEXT NOT NULL DEFAULT ''"},
	}); err != nil {
		return err
	}
	if err := sqlitefile.AddColumns(ctx, tx, "refs", []sqlitefile.Column{
		{Name: "via", Decl: "TEXT NOT NULL DEFAULT ''"},
		{Name: "scope", Decl: "TEXT NOT NULL DEFAULT ''"},
		{Name: "type", Decl: "TEXT NOT NULL DEFAULT ''"},
	}); err != nil {
		return err
	}
	for _, q := range []string{
		"DROP INDEX IF EXISTS docs_symbol",
		"DROP INDEX IF EXISTS docs_qualified",
		"DROP INDEX IF EXISTS docs_symbol_fold",
		"DROP INDEX IF EXISTS docs_qualified_fold",
		"DROP INDEX IF EXISTS docs_path",
		"DROP INDEX IF EXISTS refs_name",
		"ALTER TABLE docs RENAME TO docs_v3",
		"ALTER TABLE refs RENAME TO refs_v3",
		"ALTER TABLE fts RENAME TO fts_v3",
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return err
	}
	if err := addVectorSchema(ctx, tx); err != nil {
		return err
	}
	for _, q := range []string{
		`INSERT OR IGNORE INTO vals (v) SELECT content_hash FROM docs_v3 UNION SELECT metadata FROM docs_v3 UNION SELECT parser FROM docs_v3`,
		`INSERT OR IGNORE INTO ref_names (name, kind, via, scope, type) SELECT DISTINCT name, kind, via, scope, type FROM refs_v3`,
		`INSERT INTO docs (rid, id_own, id_hash, path, start_line, end_line, symbol, qualified, symbol_fold, qualified_fold,
			kind, language, signature, doc, body, hash_v, test, meta_v, changed, parser_v, refs_at, refs_n, role)
			SELECT rid, NULLIF(id, path || '#' || qualified), 0, path, start_line, end_line, symbol, qualified,
				CASE WHEN symbol_fold = lower(symbol) THEN NULL ELSE symbol_fold END,
				CASE WHEN qualified_fold = lower(qualified) THEN NULL ELSE qualified_fold END,
				kind, language, signature, doc, body, (SELECT id FROM vals WHERE v = content_hash), test,
				(SELECT id FROM vals WHERE v = metadata), changed, (SELECT id FROM vals WHERE v = parser), 0, 0, role
			FROM docs_v3`,
		// One document's refs in consecutive rowids, in their old order.
		`INSERT INTO refs (doc_rid, nk, line)
			SELECT d.rid, n.id, r.line FROM refs_v3 r JOIN docs_v3 d ON d.id = r.doc_id
			JOIN ref_names n ON n.name = r.name AND n.kind = r.kind AND n.via = r.via AND n.scope = r.scope AND n.type = r.type ORDER BY d.rid, r.rowid`,
		`WITH g AS (SELECT doc_rid, MIN(rowid) AS first, COUNT(*) AS n FROM refs GROUP BY doc_rid)
			UPDATE docs SET refs_at = g.first, refs_n = g.n FROM g WHERE g.doc_rid = docs.rid`,
		`INSERT INTO fts (rowid, name, doc, signature, path, body) SELECT rowid, name, doc, signature, path, body FROM fts_v3`,
		"DROP TABLE docs_v3",
		"DROP TABLE refs_v3",
		"DROP TABLE fts_v3",
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return fillIDHashes(ctx, tx)
}

// upgradeDocs7 rewrites the docs table of a version 6 database (with the
// column name_words) as version 7's inside tx: each id kept only where
// the generated column would not make it again (id_own), every Text kept
// as TEXT (decodeBody reads it as given; rows written later are
// encoded), every rid kept so that refs, vectors and index entries stay
// attached, and the docs indexes made again.
func upgradeDocs7(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{
		"DROP INDEX IF EXISTS docs_id",
		"DROP INDEX IF EXISTS docs_path",
		"DROP INDEX IF EXISTS docs_symbol",
		"DROP INDEX IF EXISTS docs_qualified",
		"DROP INDEX IF EXISTS docs_symbol_fold",
		"DROP INDEX IF EXISTS docs_qualified_fold",
		"ALTER TABLE docs RENAME TO docs_v6",
		schemaTables,
		`INSERT INTO docs (rid, id_own, id_hash, path, start_line, end_line, symbol, qualified, symbol_fold, qualified_fold,
			kind, language, signature, doc, body, hash_v, test, meta_v, changed, parser_v, refs_at, refs_n, role, name_words)
			SELECT rid, NULLIF(id, path || '#' || qualified), id_hash, path, start_line, end_line, symbol, qualified, symbol_fold, qualified_fold,
				kind, language, signature, doc, body, hash_v, test, meta_v, changed, parser_v, refs_at, refs_n, role, name_words
			FROM docs_v6`,
		"DROP TABLE docs_v6",
		searchIndexes,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// addVectorSchema adds the column vectors.gen where it is missing (a table
// of version 3 or older, or one schema created), rewrites a vectors table
// of version 6 or older as version 7's (upgradeVectors7) and adds
// vectorSchema.
func addVectorSchema(ctx context.Context, tx *sql.Tx) error {
	if err := sqlitefile.AddColumns(ctx, tx, "vectors", []sqlitefile.Column{{Name: "gen", Decl: "INTEGER NOT NULL DEFAULT 0"}}); err != nil {
		return err
	}
	if err := upgradeVectors7(ctx, tx); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, vectorSchema)
	return err
}

// upgradeVectors7 rewrites a vectors table of version 6 or older (keyed
// by model, dims and document id, with a column doc_id) as version 7's,
// keyed by document row and vector_models id, in tx; a table without
// doc_id is left as it is. Each vector keeps its generation and is
// encoded again as this version writes it (encodeVector: binary16, from
// the float32 stored); a BLOB that is no float32 vector of its
// dimensions, or a zero or non-finite one, is kept as it was (a search
// names it, as before).
func upgradeVectors7(ctx context.Context, tx *sql.Tx) error {
	var old int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM pragma_table_info('vectors') WHERE name = 'doc_id'").Scan(&old); err != nil {
		return err
	}
	if old == 0 {
		return nil
	}
	for _, q := range []string{
		"DROP INDEX IF EXISTS vectors_doc_id",
		"DROP INDEX IF EXISTS vectors_gen",
		"DROP INDEX IF EXISTS vectors_rid",
		"ALTER TABLE vectors RENAME TO vectors_v6",
		schemaTables,
		"INSERT OR IGNORE INTO vector_models (model, dims) SELECT DISTINCT model, dims FROM vectors_v6",
		`INSERT OR REPLACE INTO vectors (doc_rid, mid, gen, vec)
			SELECT v.doc_rid, m.id, v.gen, v.vec FROM vectors_v6 v JOIN vector_models m ON m.model = v.model AND m.dims = v.dims`,
		"DROP TABLE vectors_v6",
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return halveVectors(ctx, tx)
}

// halveVectors encodes every float32 vector row (4·dims bytes) of tx again
// as binary16 (encodeVector), a batch of rows at a time.
func halveVectors(ctx context.Context, tx *sql.Tx) error {
	type vec struct {
		rid, mid int64
		blob     []byte
		dims     int
	}
	after := int64(-1 << 63)
	for {
		rows, err := tx.QueryContext(ctx, `SELECT v.doc_rid, v.mid, v.vec, m.dims FROM vectors v JOIN vector_models m ON m.id = v.mid
			WHERE v.doc_rid > ? ORDER BY v.doc_rid LIMIT 1024`, after)
		if err != nil {
			return err
		}
		var batch []vec
		for rows.Next() {
			var v vec
			if err := rows.Scan(&v.rid, &v.mid, &v.blob, &v.dims); err != nil {
				rows.Close()
				return err
			}
			batch = append(batch, v)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(batch) == 0 {
			return nil
		}
		for _, v := range batch {
			after = v.rid
			if len(v.blob) != 4*v.dims {
				continue
			}
			f := make([]float32, v.dims)
			for j := range f {
				f[j] = math.Float32frombits(binary.LittleEndian.Uint32(v.blob[4*j:]))
			}
			if checkVector(f, v.dims) != nil {
				continue
			}
			if _, err := tx.ExecContext(ctx, "UPDATE vectors SET vec = ? WHERE doc_rid = ? AND mid = ?", encodeVector(f), v.rid, v.mid); err != nil {
				return err
			}
		}
	}
}

// fillIDHashes sets docs.id_hash of every document.
func fillIDHashes(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, "SELECT rid, id FROM docs")
	if err != nil {
		return err
	}
	type ridID struct {
		rid int64
		id  string
	}
	var all []ridID
	for rows.Next() {
		var r ridID
		if err := rows.Scan(&r.rid, &r.id); err != nil {
			rows.Close()
			return err
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	upd, err := tx.PrepareContext(ctx, "UPDATE docs SET id_hash = ? WHERE rid = ?")
	if err != nil {
		return err
	}
	defer upd.Close()
	for _, r := range all {
		if _, err := upd.ExecContext(ctx, idHash(r.id), r.rid); err != nil {
			return err
		}
	}
	return nil
}
