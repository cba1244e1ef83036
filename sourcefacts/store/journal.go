package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// Edit replaces the bytes [Start, End) of the original content with Text.
// Offsets are 0-based byte offsets into the bytes the patch is applied to
// (the expected bytes), End exclusive; Start == End inserts.
type Edit struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  []byte `json:"text"`
}

// Patch changes one file's content: either Edits (non-overlapping byte
// ranges of the original, in any order; edits inserting at the same offset
// apply in the given order) or UnifiedDiff (a unified or git diff of exactly
// one file modified in place, applied strictly by
// github.com/bluekeyes/go-gitdiff). Exactly one must be set.
type Patch struct {
	Edits       []Edit
	UnifiedDiff []byte
}

// Apply returns src with the patch applied. Errors are *PatchError
// (errors.Is ErrBadPatch).
func (p Patch) Apply(src []byte) ([]byte, error) {
	switch {
	case len(p.Edits) > 0 && len(p.UnifiedDiff) > 0:
		return nil, &PatchError{Reason: "both Edits and UnifiedDiff set"}
	case len(p.Edits) > 0:
		return applyEdits(src, p.Edits)
	case len(p.UnifiedDiff) > 0:
		return applyDiff(src, p.UnifiedDiff)
	}
	return nil, &PatchError{Reason: "empty patch"}
}

func applyEdits(src []byte, edits []Edit) ([]byte, error) {
	es := slices.Clone(edits)
	slices.SortStableFunc(es, func(a, b Edit) int { return a.Start - b.Start })
	n, prev := len(src), 0
	for i, e := range es {
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			return nil, &PatchError{Reason: fmt.Sprintf("edit [%d,%d) out of range for %d bytes", e.Start, e.End, len(src))}
		}
		if e.Start < prev {
			return nil, &PatchError{Reason: fmt.Sprintf("edit [%d,%d) overlaps edit [%d,%d)", e.Start, e.End, es[i-1].Start, es[i-1].End)}
		}
		prev = e.End
		n += len(e.Text) - (e.End - e.Start)
	}
	out := make([]byte, 0, n)
	at := 0
	for _, e := range es {
		out = append(out, src[at:e.Start]...)
		out = append(out, e.Text...)
		at = e.End
	}
	return append(out, src[at:]...), nil
}

func applyDiff(src, diff []byte) ([]byte, error) {
	files, _, err := gitdiff.Parse(bytes.NewReader(diff))
	if err != nil {
		return nil, &PatchError{Reason: "unparsable diff", Err: err}
	}
	if len(files) != 1 {
		return nil, &PatchError{Reason: fmt.Sprintf("diff changes %d files, want exactly 1", len(files))}
	}
	f := files[0]
	if f.IsNew || f.IsDelete || f.IsCopy || f.IsRename {
		return nil, &PatchError{Reason: "diff creates, deletes, copies or renames a file; only in-place changes apply"}
	}
	var out bytes.Buffer
	out.Grow(len(src))
	if err := gitdiff.Apply(&out, bytes.NewReader(src), f); err != nil {
		return nil, &PatchError{Reason: "diff does not apply", Err: err}
	}
	return out.Bytes(), nil
}

// journalText is what the journal keeps of a patch (capped).
func (p Patch) journalText() []byte {
	var b []byte
	if len(p.UnifiedDiff) > 0 {
		b = p.UnifiedDiff
	} else if len(p.Edits) > 0 {
		b, _ = json.Marshal(p.Edits)
	}
	if len(b) > maxJournalPatchBytes {
		return nil
	}
	return b
}

// writeTarget resolves rel for writing: symbolic links are followed, and
// the file written must lie inside the root. It returns the absolute file to
// write and the set of relative paths whose bytes change (the link and its
// target).
func (s *Store) writeTarget(rel, abs string) (target string, dirty []string, err error) {
	dirty = []string{rel}
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return abs, dirty, nil // reported as a conflict (Missing) by the caller
	}
	if err != nil {
		return "", nil, fmt.Errorf("store: %s: %w", rel, err)
	}
	root, err := filepath.EvalSymlinks(s.root)
	if err != nil {
		return "", nil, fmt.Errorf("store: %w", err)
	}
	r, err := filepath.Rel(root, real)
	if err != nil || !filepath.IsLocal(r) {
		return "", nil, fmt.Errorf("%w: %s resolves to %s", ErrOutsideRoot, rel, real)
	}
	if t := filepath.ToSlash(r); t != rel {
		dirty = append(dirty, t)
	}
	return real, dirty, nil
}

// ApplyPatch applies patch to the file at path (relative to the root, or
// absolute inside it) if and only if its current bytes hash to expected,
// and returns the hash of the new bytes.
//
// The write is atomic: a temporary file in the same directory, fsynced, the
// original's permission bits kept, renamed over the file (through symbolic
// links, whose target must lie inside the root). The file is marked dirty
// in the journal, durably, before it is touched; from then on it reads as
// stale (its old facts are not served as current) until Flush. A crash at
// any point leaves the file either untouched or written, and dirty.
//
// Errors: *ConflictError (ErrConflict) when the bytes do not hash to
// expected or the file does not exist, *PatchError (ErrBadPatch) when the
// patch is malformed or does not apply, ErrOutsideRoot; in all three the file
// is untouched and not left dirty by this call. When the journal holds
// Options.JournalLimit edits, ApplyPatch first flushes it.
func (s *Store) ApplyPatch(ctx context.Context, path string, expected sourcefacts.ContentHash, patch Patch) (sourcefacts.ContentHash, error) {
	rel, abs, err := s.rel(path)
	if err != nil {
		return sourcefacts.ContentHash{}, err
	}
	if len(patch.Edits) == 0 && len(patch.UnifiedDiff) == 0 {
		return sourcefacts.ContentHash{}, &PatchError{Path: rel, Reason: "empty patch"}
	}
	target, dirty, err := s.writeTarget(rel, abs)
	if err != nil {
		return sourcefacts.ContentHash{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return sourcefacts.ContentHash{}, ErrClosed
	}
	if err := s.makeRoom(ctx); err != nil {
		return sourcefacts.ContentHash{}, err
	}
	created, err := s.markPending(ctx, dirty)
	if err != nil {
		return sourcefacts.ContentHash{}, fmt.Errorf("store: mark dirty: %w", err)
	}
	h, touched, err := s.patchLocked(ctx, rel, target, dirty, expected, patch)
	if err != nil && !touched {
		s.unmarkPending(created)
	}
	return h, err
}

func (s *Store) patchLocked(ctx context.Context, rel, target string, dirty []string, expected sourcefacts.ContentHash, patch Patch) (h sourcefacts.ContentHash, touched bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: serialises with other processes' writes
	if err != nil {
		return h, false, err
	}
	defer tx.Rollback()
	src, mode, missing, err := readAll(target)
	if err != nil {
		return h, false, fmt.Errorf("store: %s: %w", rel, err)
	}
	if missing {
		return h, false, &ConflictError{Path: rel, Expected: expected, Missing: true}
	}
	if actual := sourcefacts.HashBytes(src); actual != expected {
		return h, false, &ConflictError{Path: rel, Expected: expected, Actual: actual}
	}
	out, err := patch.Apply(src)
	if err != nil {
		var pe *PatchError
		if errors.As(err, &pe) {
			pe.Path = rel
		}
		return h, false, err
	}
	h = sourcefacts.HashBytes(out)
	if err := s.journal(ctx, tx, dirty, "patch", expected, h, patch.journalText()); err != nil {
		return sourcefacts.ContentHash{}, false, err
	}
	if err := writeAtomic(target, out, mode); err != nil {
		return sourcefacts.ContentHash{}, false, fmt.Errorf("store: write %s: %w", rel, err)
	}
	if err := tx.Commit(); err != nil {
		// Written but not journaled: the pending dirty mark stays.
		return h, true, fmt.Errorf("store: %s written, journal commit failed: %w", rel, err)
	}
	return h, true, nil
}

// readAll reads the whole file at abs (never blocking on a FIFO).
func readAll(abs string) (src []byte, mode fs.FileMode, missing bool, err error) {
	f, err := openNonBlocking(abs)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotRegular) {
		return nil, 0, true, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, true, nil
	}
	src, err = io.ReadAll(f)
	return src, fi.Mode().Perm(), false, err
}

// journal records one edit of paths and marks them dirty (stale), within
// tx.
func (s *Store) journal(ctx context.Context, tx *sql.Tx, paths []string, kind string, before, after sourcefacts.ContentHash, text []byte) error {
	now := time.Now().UnixNano()
	for _, p := range paths {
		res, err := tx.ExecContext(ctx, `INSERT INTO journal(path, at_ns, kind, before_hash, before_len, after_hash, after_len, patch)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, p, now, kind, int64(before.XXH64), before.Len, int64(after.XXH64), after.Len, text)
		if err != nil {
			return err
		}
		seq, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO dirty(path, since_ns, writes, last_seq) VALUES (?, ?, 1, ?)
			ON CONFLICT(path) DO UPDATE SET writes = writes + 1, last_seq = excluded.last_seq`, p, now, seq); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE files SET status = 'stale' WHERE path = ? AND present = 1`, p); err != nil {
			return err
		}
	}
	return nil
}

// markPending durably marks paths dirty before a write, and returns those
// that were not dirty already.
func (s *Store) markPending(ctx context.Context, paths []string) ([]string, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var created []string
	now := time.Now().UnixNano()
	for _, p := range paths {
		res, err := tx.ExecContext(ctx, `INSERT INTO dirty(path, since_ns, writes, last_seq) VALUES (?, ?, 0, 0) ON CONFLICT(path) DO NOTHING`, p, now)
		if err != nil {
			return nil, err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			created = append(created, p)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE files SET status = 'stale' WHERE path = ? AND present = 1`, p); err != nil {
			return nil, err
		}
	}
	return created, tx.Commit()
}

// unmarkPending removes marks made by markPending that no write used
// (best effort: a mark left behind only makes the file read as stale until
// the next Flush).
func (s *Store) unmarkPending(paths []string) {
	if len(paths) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return
	}
	defer tx.Rollback()
	for _, p := range paths {
		res, err := tx.ExecContext(ctx, `DELETE FROM dirty WHERE path = ? AND writes = 0 AND last_seq = 0`, p)
		if err != nil {
			return
		}
		if n, _ := res.RowsAffected(); n == 1 {
			if _, err := tx.ExecContext(ctx, `UPDATE files SET status = extract_status WHERE path = ? AND present = 1 AND status = 'stale'`, p); err != nil {
				return
			}
		}
	}
	tx.Commit()
}

// makeRoom flushes when the journal is full.
func (s *Store) makeRoom(ctx context.Context) error {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM journal`).Scan(&n); err != nil {
		return err
	}
	if n < s.jlimit {
		return nil
	}
	_, err := s.flushLocked(ctx)
	return err
}

// MarkDirty records that an external writer changed (or is changing) the
// file at path: it reads as stale, and its facts are not re-published by
// snapshots, until Flush. path need not exist.
func (s *Store) MarkDirty(ctx context.Context, path string) error {
	return s.record(ctx, path, "mark", nil, sourcefacts.ContentHash{}, nil)
}

// CommitEdit records an edit an external writer made to the file at path,
// from bytes hashing to before to bytes hashing to after, with the patch it
// applied (kept in the journal; may be zero). The file must hash to after
// now, else *ConflictError (ErrConflict) with Expected = after and nothing
// is recorded. The file reads as stale until Flush.
func (s *Store) CommitEdit(ctx context.Context, path string, before, after sourcefacts.ContentHash, patch Patch) error {
	return s.record(ctx, path, "commit", &before, after, patch.journalText())
}

func (s *Store) record(ctx context.Context, path, kind string, before *sourcefacts.ContentHash, after sourcefacts.ContentHash, text []byte) error {
	rel, abs, err := s.rel(path)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return ErrClosed
	}
	if err := s.makeRoom(ctx); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var b sourcefacts.ContentHash
	if before != nil {
		b = *before
		src, _, missing, err := readAll(abs)
		if err != nil {
			return fmt.Errorf("store: %s: %w", rel, err)
		}
		if missing {
			return &ConflictError{Path: rel, Expected: after, Missing: true}
		}
		if actual := sourcefacts.HashBytes(src); actual != after {
			return &ConflictError{Path: rel, Expected: after, Actual: actual}
		}
	}
	if err := s.journal(ctx, tx, []string{rel}, kind, b, after, text); err != nil {
		return fmt.Errorf("store: journal: %w", err)
	}
	return tx.Commit()
}

// Flush publishes the dirty files: each is read once, hashed, extracted once
// (unless its bytes equal those already stored) and all of them are
// published in ONE new generation, however many writes each received; their
// journal entries are dropped and they read as current (or partial/error)
// again. A file deleted meanwhile is published as gone. The optimistic
// re-check before commit applies (*StaleError). With nothing dirty, Flush
// publishes nothing. It returns the identity of the generation current
// after it.
func (s *Store) Flush(ctx context.Context) (Identity, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return Identity{}, ErrClosed
	}
	return s.flushLocked(ctx)
}

func (s *Store) flushLocked(ctx context.Context) (Identity, error) {
	st, err := loadState(ctx, s.db)
	if err != nil {
		return Identity{}, fmt.Errorf("store: flush: %w", err)
	}
	if len(st.dirty) > 0 {
		paths := sortedKeys(st.dirty)
		type result struct {
			o *obs
			c *cand
		}
		out := make([]result, len(paths))
		err := parallel(ctx, s.workers, len(paths), func(ctx context.Context, i int) error {
			p := paths[i]
			rr := s.readListed(p) // not a source file of the project: gone, nothing to index
			o := obsOf(rr)
			out[i].o = o
			if o.gone || s.rowMatches(st.rows[p], o) {
				return nil
			}
			ff, err := s.extract(ctx, p, rr)
			if err != nil {
				return err
			}
			out[i].c, err = newCand(*o, ff)
			return err
		})
		if err != nil {
			return Identity{}, err
		}
		D := map[string]*obs{}
		cands := map[string]*cand{}
		for i, p := range paths {
			D[p] = out[i].o
			if out[i].c != nil {
				cands[p] = out[i].c
			}
		}
		if _, err := s.publish(ctx, D, cands, st.dirty); err != nil {
			return Identity{}, err
		}
	}
	return s.currentIdentity(ctx)
}

func (s *Store) currentIdentity(ctx context.Context) (Identity, error) {
	var gen, fp, pub int64
	if err := s.db.QueryRowContext(ctx, `SELECT g.gen, g.fingerprint, g.published_ns
		FROM current_generation c JOIN generations g ON g.gen = c.gen WHERE c.id = 1`).Scan(&gen, &fp, &pub); err != nil {
		return Identity{}, fmt.Errorf("store: %w", err)
	}
	id := Identity{Generation: gen, Fingerprint: uint64(fp)}
	if pub != 0 {
		id.Published = time.Unix(0, pub)
	}
	return id, nil
}

// JournalEntry is one recorded write.
type JournalEntry struct {
	Seq    int64
	Path   string
	At     time.Time
	Kind   string                  // "patch" (ApplyPatch), "commit" (CommitEdit) or "mark" (MarkDirty)
	Before sourcefacts.ContentHash // zero for "mark"
	After  sourcefacts.ContentHash // zero for "mark"
	// Patch is the unified diff, or the edits as JSON; nil when none was
	// given or it exceeded 64 KiB.
	Patch []byte
}

// Journal lists the writes recorded since the last Flush, oldest first.
func (s *Store) Journal(ctx context.Context) ([]JournalEntry, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, path, at_ns, kind, before_hash, before_len, after_hash, after_len, patch FROM journal ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("store: journal: %w", err)
	}
	defer rows.Close()
	var out []JournalEntry
	for rows.Next() {
		var e JournalEntry
		var at, bh, ah int64
		if err := rows.Scan(&e.Seq, &e.Path, &at, &e.Kind, &bh, &e.Before.Len, &ah, &e.After.Len, &e.Patch); err != nil {
			return nil, fmt.Errorf("store: journal: %w", err)
		}
		e.At, e.Before.XXH64, e.After.XXH64 = time.Unix(0, at), uint64(bh), uint64(ah)
		out = append(out, e)
	}
	return out, rows.Err()
}

// Dirty lists the paths written and not yet flushed, sorted.
func (s *Store) Dirty(ctx context.Context) ([]string, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, `SELECT path FROM dirty ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("store: dirty: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
