package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// priorState is the stored state validation loaded, on the Store's own
// connection (stateCache), with that connection's PRAGMA data_version at
// the time: SQLite changes it when any other connection commits (a
// publish or stat update of another Store or process, a harness write or
// flush of this one on another connection), never for the connection's
// own commits. While it is unchanged the state is still the database's:
// the next check and a publish on the same connection need not load it
// again, and a publish on that connection brings it up to date itself
// (afterCommit). The state is never modified otherwise: validation and
// the publish only read it.
type priorState struct {
	conn    *sql.Conn
	st      *dbState // nil: spent, load again
	version int64
}

// stateCache is the Store's priorState between checks (guarded by
// Store.mu), on a connection kept open for it until Close.
type stateCache struct {
	conn   *sql.Conn
	pr     *priorState
	counts *factCounts // nil: not counted on conn yet
}

// prior returns the stored state as it is now: the kept one if no other
// connection committed since it was loaded, else loaded again on the
// kept connection (opened on first use).
func (s *Store) prior(ctx context.Context) (*priorState, error) {
	c := &s.state
	if c.conn == nil {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		c.conn = conn
	}
	if c.pr != nil && c.pr.st != nil {
		var v int64
		if err := c.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
			return nil, err
		}
		if v == c.pr.version {
			return c.pr, nil
		}
	}
	pr, err := loadPrior(ctx, c.conn)
	if err != nil {
		return nil, err
	}
	c.pr = pr
	return pr, nil
}

// dropState forgets the kept state and closes its connection (after an
// error on it, and at Close).
func (s *Store) dropState() {
	if s.state.conn != nil {
		s.state.conn.Close()
	}
	s.state = stateCache{}
}

// loadPrior loads the stored state on conn, in one read transaction with
// the data_version it was loaded at.
func loadPrior(ctx context.Context, conn *sql.Conn) (*priorState, error) {
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	st, err := loadState(ctx, tx)
	if err != nil {
		return nil, err
	}
	pr := &priorState{conn: conn, st: st}
	// After loadState's reads: the read transaction has begun, so the
	// version is that of the state read.
	if err := tx.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&pr.version); err != nil {
		return nil, err
	}
	return pr, nil
}

// begin begins a write transaction on pr's connection, or on db when pr
// is nil.
func (pr *priorState) begin(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
	if pr == nil {
		return db.BeginTx(ctx, nil)
	}
	return pr.conn.BeginTx(ctx, nil)
}

// stateIn is the stored state as tx (begun by begin) sees it: pr's when
// no other connection committed since pr was loaded, else loaded again.
func (pr *priorState) stateIn(ctx context.Context, tx *sql.Tx) (*dbState, error) {
	if pr != nil && pr.st != nil {
		var v int64
		if err := tx.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
			return nil, err
		}
		if v == pr.version {
			return pr.st, nil
		}
	}
	return loadState(ctx, tx)
}

// afterCommit brings pr's state up to date after a commit on its
// connection that wrote the rows of paths (and the dirty table): those
// rows, the dirty paths and the generation are read again. On an error
// the state is spent.
func (pr *priorState) afterCommit(ctx context.Context, paths []string) {
	if pr == nil || pr.st == nil {
		return
	}
	st := pr.st
	pr.st = nil
	if err := pr.reload(ctx, st, paths); err == nil {
		pr.st = st
	}
}

func (pr *priorState) reload(ctx context.Context, st *dbState, paths []string) error {
	tx, err := pr.conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Another connection's commit since pr was loaded may be read here
	// too: it changed data_version, so the next check loads everything
	// again anyway.
	var gen int64
	if err := tx.QueryRowContext(ctx, `SELECT gen FROM current_generation WHERE id = 1`).Scan(&gen); err != nil {
		return err
	}
	list, err := json.Marshal(paths)
	if err != nil {
		return err
	}
	fresh := map[string]*fileRow{}
	if err := loadRows(ctx, tx, fresh, nil, `SELECT `+fileRowCols+` FROM files WHERE path IN (SELECT value FROM json_each(?))`, string(list)); err != nil {
		return err
	}
	dirty, err := loadDirty(ctx, tx)
	if err != nil {
		return err
	}
	for p := range fresh {
		if st.rows[p] == nil { // a new row: its path joins the order
			i, _ := slices.BinarySearch(st.order, p)
			st.order = slices.Insert(st.order, i, p)
		}
	}
	maps.Copy(st.rows, fresh)
	st.dirty, st.gen = dirty, gen
	return nil
}

// loadAndList returns the stored state (Store.prior) and, when list is
// set, lists the project's files at the same time. It returns the listed
// paths (any order, as Lister.List gives them) with the
// *sourcefacts.WalkError of the paths the walk could not see (nil if
// none); any other error of either half fails it, after both have
// returned.
func (s *Store) loadAndList(ctx context.Context, list bool) (*priorState, []string, *sourcefacts.WalkError, error) {
	type loaded struct {
		pr  *priorState
		err error
	}
	ch := make(chan loaded, 1)
	go func() {
		pr, err := s.prior(ctx)
		ch <- loaded{pr, err}
	}()
	var (
		listed  []string
		we      *sourcefacts.WalkError
		listErr error
	)
	if list {
		listed, listErr = s.lister.List(ctx, s.root)
		if listErr != nil && !errors.As(listErr, &we) {
			we = nil
		} else {
			listErr = nil
		}
	}
	l := <-ch
	if l.err != nil {
		s.dropState()
		return nil, nil, nil, fmt.Errorf("store: validate: %w", l.err)
	}
	if listErr != nil {
		return nil, nil, nil, listErr
	}
	return l.pr, listed, we, nil
}

// fingerprintAfter is the fingerprint (see Fingerprint) of the present
// files, and their number, once work is written over st: what
// fingerprintOf would read back inside the same transaction, computed
// from the state the transaction already loaded instead of a second scan
// of the files table. st's paths in order (dbState.order) and work's
// (sorted by path, as plan leaves it) are merged: no map or sort of the
// whole tree.
func fingerprintAfter(st *dbState, work []*workItem) (uint64, int) {
	byPath := func(a, b *workItem) int { return strings.Compare(a.path, b.path) }
	if !slices.IsSortedFunc(work, byPath) {
		work = slices.Clone(work)
		slices.SortFunc(work, byPath)
	}
	fw := newFingerprinter()
	n := 0
	order := st.order
	for i, j := 0, 0; i < len(order) || j < len(work); {
		var w *workItem
		p := ""
		switch {
		case j == len(work) || i < len(order) && order[i] < work[j].path:
			p = order[i]
			i++
		case i == len(order) || work[j].path < order[i]:
			w, p = work[j], work[j].path
			j++
		default: // the same path: work's row replaces the stored one
			w, p = work[j], work[j].path
			i++
			j++
		}
		switch {
		case w != nil && !w.gone:
			fw.add(p, w.c.hash)
			n++
		case w == nil && st.rows[p].present:
			fw.add(p, st.rows[p].hash)
			n++
		}
	}
	return fw.sum(), n
}
