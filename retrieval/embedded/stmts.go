package embedded

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
)

// maxCachedStmts bounds the statements a Backend keeps prepared. Search
// texts differ by filters and by the number of IN placeholders, so the set
// of texts is open; past the bound a text is run unprepared, as before.
const maxCachedStmts = 256

// stmtCache keeps the statements of searches prepared, keyed by their SQL
// text, so that a repeated search skips SQLite's parse and plan (about a
// third of a warm search's CPU on net/http before it existed).
//
// A statement is never prepared inside a search's read transaction: the
// pool may have no free connection then (an in-memory database has one, a
// file database four, all possibly held by transactions), and preparing
// on the database would wait for one — a deadlock. A text first seen
// inside a transaction is run unprepared and remembered; after the
// transaction ends, Search prepares the remembered texts on the database
// (prepareWanted). Inside later transactions database/sql's Tx.StmtContext
// reuses the statement on the transaction's own connection, preparing it
// there once per connection.
//
// SQLite re-prepares a statement by itself when the schema changes
// (sqlite3_prepare_v2), so a cached statement stays valid across writes.
type stmtCache struct {
	mu     sync.Mutex
	stmts  map[string]*sql.Stmt
	wanted map[string]bool
	closed bool
	reused atomic.Int64 // queries run through a prepared statement
}

// get returns the prepared statement of q, or nil after remembering q to
// be prepared once the caller's transaction is over.
func (c *stmtCache) get(q string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.stmts[q]; st != nil {
		return st
	}
	if !c.closed && len(c.stmts)+len(c.wanted) < maxCachedStmts {
		if c.wanted == nil {
			c.wanted = map[string]bool{}
		}
		c.wanted[q] = true
	}
	return nil
}

// prepareWanted prepares the texts remembered by get. The caller must hold
// no transaction of db. A text that fails to prepare is dropped (it will
// fail, or succeed, unprepared as before); the error is not the caller's.
func (c *stmtCache) prepareWanted(ctx context.Context, db *sql.DB) {
	c.mu.Lock()
	if len(c.wanted) == 0 || c.closed {
		c.mu.Unlock()
		return
	}
	wanted := c.wanted
	c.wanted = nil
	c.mu.Unlock()
	for q := range wanted {
		st, err := db.PrepareContext(ctx, q)
		if err != nil {
			continue
		}
		c.mu.Lock()
		if c.closed || c.stmts[q] != nil {
			c.mu.Unlock()
			st.Close()
			continue
		}
		if c.stmts == nil {
			c.stmts = map[string]*sql.Stmt{}
		}
		c.stmts[q] = st
		c.mu.Unlock()
	}
}

// len returns how many statements are prepared.
func (c *stmtCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.stmts)
}

// close closes every prepared statement; later gets prepare nothing.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for q, st := range c.stmts {
		st.Close()
		delete(c.stmts, q)
	}
	c.wanted = nil
}

// readTx is a search's read transaction with the backend's statement
// cache: QueryContext runs a cached statement when there is one.
type readTx struct {
	*sql.Tx
	stmts *stmtCache
}

// QueryContext runs q with args in the transaction, through the prepared
// statement of q when the cache holds one.
func (t readTx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if t.stmts != nil {
		if st := t.stmts.get(q); st != nil {
			t.stmts.reused.Add(1)
			return t.Tx.StmtContext(ctx, st).QueryContext(ctx, args...)
		}
	}
	return t.Tx.QueryContext(ctx, q, args...)
}

// read runs f in a read transaction with the statement cache (readTx),
// then, with the transaction's connection back in the pool, prepares the
// statements f ran unprepared (prepareWanted): never inside the
// transaction, where an in-memory database's one connection is taken.
func (b *Backend) read(ctx context.Context, f func(readTx) error) error {
	tx, err := b.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	err = f(readTx{tx, &b.stmts})
	tx.Rollback()
	b.stmts.prepareWanted(ctx, b.db)
	return err
}
