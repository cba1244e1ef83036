package embedded

import (
	"context"
	"database/sql"
	"strings"

	"github.com/rlm-dev/rlm/retrieval"
)

// The write path: documents removed by id or path, inserted with their
// refs, vectors and index entries, in one transaction.

// chunkSize bounds the SQL parameters of one statement.
const chunkSize = 500

// ftsChunkRows is the number of rows per multi-row FTS insert. Each
// statement that writes the FTS5 table flushes its pending index data, so
// rows are written a chunk at a time rather than one by one.
const ftsChunkRows = 80

func chunks[T any](xs []T, n int, fn func([]T) error) error {
	for len(xs) > 0 {
		k := min(n, len(xs))
		if err := fn(xs[:k]); err != nil {
			return err
		}
		xs = xs[k:]
	}
	return nil
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// write removes the documents with the ids in remove, then inserts rows, in
// one transaction, and advances the vector generation (see vindex). Rows
// must have distinct ids, all among remove.
func (b *Backend) write(ctx context.Context, remove []string, rows []row) error {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	in := b.interner(tx)
	defer in.close()
	if _, err := b.writeTx(ctx, tx, in, remove, nil, rows); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	in.commit()
	return nil
}

// stored is a stored document's row id, id and range of refs rows.
type stored struct {
	rid, refsAt, refsN int64
	id                 string
}

// storedBy returns the documents whose id (col "id") or path (col
// "path") is one of vals.
func storedBy(ctx context.Context, tx *sql.Tx, col string, vals []string) ([]stored, error) {
	var out []stored
	want := make(map[string]bool, len(vals))
	for _, v := range vals {
		want[v] = true
	}
	err := chunks(vals, chunkSize, func(c []string) error {
		q := "SELECT rid, id, path, refs_at, refs_n FROM docs WHERE path IN (" + placeholders(len(c)) + ")"
		args := anys(c)
		if col == "id" {
			q = "SELECT rid, id, path, refs_at, refs_n FROM docs WHERE id_hash IN (" + placeholders(len(c)) + ")"
			for i, id := range c {
				args[i] = idHash(id)
			}
		}
		rs, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rs.Close()
		for rs.Next() {
			var s stored
			var path string
			if err := rs.Scan(&s.rid, &s.id, &path, &s.refsAt, &s.refsN); err != nil {
				return err
			}
			if col == "id" && want[s.id] || col == "path" && want[path] {
				out = append(out, s)
			}
		}
		return rs.Err()
	})
	return out, err
}

// writeTx removes, in tx, the documents whose id is in ids or whose path is
// in paths (their index entries, refs and vectors of every model), then
// inserts rows, and advances the vector generation (see vindex). Rows must
// have distinct ids, all among ids. It returns the ids of the documents it
// removed.
func (b *Backend) writeTx(ctx context.Context, tx *sql.Tx, in *interner, ids, paths []string, rows []row) ([]string, error) {
	gen, err := b.advanceGeneration(ctx, tx)
	if err != nil {
		return nil, err
	}
	gone, err := storedBy(ctx, tx, "id", ids)
	if err != nil {
		return nil, err
	}
	byPath, err := storedBy(ctx, tx, "path", paths)
	if err != nil {
		return nil, err
	}
	seen := make(map[int64]bool, len(gone))
	for _, s := range gone {
		seen[s.rid] = true
	}
	for _, s := range byPath {
		if !seen[s.rid] {
			seen[s.rid] = true
			gone = append(gone, s)
		}
	}
	rids := make([]int64, len(gone))
	removed := make([]string, len(gone))
	for i, s := range gone {
		rids[i], removed[i] = s.rid, s.id
	}
	// Index entries first (they are keyed by docs.rid), then refs (one
	// rowid range per document), vectors and docs.
	err = chunks(rids, chunkSize, func(c []int64) error {
		_, err := tx.ExecContext(ctx, "DELETE FROM fts WHERE rowid IN ("+placeholders(len(c))+")", anys(c)...)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := deleteRefs(ctx, tx, gone); err != nil {
		return nil, err
	}
	// Vectors of every model, by their documents' rows (a vector never
	// outlives its document). Their rids become tombstones of this
	// generation (see qindex).
	err = chunks(rids, chunkSize, func(c []int64) error {
		args := append([]any{gen}, anys(c)...)
		if _, err := tx.ExecContext(ctx, "INSERT INTO vector_tombstones (doc_rid, gen) SELECT doc_rid, ? FROM vectors WHERE doc_rid IN ("+placeholders(len(c))+")", args...); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "DELETE FROM vectors WHERE doc_rid IN ("+placeholders(len(c))+")", anys(c)...)
		return err
	})
	if err != nil {
		return nil, err
	}
	err = chunks(rids, chunkSize, func(c []int64) error {
		_, err := tx.ExecContext(ctx, "DELETE FROM docs WHERE rid IN ("+placeholders(len(c))+")", anys(c)...)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return removed, nil
	}
	return removed, b.insertRows(ctx, tx, in, gen, rows)
}

// advanceGeneration advances the vector generation (see vindex and
// qindex) in tx and returns it: the write's vector rows and tombstones are
// stamped with it. Tombstones older than the base this Backend wrote are
// covered by it and go.
func (b *Backend) advanceGeneration(ctx context.Context, tx *sql.Tx) (int64, error) {
	var gen int64
	if err := tx.QueryRowContext(ctx, "UPDATE vector_generation SET gen = gen + 1 WHERE id = 0 RETURNING gen").Scan(&gen); err != nil {
		return 0, err
	}
	if p := b.persisted.Load(); p >= 0 {
		if _, err := tx.ExecContext(ctx, "DELETE FROM vector_tombstones WHERE gen <= ?", p); err != nil {
			return 0, err
		}
	}
	return gen, nil
}

// deleteRefs deletes the refs rows of the documents gone.
func deleteRefs(ctx context.Context, tx *sql.Tx, gone []stored) error {
	var del *sql.Stmt
	for _, s := range gone {
		if s.refsN == 0 {
			continue
		}
		if del == nil {
			var err error
			if del, err = tx.PrepareContext(ctx, "DELETE FROM refs WHERE rowid >= ? AND rowid < ?"); err != nil {
				return err
			}
			defer del.Close()
		}
		if _, err := del.ExecContext(ctx, s.refsAt, s.refsAt+s.refsN); err != nil {
			return err
		}
	}
	return nil
}

// insertRows inserts rows (ids not stored) into tx: docs, their refs in
// consecutive rowids from one past the largest, their vectors and their
// index entries; the vectors stamped with generation gen.
func (b *Backend) insertRows(ctx context.Context, tx *sql.Tx, in *interner, gen int64, rows []row) error {
	nextRef, err := nextRefRowid(ctx, tx)
	if err != nil {
		return err
	}
	insDoc, err := tx.PrepareContext(ctx, `INSERT INTO docs (id_own, id_hash, path, start_line, end_line, symbol, qualified,
		symbol_fold, qualified_fold, kind, language, signature, doc, body,
		hash_v, test, meta_v, changed, parser_v, refs_at, refs_n, role, name_words)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer insDoc.Close()
	refArgs := make([]any, 0, 4*refChunkRows)
	flushRefs := func() error {
		err := insertRefs(ctx, tx, refArgs)
		refArgs = refArgs[:0]
		return err
	}
	var insVec *sql.Stmt
	var mid int64
	ftsArgs := make([]any, 0, 6*len(rows))
	for _, r := range rows {
		d := r.doc
		prov, err := in.provenance(ctx, d, r.metadata)
		if err != nil {
			return err
		}
		refsAt := int64(0)
		if len(d.Refs) > 0 {
			refsAt = nextRef
		}
		res, err := insDoc.ExecContext(ctx, ownID(d), idHash(d.ID), d.Path, d.StartLine, d.EndLine, d.Symbol, d.Qualified,
			storedFold(d.Symbol), storedFold(d.Qualified), d.Kind, d.Language, d.Signature, d.Doc, r.body,
			prov.hash, prov.test, prov.meta, d.Changed, prov.parser, refsAt, len(d.Refs), d.Role, r.nameWords)
		if err != nil {
			return err
		}
		rid, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if refArgs, nextRef, err = in.appendRefs(ctx, refArgs, nextRef, rid, d.Refs); err != nil {
			return err
		}
		if len(refArgs) >= 4*refChunkRows {
			if err := flushRefs(); err != nil {
				return err
			}
		}
		if r.vec != nil {
			if insVec == nil {
				if mid, err = vectorModel(ctx, tx, b.opts.model, b.opts.dims); err != nil {
					return err
				}
				if insVec, err = tx.PrepareContext(ctx, "INSERT INTO vectors (doc_rid, mid, vec, gen) VALUES (?, ?, ?, ?)"); err != nil {
					return err
				}
				defer insVec.Close()
			}
			if _, err := insVec.ExecContext(ctx, rid, mid, encodeVector(r.vec), gen); err != nil {
				return err
			}
		}
		ftsArgs = append(ftsArgs, rid, r.ftsName, r.ftsDoc, r.ftsSignature, r.ftsPath, r.ftsBody)
	}
	if err := flushRefs(); err != nil {
		return err
	}
	return chunks(ftsArgs, 6*ftsChunkRows, func(c []any) error {
		q := "INSERT INTO fts (rowid, name, doc, signature, path, body) VALUES " +
			strings.Repeat("(?, ?, ?, ?, ?, ?), ", len(c)/6-1) + "(?, ?, ?, ?, ?, ?)"
		_, err := tx.ExecContext(ctx, q, c...)
		return err
	})
}

// vectorModel is the vector_models.id of (model, dims) in tx, added if new.
func vectorModel(ctx context.Context, tx *sql.Tx, model string, dims int) (int64, error) {
	if _, err := tx.ExecContext(ctx, "INSERT OR IGNORE INTO vector_models (model, dims) VALUES (?, ?)", model, dims); err != nil {
		return 0, err
	}
	var id int64
	err := tx.QueryRowContext(ctx, "SELECT id FROM vector_models WHERE model = ? AND dims = ?", model, dims).Scan(&id)
	return id, err
}

// nextRefRowid is one past the largest refs rowid.
func nextRefRowid(ctx context.Context, tx *sql.Tx) (int64, error) {
	var next int64
	err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(rowid), 0) + 1 FROM refs").Scan(&next)
	return next, err
}

// provenance is a document's columns that hold provenance: dictionary ids
// of its content hash, metadata (JSON) and parser, and test as 0 or 1.
type provenance struct{ hash, meta, parser, test int64 }

func (in *interner) provenance(ctx context.Context, d retrieval.Document, metadata string) (provenance, error) {
	var p provenance
	var err error
	if p.hash, err = in.val(ctx, d.ContentHash); err != nil {
		return p, err
	}
	if p.meta, err = in.val(ctx, metadata); err != nil {
		return p, err
	}
	if p.parser, err = in.val(ctx, d.Parser); err != nil {
		return p, err
	}
	if d.Test {
		p.test = 1
	}
	return p, nil
}

// appendRefs appends the refs rows of the document rid, numbered from
// next, to args as (rowid, doc_rid, nk, line) quadruples, and returns the
// next free rowid.
func (in *interner) appendRefs(ctx context.Context, args []any, next, rid int64, refs []retrieval.Ref) ([]any, int64, error) {
	for _, ref := range refs {
		nk, err := in.name(ctx, ref)
		if err != nil {
			return args, next, err
		}
		args = append(args, next, rid, nk, ref.Line)
		next++
	}
	return args, next, nil
}

// insertRefs inserts refs rows given as (rowid, doc_rid, nk, line)
// argument quadruples, in multi-row INSERTs: one statement per
// refChunkRows rows instead of one per reference.
func insertRefs(ctx context.Context, tx *sql.Tx, args []any) error {
	return chunks(args, 4*refChunkRows, func(c []any) error {
		q := "INSERT INTO refs (rowid, doc_rid, nk, line) VALUES " +
			strings.Repeat("(?, ?, ?, ?), ", len(c)/4-1) + "(?, ?, ?, ?)"
		_, err := tx.ExecContext(ctx, q, c...)
		return err
	})
}

// refChunkRows is how many references one INSERT statement writes (4
// parameters each, far below SQLite's limit of 32766).
const refChunkRows = 250
