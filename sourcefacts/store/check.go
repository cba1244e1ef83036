package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// priorState is the stored state validation loaded, on the connection
// it was loaded on, with that connection's PRAGMA data_version at the
// time: SQLite changes it when any other connection commits (a publish, a
// stat update, a write of another process), so while it is unchanged the
// state is still the database's and a publish on the same connection need
// not load it again.
type priorState struct {
	conn    *sql.Conn
	st      *dbState
	version int64
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

// loadAndList loads the stored state on conn (loadPrior) and, when list
// is set, lists the project's files at the same time. It returns the
// listed paths (any order, as Lister.List gives them) with the
// *sourcefacts.WalkError of the paths the walk could not see (nil if
// none); any other error of either half fails it, after both have
// returned.
func (s *Store) loadAndList(ctx context.Context, conn *sql.Conn, list bool) (*priorState, []string, *sourcefacts.WalkError, error) {
	type loaded struct {
		pr  *priorState
		err error
	}
	ch := make(chan loaded, 1)
	go func() {
		pr, err := loadPrior(ctx, conn)
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
// of the files table.
func fingerprintAfter(st *dbState, work []*workItem) (uint64, int) {
	hashes := make(map[string]sourcefacts.ContentHash, len(st.rows)+len(work))
	for p, r := range st.rows {
		if r.present {
			hashes[p] = r.hash
		}
	}
	for _, w := range work {
		if w.gone {
			delete(hashes, w.path)
		} else {
			hashes[w.path] = w.c.hash
		}
	}
	entries := make([]PathHash, 0, len(hashes))
	for p, h := range hashes {
		entries = append(entries, PathHash{Path: p, Hash: h})
	}
	return Fingerprint(entries), len(entries)
}
