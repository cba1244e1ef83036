package store

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"sync"
)

// filesCache keeps every present file of the last snapshot whose Files
// read them, so that the Files of a later snapshot of the same knowledge
// base reads only the rows that can differ: those published since
// (published_gen above the cached generation: changed, new or gone files),
// the dirty and stale ones, and the cached files that were dirty or stale.
// The rest of a row's FileState columns change only when it is published.
// The merged list is checked against the snapshot's fingerprint (every
// present path and content hash); on any doubt the files are read whole.
type filesCache struct {
	mu    sync.Mutex
	id    Identity    // the generation cached; Generation 0: nothing
	files []FileState // present files, all scopes, by Path; never handed out
}

// allFiles returns every present file of the snapshot (any scope, before
// markPending), sorted by Path, in a slice the caller may keep: from the
// cache and the rows published since when the cache is of an earlier
// generation of the same history, else from every row.
func (sn *Snapshot) allFiles(ctx context.Context, tx *sql.Tx) ([]FileState, error) {
	c := sn.cache
	c.mu.Lock()
	base, baseID := c.files, c.id
	c.mu.Unlock()
	var (
		all    []FileState
		merged bool
	)
	if base != nil && baseID.Generation <= sn.id.Generation {
		same, err := sameGeneration(ctx, tx, baseID)
		if err != nil {
			return nil, err
		}
		if same {
			if all, merged, err = sn.filesSince(ctx, tx, base, baseID.Generation); err != nil {
				return nil, err
			}
		}
	}
	if !merged {
		var err error
		if all, err = sn.scanFileStates(ctx, tx, `f.present = 1`, nil); err != nil {
			return nil, err
		}
	}
	c.mu.Lock()
	if sn.id.Generation >= c.id.Generation {
		c.files, c.id = all, sn.id
	}
	c.mu.Unlock()
	return slices.Clone(all), nil
}

// sameGeneration reports whether the knowledge base tx reads still holds
// generation id as it was (same fingerprint and publish time): the same
// history, not a knowledge base rebuilt under the same path.
func sameGeneration(ctx context.Context, tx *sql.Tx, id Identity) (bool, error) {
	var fp, pub int64
	err := tx.QueryRowContext(ctx, `SELECT fingerprint, published_ns FROM generations WHERE gen = ?`, id.Generation).Scan(&fp, &pub)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	want := int64(0)
	if !id.Published.IsZero() {
		want = id.Published.UnixNano()
	}
	return uint64(fp) == id.Fingerprint && pub == want, nil
}

// volatile: a file whose FileState can change without its row being
// published (a dirty mark, a stale status).
func volatile(f *FileState) bool { return f.Dirty || f.Status == StatusStale }

// filesSince merges base (the present files of generation gen) with the
// rows that can differ from it; merged is false when the result does not
// have the snapshot's fingerprint.
func (sn *Snapshot) filesSince(ctx context.Context, tx *sql.Tx, base []FileState, gen int64) (out []FileState, merged bool, err error) {
	var again []string
	for i := range base {
		if volatile(&base[i]) {
			again = append(again, base[i].Path)
		}
	}
	gone := map[string]bool{}
	delta, err := sn.scanFileStates(ctx, tx, `f.published_gen > ? OR f.status = 'stale' OR d.path IS NOT NULL`, gone, gen)
	if err != nil {
		return nil, false, err
	}
	changed := make(map[string]int, len(delta))
	for i := range delta {
		changed[delta[i].Path] = i
	}
	for _, p := range again {
		if _, ok := changed[p]; ok || gone[p] {
			continue
		}
		one, err := sn.scanFileStates(ctx, tx, `f.path = ?`, gone, p)
		if err != nil {
			return nil, false, err
		}
		for _, f := range one {
			changed[f.Path] = len(delta)
			delta = append(delta, f)
		}
	}
	out = make([]FileState, 0, len(base)+len(delta))
	for _, f := range base {
		if gone[f.Path] {
			continue
		}
		if i, ok := changed[f.Path]; ok {
			out = append(out, delta[i])
			delete(changed, f.Path)
			continue
		}
		f.Snapshot = sn.id
		out = append(out, f)
	}
	if len(changed) > 0 { // new files
		for _, i := range changed {
			out = append(out, delta[i])
		}
		slices.SortFunc(out, func(a, b FileState) int { return strings.Compare(a.Path, b.Path) })
	}
	entries := make([]PathHash, len(out))
	for i := range out {
		entries[i] = PathHash{Path: out[i].Path, Hash: out[i].Hash}
	}
	return out, Fingerprint(entries) == sn.id.Fingerprint, nil
}

// scanFileStates returns the present files that the SQL condition where
// (on files f and dirty d, constant text of this package, with args)
// selects, sorted by path, whatever the scope; the paths of the selected
// rows that are not present go into gone when it is not nil.
func (sn *Snapshot) scanFileStates(ctx context.Context, tx *sql.Tx, where string, gone map[string]bool, args ...any) ([]FileState, error) {
	rows, err := tx.QueryContext(ctx, `SELECT f.present, `+fileStateCols+fileStateFrom+`WHERE `+where+` ORDER BY f.path`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []FileState{}
	for rows.Next() {
		var f FileState
		var h fileScan
		var present bool
		if err := rows.Scan(append([]any{&present}, sn.fileStateDest(&f, &h)...)...); err != nil {
			return nil, err
		}
		if !present {
			if gone != nil {
				gone[f.Path] = true
			}
			continue
		}
		sn.finishFileState(&f, h)
		out = append(out, f)
	}
	return out, rows.Err()
}
