package embedded

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/rlm-dev/rlm/retrieval"
)

// Sources: a caller that derives its documents from files (a source is a
// document Path) records with each file the version its documents were
// made from, and later replaces the documents of exactly the files whose
// version changed (see Writer.ReplaceSources). The versions are opaque
// strings of the caller's choosing; the backend stores them and compares
// none.

// WithUnsyncedWrites opens a file database whose writes are never synced
// to disk (PRAGMA synchronous=OFF): for a file its writer syncs itself
// before anyone relies on it, such as a search index written under a
// temporary name and sealed before it is renamed into place (package
// project). A crash or power loss while it is written can leave it
// damaged; an in-memory database ignores the option.
func WithUnsyncedWrites() Option {
	return func(o *options) { o.unsynced = true }
}

// MaxSourceVersionBytes bounds one source version string.
const MaxSourceVersionBytes = 4096

// SourceVersions returns the version recorded for every source by
// Writer.ReplaceSources: document path → version. Sources written only
// through Upsert have none.
func (b *Backend) SourceVersions(ctx context.Context) (map[string]string, error) {
	out, err := b.queryPairs(ctx, "SELECT path, version FROM sources")
	if err != nil {
		return nil, fmt.Errorf("embedded: source versions: %w", err)
	}
	return out, nil
}

// Writer is one write transaction on a Backend: every ReplaceSources call
// made through it becomes visible at Commit, together, or not at all
// (Rollback, a failed call, a crash). While it is open, the backend's other
// writers in this process wait; readers of a file database see the state
// before it (an in-memory database has one connection: its readers wait
// for the Writer to end).
type Writer struct {
	b  *Backend
	tx *sql.Tx
	in *interner
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
	return &Writer{b: b, tx: tx, in: b.interner(tx)}, nil
}

// Tx is the Writer's transaction, for tables of the caller's own kept
// in the same database (created by the caller, named so as not to clash
// with this package's): what the caller writes through it commits or
// rolls back with the documents. The caller must not touch this package's
// tables, nor end the transaction (Commit, Rollback); nil after the
// Writer is done.
func (w *Writer) Tx() *sql.Tx { return w.tx }

// ReplaceSources replaces the documents of the sources in versions: after
// it, the stored documents whose Path is a key of versions are exactly docs
// (a stored document with the ID of one of docs is replaced wherever it
// was), and each source's version is recorded ("" forgets the source).
// Every document must have a Path among the keys (else a
// *retrieval.DocumentError wrapping retrieval.ErrBadRequest); the other
// document errors are Upsert's. The work is in proportion to what changed:
// a document stored as it is given is left alone, and one whose indexed
// text (ID, Path, Symbol, Qualified, Kind, Signature, Doc, Text) is as
// stored keeps its row, index entries and vectors, and only its lines,
// refs and provenance are rewritten; the others are removed and inserted
// (embedded first, as Upsert does, when the backend has an embedder). It
// returns the ids of the documents it removed and did not store again,
// sorted (what a second store of the same documents, such as a Chroma
// collection, must delete). Any error rolls the whole transaction back;
// the Writer is then done (ErrWriterDone).
func (w *Writer) ReplaceSources(ctx context.Context, versions map[string]string, docs []retrieval.Document) ([]string, error) {
	if w.tx == nil {
		return nil, ErrWriterDone
	}
	if err := checkSources(versions, docs); err != nil {
		w.Rollback()
		return nil, fmt.Errorf("embedded: replace sources: %w", err)
	}
	rows, err := prepareRows(docs)
	if err != nil {
		w.Rollback()
		return nil, fmt.Errorf("embedded: replace sources: %w", err)
	}
	return w.replaceRows(ctx, versions, rows)
}

// Prepared is a batch of documents validated and encoded for the tables
// (PrepareSources): the part of Writer.ReplaceSources that touches no
// database and holds no lock, so that a caller can prepare one batch on
// one goroutine while another writes the one before (ReplacePrepared).
type Prepared struct {
	docs []retrieval.Document
	rows []row
}

// PrepareSources validates and encodes docs for ReplacePrepared, with
// the errors ReplaceSources gives for them (the documents' own; a path
// that is not among the sources is the error of ReplacePrepared). The
// documents must not change until they are written.
func PrepareSources(docs []retrieval.Document) (*Prepared, error) {
	rows, err := prepareRows(docs)
	if err != nil {
		return nil, fmt.Errorf("embedded: prepare sources: %w", err)
	}
	return &Prepared{docs: docs, rows: rows}, nil
}

// ReplacePrepared is ReplaceSources of the documents p was prepared from:
// the same documents written, the same ids returned, the same errors
// (the Writer is done after any of them).
func (w *Writer) ReplacePrepared(ctx context.Context, versions map[string]string, p *Prepared) ([]string, error) {
	if w.tx == nil {
		return nil, ErrWriterDone
	}
	if err := checkSources(versions, p.docs); err != nil {
		w.Rollback()
		return nil, fmt.Errorf("embedded: replace sources: %w", err)
	}
	return w.replaceRows(ctx, versions, p.rows)
}

// replaceRows writes rows (prepareRows) as ReplaceSources does.
func (w *Writer) replaceRows(ctx context.Context, versions map[string]string, rows []row) ([]string, error) {
	removed, err := w.replace(ctx, versions, rows)
	if err != nil {
		w.Rollback()
		return nil, fmt.Errorf("embedded: replace sources: %w", err)
	}
	return removed, nil
}

// checkSources checks the source versions and that every document's
// path is among them (see ReplaceSources).
func checkSources(versions map[string]string, docs []retrieval.Document) error {
	for p, v := range versions {
		if len(v) > MaxSourceVersionBytes {
			return fmt.Errorf("%w: version of source %q is %d bytes, limit %d", retrieval.ErrTooLarge, p, len(v), MaxSourceVersionBytes)
		}
	}
	for _, d := range docs {
		if _, ok := versions[d.Path]; !ok {
			return &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("%w: path %q is not among the sources replaced", retrieval.ErrBadRequest, d.Path)}
		}
	}
	return nil
}

// storedDoc is a stored document with its row id and refs range.
type storedDoc struct {
	doc                retrieval.Document
	rid, refsAt, refsN int64
}

// storedDocs returns the stored documents whose path is among paths, by id.
func storedDocs(ctx context.Context, tx *sql.Tx, paths []string) (map[string]storedDoc, error) {
	out := map[string]storedDoc{}
	err := chunks(paths, chunkSize, func(c []string) error {
		rs, err := tx.QueryContext(ctx, "SELECT "+docColumns+", d.rid FROM docs d WHERE d.path IN ("+placeholders(len(c))+")", anys(c)...)
		if err != nil {
			return err
		}
		defer rs.Close()
		var got []*storedDoc
		var spans []refSpan
		for rs.Next() {
			s := new(storedDoc)
			var span refSpan
			if s.doc, span, err = scanDocument(rs, &s.rid); err != nil {
				return err
			}
			s.refsAt, s.refsN = span.at, span.n
			got = append(got, s)
			spans = append(spans, span)
		}
		if err := rs.Err(); err != nil {
			return err
		}
		rs.Close()
		docs := make([]*retrieval.Document, len(got))
		for i, s := range got {
			docs[i] = &s.doc
		}
		if err := readRefs(ctx, tx, docs, spans); err != nil {
			return err
		}
		for _, s := range got {
			out[s.doc.ID] = *s
		}
		return nil
	})
	return out, err
}

// sameText reports whether a and b agree on every field that the FTS
// index (NameWords included), the vectors or a docs index other than
// (path, start_line) holds.
func sameText(a, b retrieval.Document) bool {
	return a.ID == b.ID && a.Path == b.Path && a.Symbol == b.Symbol && a.Qualified == b.Qualified &&
		a.Kind == b.Kind && a.Signature == b.Signature && a.Doc == b.Doc && a.Text == b.Text &&
		slices.Equal(a.NameWords, b.NameWords)
}

// moved is a stored document (rid, its refs range) to be given the
// positions, refs and provenance of doc, whose text is the same.
type moved struct {
	stored storedDoc
	doc    retrieval.Document
	meta   string // doc.Metadata as stored
}

func (w *Writer) replace(ctx context.Context, versions map[string]string, rows []row) ([]string, error) {
	paths := slices.Sorted(maps.Keys(versions))
	old, err := storedDocs(ctx, w.tx, paths)
	if err != nil {
		return nil, err
	}
	var insert []row
	var moves []moved
	for _, r := range rows {
		o, ok := old[r.doc.ID]
		switch {
		case ok && reflect.DeepEqual(o.doc, r.doc):
			delete(old, r.doc.ID)
		case ok && sameText(o.doc, r.doc):
			delete(old, r.doc.ID)
			moves = append(moves, moved{stored: o, doc: r.doc, meta: r.metadata})
		default:
			insert = append(insert, r)
		}
	}
	if w.b.opts.embedder != nil {
		if err := w.b.embedRows(ctx, insert); err != nil {
			return nil, err
		}
	}
	// Removed: the stored documents not kept, and any stored document with
	// the id of one inserted (under whichever path).
	remove := slices.Collect(maps.Keys(old))
	for _, r := range insert {
		remove = append(remove, r.doc.ID)
	}
	gone, err := w.b.writeTx(ctx, w.tx, w.in, remove, nil, insert)
	if err != nil {
		return nil, err
	}
	if err := moveRows(ctx, w.tx, w.in, moves); err != nil {
		return nil, err
	}
	if err := setVersions(ctx, w.tx, paths, versions); err != nil {
		return nil, err
	}
	kept := make(map[string]bool, len(rows))
	for _, r := range rows {
		kept[r.doc.ID] = true
	}
	removed := slices.DeleteFunc(gone, func(id string) bool { return kept[id] })
	slices.Sort(removed)
	return removed, nil
}

// moveRows gives each moved document its new positions, refs and
// provenance in place: its row id, index entries and vectors stay. Lines
// and refs are rewritten per document where they changed; provenance, the
// same for all documents of one file version, with one statement per
// distinct value.
func moveRows(ctx context.Context, tx *sql.Tx, in *interner, moves []moved) error {
	if len(moves) == 0 {
		return nil
	}
	nextRef, err := nextRefRowid(ctx, tx)
	if err != nil {
		return err
	}
	var lines *sql.Stmt
	type provKey struct {
		provenance
		language string
		role     string
		changed  int64
	}
	groups := map[provKey][]int64{} // provenance → rids
	var stale []stored
	var refArgs []any
	for _, m := range moves {
		d, s := m.doc, m.stored
		refsAt, refsN := s.refsAt, s.refsN
		if !slices.Equal(s.doc.Refs, d.Refs) {
			stale = append(stale, stored{rid: s.rid, refsAt: s.refsAt, refsN: s.refsN, id: s.doc.ID})
			refsAt, refsN = 0, int64(len(d.Refs))
			if refsN > 0 {
				refsAt = nextRef
			}
			if refArgs, nextRef, err = in.appendRefs(ctx, refArgs, nextRef, s.rid, d.Refs); err != nil {
				return err
			}
		}
		if d.StartLine != s.doc.StartLine || d.EndLine != s.doc.EndLine || refsAt != s.refsAt || refsN != s.refsN {
			if lines == nil {
				if lines, err = tx.PrepareContext(ctx, "UPDATE docs SET start_line = ?, end_line = ?, refs_at = ?, refs_n = ? WHERE rid = ?"); err != nil {
					return err
				}
				defer lines.Close()
			}
			if _, err := lines.ExecContext(ctx, d.StartLine, d.EndLine, refsAt, refsN, s.rid); err != nil {
				return err
			}
		}
		prov, err := in.provenance(ctx, d, m.meta)
		if err != nil {
			return err
		}
		k := provKey{prov, d.Language, d.Role, d.Changed}
		groups[k] = append(groups[k], s.rid)
	}
	for k, rids := range groups {
		err := chunks(rids, chunkSize, func(c []int64) error {
			args := append([]any{k.language, k.role, k.hash, k.test, k.meta, k.changed, k.parser}, anys(c)...)
			_, err := tx.ExecContext(ctx, "UPDATE docs SET language = ?, role = ?, hash_v = ?, test = ?, meta_v = ?, changed = ?, parser_v = ? WHERE rid IN ("+placeholders(len(c))+")", args...)
			return err
		})
		if err != nil {
			return err
		}
	}
	if err := deleteRefs(ctx, tx, stale); err != nil {
		return err
	}
	return insertRefs(ctx, tx, refArgs)
}

// setVersions records versions[p] for each of paths ("" forgets p).
func setVersions(ctx context.Context, tx *sql.Tx, paths []string, versions map[string]string) error {
	var set, forget *sql.Stmt
	var err error
	for _, p := range paths {
		if versions[p] == "" {
			if forget == nil {
				if forget, err = tx.PrepareContext(ctx, "DELETE FROM sources WHERE path = ?"); err != nil {
					return err
				}
				defer forget.Close()
			}
			_, err = forget.ExecContext(ctx, p)
		} else {
			if set == nil {
				if set, err = tx.PrepareContext(ctx, "INSERT OR REPLACE INTO sources (path, version) VALUES (?, ?)"); err != nil {
					return err
				}
				defer set.Close()
			}
			_, err = set.ExecContext(ctx, p, versions[p])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Commit makes the Writer's changes visible and ends it.
func (w *Writer) Commit() error {
	if w.tx == nil {
		return ErrWriterDone
	}
	err := w.tx.Commit()
	if err == nil {
		w.in.commit()
	}
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
	w.in.close()
	w.tx = nil
	w.b.wmu.Unlock()
}
