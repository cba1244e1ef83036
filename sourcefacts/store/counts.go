package store

import (
	"context"
	"database/sql"
)

// factCounts are the numbers of rows of the fact tables (symbols, refs,
// imports) as the Store's own connection (stateCache) saw them at its
// PRAGMA data_version version. A publish on that connection adds the rows
// it inserted and takes off those it deleted (addPublished): its own
// commits leave data_version as it was, so while it is unchanged the
// counts are the database's. Any other connection's commit (a harness
// write or flush of this Store, another Store or process) changes
// data_version, and the next Stats counts again. Guarded by Store.mu;
// kept in stateCache, so that dropping the connection drops them.
type factCounts struct {
	version                int64
	symbols, refs, imports int
}

// factDelta is what one publish transaction did to the fact tables.
type factDelta struct {
	symbols, refs, imports int
}

// Stats' columns: the generation, the present files and their bytes, the
// dirty paths; and the fact counts, sums over the facts rows read from
// their covering index facts_counts (one entry per file with facts, 5,706
// on GOROOT/src), not from the rows with their data.
const (
	statsColumns = `(SELECT gen FROM current_generation WHERE id = 1),
		(SELECT COUNT(*) FROM files WHERE present = 1),
		(SELECT COALESCE(SUM(len), 0) FROM files WHERE present = 1),
		(SELECT COUNT(*) FROM dirty)`
	countsColumns = `(SELECT COALESCE(SUM(symbols), 0) FROM facts), (SELECT COALESCE(SUM(refs), 0) FROM facts), (SELECT COALESCE(SUM(imports), 0) FROM facts)`
)

// scanStats reads Stats' columns on q into st, the fact counts too when
// counts is set.
func scanStats(ctx context.Context, q querier, st *Stats, counts bool) error {
	dest := []any{&st.Generation, &st.Files, &st.SourceBytes, &st.Dirty}
	query := `SELECT ` + statsColumns
	if counts {
		dest = append(dest, &st.Symbols, &st.References, &st.Imports)
		query += `, ` + countsColumns
	}
	return q.QueryRowContext(ctx, query).Scan(dest...)
}

// keptStats reads Stats' counts in one read transaction on the Store's
// own connection, the fact counts from factCounts when no other
// connection committed since they were counted. The caller holds s.mu.
func (s *Store) keptStats(ctx context.Context) (Stats, error) {
	c := &s.state
	if c.conn == nil {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return Stats{}, err
		}
		c.conn = conn
	}
	st, err := readKeptStats(ctx, c)
	if err != nil {
		s.dropState()
	}
	return st, err
}

func readKeptStats(ctx context.Context, c *stateCache) (Stats, error) {
	tx, err := c.conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Stats{}, err
	}
	defer tx.Rollback()
	var st Stats
	if err := scanStats(ctx, tx, &st, false); err != nil {
		return Stats{}, err
	}
	// After the first read: the version is that of what the transaction
	// reads (see loadPrior).
	var v int64
	if err := tx.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
		return Stats{}, err
	}
	if c.counts == nil || c.counts.version != v {
		n := &factCounts{version: v}
		if err := tx.QueryRowContext(ctx, `SELECT `+countsColumns).Scan(&n.symbols, &n.refs, &n.imports); err != nil {
			return Stats{}, err
		}
		c.counts = n
	}
	st.Symbols, st.References, st.Imports = c.counts.symbols, c.counts.refs, c.counts.imports
	return st, nil
}

// addPublished adds to the kept counts what a publish committed on the
// Store's own connection did to the fact tables. Counts out of date stay
// so: their version is not the connection's, and the next Stats counts
// again. The caller holds s.mu.
func (s *Store) addPublished(d factDelta) {
	if c := s.state.counts; c != nil {
		c.symbols += d.symbols
		c.refs += d.refs
		c.imports += d.imports
	}
}
