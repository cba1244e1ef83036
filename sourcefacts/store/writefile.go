package store

// The statements of one publish transaction and the write of one file's
// row and facts with them (see publish in validate.go).

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// stmts holds the statements prepared for one publish transaction.
type stmts struct {
	tx                        *sql.Tx
	delSym, delRef, delImp    *sql.Stmt
	insSym, insRef, insImp    *sql.Stmt // one row
	insSymN, insRefN, insImpN *sql.Stmt // insertBatch rows
	updFile, goneFile, newID  *sql.Stmt
	args                      []any
	delta                     factDelta // rows inserted less rows deleted
	// held, if not nil, gets the packed facts of every file written with
	// facts (see SnapshotOptions.HoldFacts).
	held map[string]heldFacts
}

// bulkIndexFiles is how many files a publish into empty fact tables (a
// cold build) writes at least before it builds the tables' secondary
// indexes once after the rows rather than row by row (see deferIndexes).
const bulkIndexFiles = 256

// deferIndexes drops the fact tables' secondary indexes when those tables
// hold no rows and work writes at least min files with facts, and returns
// their CREATE INDEX statements as sqlite_master holds them, to be run
// again, in the same transaction, once the rows are written (nil: nothing
// dropped). The schema a reader sees after the commit is the one before:
// same names, same statements; an index built from sorted rows costs a
// fraction of one kept up to date through a million random inserts (their
// pages spilled to the WAL and written again).
func deferIndexes(ctx context.Context, tx *sql.Tx, work []*workItem, min int) ([]string, error) {
	n := 0
	for _, w := range work {
		if !w.gone {
			n++
		}
	}
	if n < min {
		return nil, nil
	}
	var any bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM symbols) OR EXISTS (SELECT 1 FROM refs) OR EXISTS (SELECT 1 FROM imports)`).Scan(&any); err != nil {
		return nil, fmt.Errorf("defer indexes: %w", err)
	}
	if any {
		return nil, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT name, sql FROM sqlite_master
		WHERE type = 'index' AND tbl_name IN ('symbols', 'refs', 'imports') AND sql IS NOT NULL ORDER BY rowid`)
	if err != nil {
		return nil, fmt.Errorf("defer indexes: %w", err)
	}
	defer rows.Close()
	var names, create []string
	for rows.Next() {
		var name, stmt string
		if err := rows.Scan(&name, &stmt); err != nil {
			return nil, fmt.Errorf("defer indexes: %w", err)
		}
		names, create = append(names, name), append(create, stmt)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("defer indexes: %w", err)
	}
	rows.Close()
	for _, name := range names {
		if _, err := tx.ExecContext(ctx, `DROP INDEX "`+strings.ReplaceAll(name, `"`, `""`)+`"`); err != nil {
			return nil, fmt.Errorf("defer indexes: drop %s: %w", name, err)
		}
	}
	return create, nil
}

// createIndexes runs the statements deferIndexes returned.
func createIndexes(ctx context.Context, tx *sql.Tx, create []string) error {
	for _, stmt := range create {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("create index after the rows: %w", err)
		}
	}
	return nil
}

// insertBatch is how many fact rows one multi-row INSERT carries: the
// per-statement overhead of database/sql and the driver dominates single
// rows.
const insertBatch = 64

func multiRow(head string, cols int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", cols), ",") + ")"
	return head + " VALUES " + strings.TrimSuffix(strings.Repeat(row+",", insertBatch), ",")
}

// insertRows inserts n rows, appending row i's values with row(i, args).
func (ps *stmts) insertRows(ctx context.Context, one, many *sql.Stmt, n int, row func(i int, args []any) []any) error {
	i := 0
	for ; i+insertBatch <= n; i += insertBatch {
		ps.args = ps.args[:0]
		for j := i; j < i+insertBatch; j++ {
			ps.args = row(j, ps.args)
		}
		if _, err := many.ExecContext(ctx, ps.args...); err != nil {
			return err
		}
	}
	for ; i < n; i++ {
		if _, err := one.ExecContext(ctx, row(i, ps.args[:0])...); err != nil {
			return err
		}
	}
	return nil
}

func (ps *stmts) prepare(ctx context.Context) error {
	if ps.delSym != nil {
		return nil
	}
	var err error
	p := func(dst **sql.Stmt, q string) {
		if err == nil {
			*dst, err = ps.tx.PrepareContext(ctx, q)
		}
	}
	p(&ps.delSym, `DELETE FROM symbols WHERE file_id = ?`)
	p(&ps.delRef, `DELETE FROM refs WHERE file_id = ?`)
	p(&ps.delImp, `DELETE FROM imports WHERE file_id = ?`)
	const (
		symHead = `INSERT INTO symbols(file_id, idx, file_gen, name, kind, receiver, container, signature, doc,
			sb, eb, sl, el, sc, ec, nsb, neb, nsl, nel, nsc, nec, role, type)`
		refHead = `INSERT INTO refs(file_id, idx, file_gen, name, kind, receiver, enclosing, sb, eb, sl, el, sc, ec, via, module, type, path)`
		impHead = `INSERT INTO imports(file_id, idx, file_gen, path, alias, sb, eb, sl, el, sc, ec)`
	)
	p(&ps.insSym, symHead+` VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
	p(&ps.insRef, refHead+` VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
	p(&ps.insImp, impHead+` VALUES (?,?,?,?,?,?,?,?,?,?,?)`)
	p(&ps.insSymN, multiRow(symHead, 23))
	p(&ps.insRefN, multiRow(refHead, 17))
	p(&ps.insImpN, multiRow(impHead, 11))
	p(&ps.updFile, `UPDATE files SET present = 1, hash = ?, len = ?, file_gen = ?, parse_gen = ?, published_gen = ?,
		parser = ?, grammar = ?, grammar_version = ?, extractor = ?, schema_version = ?, language = ?, test = ?, package = ?,
		status = ?, extract_status = ?, error = ?, st_size = ?, st_mtime = ?, st_ino = ?, st_checked = ?,
		skipped = ?, language_by = ?, role = ? WHERE id = ?`)
	p(&ps.goneFile, `UPDATE files SET present = 0, published_gen = ?, st_size = -1, st_checked = 0 WHERE id = ?`)
	p(&ps.newID, `INSERT INTO files(path) VALUES (?)`)
	return err
}

func (ps *stmts) close() {
	for _, st := range []*sql.Stmt{ps.delSym, ps.delRef, ps.delImp, ps.insSym, ps.insRef, ps.insImp,
		ps.insSymN, ps.insRefN, ps.insImpN, ps.updFile, ps.goneFile, ps.newID} {
		if st != nil {
			st.Close()
		}
	}
}

// writeFile replaces one file's row and facts within the publish
// transaction.
func (s *Store) writeFile(ctx context.Context, ps *stmts, gen int64, w *workItem) error {
	if err := ps.prepare(ctx); err != nil {
		return err
	}
	r := w.row
	if r == nil {
		res, err := ps.newID.ExecContext(ctx, w.path)
		if err != nil {
			return err
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		r = &fileRow{id: id, path: w.path}
	}
	for _, d := range []struct {
		st *sql.Stmt
		n  *int
	}{{ps.delSym, &ps.delta.symbols}, {ps.delRef, &ps.delta.refs}, {ps.delImp, &ps.delta.imports}} {
		res, err := d.st.ExecContext(ctx, r.id)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		*d.n -= int(n)
	}
	if w.gone {
		_, err := ps.goneFile.ExecContext(ctx, gen, r.id)
		return err
	}
	c := w.c
	ff, err := c.facts.unpack()
	if err != nil {
		return err
	}
	fileGen := r.fileGen
	if !r.present || r.hash != c.hash {
		fileGen++
	}
	stt := c.st
	checked := c.checked
	if !c.stOK {
		stt, checked = statInfo{Size: -1}, 0
	}
	pv := &ff.Provenance
	// A skipped file is current (it has no facts to be stale), with the
	// reason in its own column.
	status, errText, skipped := ff.Status, ff.Error, ""
	if status == sourcefacts.StatusSkipped {
		status, errText, skipped = sourcefacts.StatusCurrent, "", ff.Error
	}
	if _, err := ps.updFile.ExecContext(ctx, int64(c.hash.XXH64), c.hash.Len, fileGen, r.parseGen+1, gen,
		pv.Parser, pv.Grammar, pv.GrammarVersion, pv.Extractor, SchemaVersion, ff.Language, ff.Test, ff.Package,
		status, status, errText, stt.Size, stt.MtimeNS, stt.Ino, checked, skipped, pv.LanguageBy, ff.Role, r.id); err != nil {
		return err
	}
	id := r.id
	if ps.held != nil {
		ps.held[w.path] = heldFacts{facts: c.facts, hash: c.hash, fileGen: fileGen, parseGen: r.parseGen + 1, gen: gen}
	}
	ps.delta.symbols += len(ff.Symbols)
	ps.delta.refs += len(ff.References)
	ps.delta.imports += len(ff.Imports)
	if err := ps.insertRows(ctx, ps.insSym, ps.insSymN, len(ff.Symbols), func(i int, a []any) []any {
		y := &ff.Symbols[i]
		g, n := y.Range, y.NameRange
		return append(a, id, i, fileGen, y.Name, y.Kind, y.Receiver, y.Container, y.Signature, y.Doc,
			g.StartByte, g.EndByte, g.StartLine, g.EndLine, g.StartCol, g.EndCol,
			n.StartByte, n.EndByte, n.StartLine, n.EndLine, n.StartCol, n.EndCol, y.Role, y.Type)
	}); err != nil {
		return err
	}
	if err := ps.insertRows(ctx, ps.insRef, ps.insRefN, len(ff.References), func(i int, a []any) []any {
		f := &ff.References[i]
		g := f.Range
		return append(a, id, i, fileGen, f.Name, f.Kind, f.Receiver, f.Enclosing,
			g.StartByte, g.EndByte, g.StartLine, g.EndLine, g.StartCol, g.EndCol, f.Via, f.Module, f.Type, f.Path)
	}); err != nil {
		return err
	}
	return ps.insertRows(ctx, ps.insImp, ps.insImpN, len(ff.Imports), func(i int, a []any) []any {
		im := &ff.Imports[i]
		g := im.Range
		return append(a, id, i, fileGen, im.Path, im.Alias,
			g.StartByte, g.EndByte, g.StartLine, g.EndLine, g.StartCol, g.EndCol)
	})
}
