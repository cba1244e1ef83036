package store

// The statements of one publish transaction and the write of one file's
// row and facts with them (see publish in validate.go).

import (
	"context"
	"database/sql"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// stmts holds the statements prepared for one publish transaction.
type stmts struct {
	tx                       *sql.Tx
	delFacts, insFacts       *sql.Stmt
	updFile, goneFile, newID *sql.Stmt
	delta                    factDelta // facts inserted less facts deleted
	// held, if not nil, gets the packed facts of every file written with
	// facts (see SnapshotOptions.HoldFacts).
	held map[string]heldFacts
}

func (ps *stmts) prepare(ctx context.Context) error {
	if ps.delFacts != nil {
		return nil
	}
	var err error
	p := func(dst **sql.Stmt, q string) {
		if err == nil {
			*dst, err = ps.tx.PrepareContext(ctx, q)
		}
	}
	p(&ps.delFacts, `DELETE FROM facts WHERE file_id = ? RETURNING symbols, refs, imports`)
	p(&ps.insFacts, `INSERT INTO facts(file_id, file_gen, symbols, refs, imports, data) VALUES (?, ?, ?, ?, ?, ?)`)
	p(&ps.updFile, `UPDATE files SET present = 1, hash = ?, len = ?, file_gen = ?, parse_gen = ?, published_gen = ?,
		parser = ?, grammar = ?, grammar_version = ?, extractor = ?, schema_version = ?, language = ?, test = ?, package = ?,
		status = ?, extract_status = ?, error = ?, st_size = ?, st_mtime = ?, st_ino = ?, st_checked = ?,
		skipped = ?, language_by = ?, role = ? WHERE id = ?`)
	p(&ps.goneFile, `UPDATE files SET present = 0, published_gen = ?, st_size = -1, st_checked = 0 WHERE id = ?`)
	p(&ps.newID, `INSERT INTO files(path) VALUES (?)`)
	return err
}

func (ps *stmts) close() {
	for _, st := range []*sql.Stmt{ps.delFacts, ps.insFacts, ps.updFile, ps.goneFile, ps.newID} {
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
	var was factDelta
	switch err := ps.delFacts.QueryRowContext(ctx, r.id).Scan(&was.symbols, &was.refs, &was.imports); err {
	case nil:
		ps.delta.symbols -= was.symbols
		ps.delta.refs -= was.refs
		ps.delta.imports -= was.imports
	case sql.ErrNoRows:
	default:
		return err
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
	if len(ff.Symbols)+len(ff.References)+len(ff.Imports) == 0 {
		return nil // no row: Facts reads none
	}
	_, err = ps.insFacts.ExecContext(ctx, id, fileGen, len(ff.Symbols), len(ff.References), len(ff.Imports), storeFacts(c.facts))
	return err
}
