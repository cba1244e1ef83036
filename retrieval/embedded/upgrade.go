package embedded

import (
	"context"
	"database/sql"

	"github.com/rlm-dev/rlm/internal/sqlitefile"
)

// upgrade brings a database of schema version 1, 2 or 3 to schemaVersion
// inside tx: version 2 added the vector tables, version 3 the docs columns
// changed and parser; version 4 keys refs by docs.rid in one rowid range per
// document (docs.refs_at, refs_n) instead of by document id plus a JSON copy
// in docs.refs, makes the FTS5 table contentless (its text was a second copy
// of what docs holds) and adds the sources table. The rows keep their
// docs.rid, so vectors stay attached.
func upgrade(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{
		"DROP INDEX IF EXISTS refs_name",
		"DROP INDEX IF EXISTS refs_doc_id",
		"ALTER TABLE refs RENAME TO refs_v3",
		"ALTER TABLE fts RENAME TO fts_v3",
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if err := sqlitefile.AddColumns(ctx, tx, "docs", []sqlitefile.Column{
		{Name: "changed", Decl: "INTEGER NOT NULL DEFAULT 0"},
		{Name: "parser", Decl: "TEXT NOT NULL DEFAULT ''"},
		{Name: "refs_at", Decl: "INTEGER NOT NULL DEFAULT 0"},
		{Name: "refs_n", Decl: "INTEGER NOT NULL DEFAULT 0"},
	}); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return err
	}
	for _, q := range []string{
		// One document's refs in consecutive rowids, in their old order.
		`INSERT INTO refs (doc_rid, name, kind, line)
			SELECT d.rid, r.name, r.kind, r.line FROM refs_v3 r JOIN docs d ON d.id = r.doc_id ORDER BY d.rid, r.rowid`,
		`WITH g AS (SELECT doc_rid, MIN(rowid) AS first, COUNT(*) AS n FROM refs GROUP BY doc_rid)
			UPDATE docs SET refs_at = g.first, refs_n = g.n FROM g WHERE g.doc_rid = docs.rid`,
		`INSERT INTO fts (rowid, name, doc, signature, path, body) SELECT rowid, name, doc, signature, path, body FROM fts_v3`,
		"DROP TABLE refs_v3",
		"DROP TABLE fts_v3",
		"ALTER TABLE docs DROP COLUMN refs",
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
