package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// StatusStale is the status of a file written (ApplyPatch, CommitEdit,
// MarkDirty) but not yet flushed: its stored facts describe older bytes.
const StatusStale = "stale"

// fileRow is one row of the files table.
type fileRow struct {
	id        int64
	path      string
	present   bool
	hash      sourcefacts.ContentHash
	fileGen   int64
	parseGen  int64
	extractor string
	status    string
	errMsg    string
	st        statInfo
	stChecked int64
	skipped   string // why the file was skipped ("" if it was not)
}

const fileRowCols = `id, path, present, hash, len, file_gen, parse_gen, extractor, status, error, st_size, st_mtime, st_ino, st_checked, skipped`

func scanFileRow(rows *sql.Rows) (*fileRow, error) {
	r := &fileRow{}
	var h int64
	if err := rows.Scan(&r.id, &r.path, &r.present, &h, &r.hash.Len, &r.fileGen, &r.parseGen, &r.extractor,
		&r.status, &r.errMsg, &r.st.Size, &r.st.MtimeNS, &r.st.Ino, &r.stChecked, &r.skipped); err != nil {
		return nil, err
	}
	r.hash.XXH64 = uint64(h)
	return r, nil
}

// dbState is what validation needs of the database.
type dbState struct {
	gen   int64
	rows  map[string]*fileRow
	order []string         // every path of rows, in byte order (SQLite's BINARY collation, Go's)
	dirty map[string]int64 // path → last_seq
}

func loadState(ctx context.Context, q querier) (*dbState, error) {
	st := &dbState{rows: map[string]*fileRow{}}
	if err := q.QueryRowContext(ctx, `SELECT gen FROM current_generation WHERE id = 1`).Scan(&st.gen); err != nil {
		return nil, err
	}
	if err := loadRows(ctx, q, st.rows, &st.order, `SELECT `+fileRowCols+` FROM files ORDER BY path`); err != nil {
		return nil, err
	}
	var err error
	st.dirty, err = loadDirty(ctx, q)
	return st, err
}

// loadRows adds to rows, by path, the files rows query (with args)
// selects, and appends their paths to order when it is not nil; query
// selects fileRowCols.
func loadRows(ctx context.Context, q querier, rows map[string]*fileRow, order *[]string, query string, args ...any) error {
	rs, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		r, err := scanFileRow(rs)
		if err != nil {
			return err
		}
		rows[r.path] = r
		if order != nil {
			*order = append(*order, r.path)
		}
	}
	return rs.Err()
}

// loadDirty reads the dirty paths with their last journal sequence.
func loadDirty(ctx context.Context, q querier) (map[string]int64, error) {
	dirty := map[string]int64{}
	rows, err := q.QueryContext(ctx, `SELECT path, last_seq FROM dirty`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		var seq int64
		if err := rows.Scan(&p, &seq); err != nil {
			return nil, err
		}
		dirty[p] = seq
	}
	return dirty, rows.Err()
}

// obs is what validation observed of a file on disk.
type obs struct {
	gone    bool
	hash    sourcefacts.ContentHash
	errMsg  string // a read error: the facts are an error record with a zero hash
	st      statInfo
	stOK    bool
	checked int64
	trusted bool // taken from the stat cache, not read
}

func obsOf(rr *readResult) *obs {
	if rr.missing {
		return &obs{gone: true}
	}
	o := &obs{hash: rr.hash, st: rr.st, stOK: rr.stOK, checked: rr.checked}
	if rr.err != nil {
		o.hash = sourcefacts.ContentHash{}
		o.errMsg = "read: " + rr.err.Error()
		o.stOK = false
	}
	return o
}

func (o *obs) same(p *obs) bool {
	return o.gone == p.gone && (o.gone || o.hash == p.hash && o.errMsg == p.errMsg)
}

// cand is a publish candidate: the facts extracted from bytes hashing to
// obs.hash (packed until they are written).
type cand struct {
	obs
	facts packedFacts
}

// rowMatches reports whether the stored row already describes what was
// observed, so that nothing needs to be extracted or published.
func (s *Store) rowMatches(r *fileRow, o *obs) bool {
	if o.gone {
		return r == nil || !r.present
	}
	if r == nil || !r.present || r.hash != o.hash {
		return false
	}
	if s.exVersion != "" && r.extractor != s.exVersion {
		return false
	}
	if o.errMsg != "" || r.hash == (sourcefacts.ContentHash{}) {
		return r.errMsg == o.errMsg
	}
	// The size cap decides too: a file skipped as too large that fits
	// under the cap now, or a file parsed under a higher cap that no
	// longer fits, is extracted again.
	return strings.HasPrefix(r.skipped, sourcefacts.SkipTooLarge) == (o.hash.Len > s.maxBytes)
}

// needStatUpdate: the bytes are unchanged but the stat cache is out of date,
// or was racy (mtime not older than the read), so refreshing it lets a later
// TrustStat validation skip the file.
func needStatUpdate(r *fileRow, o *obs) bool {
	if !o.stOK || o.trusted {
		return false
	}
	return r.st != o.st || o.st.MtimeNS >= r.stChecked-r.stChecked%int64(time.Second)
}

// validate hashes the files of scope (all of them when hinted is nil,
// else only the hinted ones), re-extracts those whose bytes differ from
// the stored row and publishes. Dirty files are left alone (Flush publishes
// them).
func (s *Store) validate(ctx context.Context, scope Scope, hinted []string, trustStat bool, progress func(done, total int)) error {
	if hinted == nil && len(scope.Prefixes) == 0 && len(scope.Paths) > 0 {
		// A scope of exact paths needs no walk: they are checked as if
		// hinted.
		for _, p := range scope.Paths {
			hinted = append(hinted, path.Clean(p))
		}
		slices.Sort(hinted)
		hinted = slices.Compact(hinted)
	}
	// The stored state is taken (kept from the last check if nothing was
	// committed since, else loaded) while the tree is listed: the one is
	// SQLite's work, the other the file system's. The publish below runs
	// on the state's connection and takes it as it is while nothing else
	// was committed (see priorState).
	pr, listed, we, err := s.loadAndList(ctx, hinted == nil)
	if err != nil {
		return err
	}
	st := pr.st
	D := map[string]*obs{}
	var paths []string
	if hinted == nil {
		s.setFaults(we)
		seen := make(map[string]bool, len(listed))
		for _, p := range listed {
			if scope.Match(p) {
				paths = append(paths, p)
				seen[p] = true
			}
		}
		// A file not listed because the walk could not see it is not
		// taken for gone: publish re-reads every file it removes, and one
		// that exists but cannot be read is recorded with that error.
		for p, r := range st.rows {
			if r.present && scope.Match(p) && !seen[p] {
				D[p] = &obs{gone: true}
			}
		}
	} else {
		for _, p := range hinted {
			if s.lister.Includes(s.root, p) {
				paths = append(paths, p)
			} else if r := st.rows[p]; r != nil && r.present {
				D[p] = &obs{gone: true}
			}
		}
	}
	paths = slices.DeleteFunc(paths, func(p string) bool { _, d := st.dirty[p]; return d })
	for p := range D {
		if _, d := st.dirty[p]; d {
			delete(D, p)
		}
	}

	type result struct {
		o       *obs
		c       *cand
		differs bool // read-only: the bytes differ from the stored row
	}
	ro := s.readOnly.Load()
	out := make([]result, len(paths))
	var progMu sync.Mutex
	done := 0
	report := func() {
		if progress == nil {
			return
		}
		progMu.Lock()
		defer progMu.Unlock()
		done++
		progress(done, len(paths))
	}
	var extracted atomic.Int64
	err = parallel(ctx, s.workers, len(paths), func(ctx context.Context, i int) error {
		defer report()
		p := paths[i]
		r := st.rows[p]
		abs := s.abs(p)
		if trustStat && r != nil && statTrusted(abs, r) && s.rowMatches(r, &obs{hash: r.hash, errMsg: r.errMsg}) {
			out[i].o = &obs{hash: r.hash, errMsg: r.errMsg, trusted: true}
			return nil
		}
		buf := s.readBufs.get()
		if r != nil && r.present && r.hash.Len > maxPooledRead {
			// A large file is hashed through a pooled buffer; only
			// changed bytes are read again, whole, for extraction.
			var rr *readResult
			rr, buf = hashSourceInto(abs, buf)
			if o := obsOf(rr); o.gone || s.rowMatches(r, o) {
				out[i].o = o
				s.readBufs.put(buf)
				return nil
			}
		}
		rr, buf := readSourceInto(abs, s.maxBytes, buf)
		o := obsOf(rr)
		out[i].o = o
		if o.gone || s.rowMatches(r, o) {
			// Nothing keeps rr.src: obs holds the hash, not the bytes.
			s.readBufs.put(buf)
			return nil
		}
		if ro {
			out[i].differs = true // nothing can be published: no facts needed
			return nil
		}
		ff, err := s.extract(ctx, p, rr)
		if err != nil {
			return err
		}
		extracted.Add(1)
		out[i].c, err = newCand(*o, ff)
		return err
	})
	if extracted.Load() >= trimAfterExtracting {
		// The parsers' threads freed what they allocated, but the C
		// heap keeps it resident: give it back before the facts are
		// published and the search index is built.
		s.releaseCMemory()
	}
	if err != nil {
		return err
	}
	if ro {
		s.recordPending(st, scope, hinted, paths, D, func(i int) (*obs, bool) { return out[i].o, out[i].differs })
		return nil
	}
	cands := map[string]*cand{}
	for i, p := range paths {
		D[p] = out[i].o
		if out[i].c != nil {
			cands[p] = out[i].c
		}
	}
	// Nothing to write as of the state loaded above, and no generation
	// published since (rows' hashes change only with a generation): done,
	// without taking the write lock.
	if s.plan(st, D, cands, nil).empty() {
		var gen int64
		if err := s.db.QueryRowContext(ctx, `SELECT gen FROM current_generation WHERE id = 1`).Scan(&gen); err != nil {
			return fmt.Errorf("store: validate: %w", err)
		}
		if gen == st.gen {
			return nil
		}
	}
	if s.afterCheck != nil {
		s.afterCheck()
	}
	if _, err = s.publishFrom(ctx, pr, D, cands, nil); err != nil {
		s.dropState()
	}
	return err
}

// recordPending is validate's end for a read-only knowledge base: the
// files of paths whose bytes differ from their rows (obsAt(i) says) and
// the gone files in D become the pending paths of what was checked (scope,
// or the hinted paths).
func (s *Store) recordPending(st *dbState, scope Scope, hinted, paths []string, D map[string]*obs, obsAt func(int) (*obs, bool)) {
	now := map[string]string{}
	for i, p := range paths {
		if o, differs := obsAt(i); differs {
			now[p] = pendingReason(st.rows[p], o)
		}
	}
	for p, o := range D {
		if o.gone {
			now[p] = pendingReason(st.rows[p], o)
		}
	}
	checked := scope.Match
	if hinted != nil {
		checked = func(p string) bool { return slices.Contains(hinted, p) }
	}
	s.setPending(checked, now)
}

// publish makes the database agree with D (path → observation) in one
// transaction, publishing a new project generation if any file's facts
// change. cands holds extracted facts for changed files; files that turn
// out to need facts (another process published something else meanwhile)
// are read and extracted here. flush maps dirty paths being flushed to the
// journal sequence observed; their dirty rows are cleared in the same
// transaction unless a newer write was recorded meanwhile.
//
// Optimistic check: inside the write transaction every changed file is
// re-read and re-hashed just before commit; a file that no longer hashes to
// what was extracted discards the whole attempt, is re-extracted from the
// bytes just read and the publish is retried, at most s.attempts times in a
// row, then *StaleError.
func (s *Store) publish(ctx context.Context, D map[string]*obs, cands map[string]*cand, flush map[string]int64) (bool, error) {
	return s.publishFrom(ctx, nil, D, cands, flush)
}

// publishFrom is publish starting from the state pr loaded (nil: none):
// its transactions run on pr's connection and take pr's state as the
// database's while that connection sees no commit since pr was loaded.
func (s *Store) publishFrom(ctx context.Context, pr *priorState, D map[string]*obs, cands map[string]*cand, flush map[string]int64) (bool, error) {
	mismatches := 0
	for loop := 0; ; loop++ {
		a, err := s.tryPublish(ctx, pr, D, cands, flush)
		if err != nil {
			return false, fmt.Errorf("store: publish: %w", err)
		}
		if a.done {
			return a.published, nil
		}
		if a.stale != nil {
			mismatches++
			if mismatches >= s.attempts {
				a.stale.Attempts = mismatches
				return false, a.stale
			}
		}
		if loop >= s.attempts+8 { // others keep publishing under us
			p := ""
			if len(a.need) > 0 {
				p = a.need[0]
			} else {
				p = sortedKeys(a.reread)[0]
			}
			return false, &StaleError{Path: p, Expected: D[p].hash, Attempts: loop + 1}
		}
		for _, p := range a.need {
			a.reread[p] = s.readListed(p)
		}
		for p, rr := range a.reread {
			o := obsOf(rr)
			D[p] = o
			if o.gone {
				delete(cands, p)
				continue
			}
			ff, err := s.extract(ctx, p, rr)
			if err != nil {
				return false, err
			}
			if cands[p], err = newCand(*o, ff); err != nil {
				return false, err
			}
		}
	}
}

type attempt struct {
	done, published bool
	need            []string               // must be (re-)extracted before the next attempt
	reread          map[string]*readResult // changed under us: the bytes just read
	stale           *StaleError            // the first of reread
}

type workItem struct {
	path string
	row  *fileRow // nil: first sight
	gone bool
	c    *cand
}

type statUpdate struct {
	id   int64
	path string
	o    *obs
}

func (s *Store) tryPublish(ctx context.Context, pr *priorState, D map[string]*obs, cands map[string]*cand, flush map[string]int64) (*attempt, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tx, err := pr.begin(ctx, s.db) // BEGIN IMMEDIATE
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	st, err := pr.stateIn(ctx, tx)
	if err != nil {
		return nil, err
	}
	pl := s.plan(st, D, cands, flush)
	work, statUps, restore, need := pl.work, pl.statUps, pl.restore, pl.need
	if len(need) > 0 {
		return &attempt{need: need, reread: map[string]*readResult{}}, nil
	}

	// Optimistic check: the bytes must still be those extracted.
	a := &attempt{reread: map[string]*readResult{}}
	for _, w := range work {
		if s.beforePublish != nil {
			s.beforePublish(w.path)
		}
		rr := s.readListed(w.path)
		now := obsOf(rr)
		want := &obs{gone: true}
		if !w.gone {
			want = &w.c.obs
		}
		if now.same(want) {
			continue
		}
		a.reread[w.path] = rr
		if a.stale == nil {
			a.stale = &StaleError{Path: w.path, Expected: want.hash, Actual: now.hash, Gone: now.gone != want.gone}
		}
	}
	if len(a.reread) > 0 {
		return a, nil
	}
	if len(work) == 0 && len(statUps) == 0 && len(restore) == 0 {
		return &attempt{done: true}, nil
	}

	nowNS := time.Now().UnixNano()
	ps := &stmts{tx: tx}
	if s.hold {
		ps.held = map[string]heldFacts{}
	}
	if len(work) > 0 {
		gen := st.gen + 1
		defer ps.close()
		for _, w := range work {
			if err := s.writeFile(ctx, ps, gen, w); err != nil {
				return nil, fmt.Errorf("%s: %w", w.path, err)
			}
		}
		fp, n := fingerprintAfter(st, work)
		if _, err := tx.ExecContext(ctx, `INSERT INTO generations(gen, fingerprint, files, changed, published_ns) VALUES (?, ?, ?, ?, ?)`,
			gen, int64(fp), n, len(work), nowNS); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE current_generation SET gen = ? WHERE id = 1`, gen); err != nil {
			return nil, err
		}
	}
	for _, u := range statUps {
		if _, err := tx.ExecContext(ctx, `UPDATE files SET st_size = ?, st_mtime = ?, st_ino = ?, st_checked = ? WHERE id = ?`,
			u.o.st.Size, u.o.st.MtimeNS, u.o.st.Ino, u.o.checked, u.id); err != nil {
			return nil, err
		}
	}
	for p, seq := range restore {
		if seq >= 0 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM dirty WHERE path = ? AND last_seq = ?`, p, seq); err != nil {
				return nil, err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM journal WHERE path = ? AND seq <= ?`, p, seq); err != nil {
				return nil, err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE files SET status = extract_status WHERE path = ? AND present = 1 AND status = 'stale'`, p); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		s.state.counts = nil // committed or not: count again
		return nil, err
	}
	if ps.held != nil {
		if s.held == nil {
			s.held = ps.held
		} else {
			maps.Copy(s.held, ps.held)
		}
	}
	if pr != nil {
		s.addPublished(ps.delta)
		touched := make([]string, 0, len(work)+len(statUps)+len(restore))
		for _, w := range work {
			touched = append(touched, w.path)
		}
		for _, u := range statUps {
			touched = append(touched, u.path)
		}
		touched = append(touched, sortedKeys(restore)...)
		pr.afterCommit(ctx, touched)
	}
	return &attempt{done: true, published: len(work) > 0}, nil
}

// publishPlan is what a publish must do to make the database agree with D.
type publishPlan struct {
	work    []*workItem
	statUps []statUpdate
	restore map[string]int64 // path → dirty seq to clear (-1: none); status back to extract_status
	need    []string         // changed files without a matching candidate
}

func (pl *publishPlan) empty() bool {
	return len(pl.work) == 0 && len(pl.statUps) == 0 && len(pl.restore) == 0 && len(pl.need) == 0
}

// plan compares D with the database state st.
func (s *Store) plan(st *dbState, D map[string]*obs, cands map[string]*cand, flush map[string]int64) *publishPlan {
	pl := &publishPlan{restore: map[string]int64{}}
	// D holds every file checked; the few it yields are put in path order
	// below, whatever order the map gives.
	defer pl.sort()
	for p, o := range D {
		seq, dirty := st.dirty[p]
		fseq, flushing := flush[p]
		if dirty && (!flushing || seq != fseq) {
			continue // written meanwhile: Flush publishes it
		}
		r := st.rows[p]
		if dirty {
			pl.restore[p] = seq
		} else if r != nil && r.status == StatusStale {
			pl.restore[p] = -1 // left over from an interrupted write
		}
		if s.rowMatches(r, o) {
			if r != nil && r.present && needStatUpdate(r, o) {
				pl.statUps = append(pl.statUps, statUpdate{id: r.id, path: p, o: o})
			}
			continue
		}
		if o.gone {
			pl.work = append(pl.work, &workItem{path: p, row: r, gone: true})
			continue
		}
		c := cands[p]
		if c == nil || !c.obs.same(o) {
			pl.need = append(pl.need, p)
			continue
		}
		pl.work = append(pl.work, &workItem{path: p, row: r, c: c})
	}
	return pl
}

// sort puts the work, stat updates and files to read again in path
// order: what a publish writes, and in which order new files get their
// ids, does not depend on the order files were checked in.
func (pl *publishPlan) sort() {
	slices.SortFunc(pl.work, func(a, b *workItem) int { return strings.Compare(a.path, b.path) })
	slices.SortFunc(pl.statUps, func(a, b statUpdate) int { return strings.Compare(a.path, b.path) })
	slices.Sort(pl.need)
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, cmp.Compare[string])
	return out
}

// setFaults records the paths the last walk of the whole tree could not
// see (none when we is nil), for the snapshots opened after it.
func (s *Store) setFaults(we *sourcefacts.WalkError) {
	s.faultMu.Lock()
	defer s.faultMu.Unlock()
	s.faults = nil
	if we != nil {
		s.faults = slices.Clone(we.Faults)
	}
}

// trimAfterExtracting is how many files a check extracts before it gives
// the C heap's free memory back (sourcefacts.ReleaseFreedCMemory): a cold
// or large check, not a few edited files.
const trimAfterExtracting = 256
