package embedded

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/rlm-dev/rlm/retrieval"
)

// Sources: a caller that derives its documents from files (a source is a
// document Path) records with each file the version its documents were
// made from, and later replaces the documents of exactly the files whose
// version changed (see Writer.ReplaceSources). The versions are opaque
// strings of the caller's choosing; the backend stores them and compares
// none.

// MaxSourceVersionBytes bounds one source version string.
const MaxSourceVersionBytes = 4096

// SourceVersions returns the version recorded for every source by
// Writer.ReplaceSources: document path → version. Sources written only
// through Upsert have none.
func (b *Backend) SourceVersions(ctx context.Context) (map[string]string, error) {
	rows, err := b.db.QueryContext(ctx, "SELECT path, version FROM sources")
	if err != nil {
		return nil, fmt.Errorf("embedded: source versions: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var p, v string
		if err := rows.Scan(&p, &v); err != nil {
			return nil, fmt.Errorf("embedded: source versions: %w", err)
		}
		out[p] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("embedded: source versions: %w", err)
	}
	return out, nil
}

// Writer is one write transaction on a Backend: every ReplaceSources call
// made through it becomes visible at Commit, together, or not at all
// (Rollback, a failed call, a crash). While it is open, the backend's other
// writers in this process wait; readers see the state before it.
type Writer struct {
	b  *Backend
	tx *sql.Tx
}

// ErrWriterDone is the error of a Writer used after Commit, Rollback or a
// failed call (which rolls back).
var ErrWriterDone = errors.New("embedded: writer already committed or rolled back")

// BeginWrite starts a write transaction. The caller must end it with
// Commit or Rollback.
func (b *Backend) BeginWrite(ctx context.Context) (*Writer, error) {
	b.wmu.Lock()
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		b.wmu.Unlock()
		return nil, fmt.Errorf("embedded: begin write: %w", err)
	}
	return &Writer{b: b, tx: tx}, nil
}

// ReplaceSources replaces the documents of the sources in versions: it
// removes every stored document whose Path is a key of versions or whose
// ID is among docs', stores docs (embedded first, as Upsert does, when the
// backend has an embedder) and records each source's version ("" forgets
// the source). Every document must have a Path among the keys (else a
// *retrieval.DocumentError wrapping retrieval.ErrBadRequest); the other
// document errors are Upsert's. It returns the ids of the documents it
// removed and did not store again, sorted (what a second store of the same
// documents, such as a Chroma collection, must delete). Any error rolls
// the whole transaction back; the Writer is then done (ErrWriterDone).
func (w *Writer) ReplaceSources(ctx context.Context, versions map[string]string, docs []retrieval.Document) ([]string, error) {
	if w.tx == nil {
		return nil, ErrWriterDone
	}
	removed, err := w.replace(ctx, versions, docs)
	if err != nil {
		w.Rollback()
		return nil, fmt.Errorf("embedded: replace sources: %w", err)
	}
	return removed, nil
}

func (w *Writer) replace(ctx context.Context, versions map[string]string, docs []retrieval.Document) ([]string, error) {
	for p, v := range versions {
		if len(v) > MaxSourceVersionBytes {
			return nil, fmt.Errorf("%w: version of source %q is %d bytes, limit %d", retrieval.ErrTooLarge, p, len(v), MaxSourceVersionBytes)
		}
	}
	for _, d := range docs {
		if _, ok := versions[d.Path]; !ok {
			return nil, &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("%w: path %q is not among the sources replaced", retrieval.ErrBadRequest, d.Path)}
		}
	}
	rows, err := prepareRows(docs)
	if err != nil {
		return nil, err
	}
	if w.b.opts.embedder != nil {
		if err := w.b.embedRows(ctx, rows); err != nil {
			return nil, err
		}
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.doc.ID
	}
	paths := slices.Sorted(maps.Keys(versions))
	gone, err := w.b.writeTx(ctx, w.tx, ids, paths, rows)
	if err != nil {
		return nil, err
	}
	var set, forget *sql.Stmt
	for _, p := range paths {
		if versions[p] == "" {
			if forget == nil {
				if forget, err = w.tx.PrepareContext(ctx, "DELETE FROM sources WHERE path = ?"); err != nil {
					return nil, err
				}
				defer forget.Close()
			}
			_, err = forget.ExecContext(ctx, p)
		} else {
			if set == nil {
				if set, err = w.tx.PrepareContext(ctx, "INSERT OR REPLACE INTO sources (path, version) VALUES (?, ?)"); err != nil {
					return nil, err
				}
				defer set.Close()
			}
			_, err = set.ExecContext(ctx, p, versions[p])
		}
		if err != nil {
			return nil, err
		}
	}
	kept := make(map[string]bool, len(ids))
	for _, id := range ids {
		kept[id] = true
	}
	removed := slices.DeleteFunc(gone, func(id string) bool { return kept[id] })
	slices.Sort(removed)
	return removed, nil
}

// Commit makes the Writer's changes visible and ends it.
func (w *Writer) Commit() error {
	if w.tx == nil {
		return ErrWriterDone
	}
	err := w.tx.Commit()
	w.end()
	if err != nil {
		return fmt.Errorf("embedded: commit: %w", err)
	}
	return nil
}

// Rollback discards the Writer's changes and ends it; after Commit it does
// nothing and returns ErrWriterDone.
func (w *Writer) Rollback() error {
	if w.tx == nil {
		return ErrWriterDone
	}
	err := w.tx.Rollback()
	w.end()
	return err
}

func (w *Writer) end() {
	w.tx = nil
	w.b.wmu.Unlock()
}
