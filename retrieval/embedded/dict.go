package embedded

import (
	"context"
	"database/sql"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"
	"github.com/rlm-dev/rlm/retrieval"
)

// The dictionaries: vals holds the strings that repeat across documents
// (content hashes, parsers, metadata JSON), ref_names the (name, kind,
// via, scope, type) of refs; rows refer to them by id. Entries are only ever added, so
// an id, once committed, names its value for good: the Backend keeps the
// committed ones in memory (dicts), and a transaction keeps those it adds
// apart (interner) until it commits.

// refName is a ref_names entry.
type refName struct{ name, kind, via, scope, typ string }

// dicts is the committed dictionary entries a Backend has seen.
type dicts struct {
	mu    sync.Mutex
	vals  map[string]int64
	names map[refName]int64
}

// interner resolves dictionary ids inside one write transaction.
type interner struct {
	d     *dicts
	tx    *sql.Tx
	vals  map[string]int64 // looked up or added in this transaction
	names map[refName]int64
	stmts map[string]*sql.Stmt
}

func (b *Backend) interner(tx *sql.Tx) *interner {
	return &interner{d: &b.dicts, tx: tx, vals: map[string]int64{}, names: map[refName]int64{}, stmts: map[string]*sql.Stmt{}}
}

// commit makes the transaction's entries known to the Backend; call it
// once the transaction committed.
func (in *interner) commit() {
	in.d.mu.Lock()
	defer in.d.mu.Unlock()
	if in.d.vals == nil {
		in.d.vals, in.d.names = map[string]int64{}, map[refName]int64{}
	}
	for v, id := range in.vals {
		in.d.vals[v] = id
	}
	for n, id := range in.names {
		in.d.names[n] = id
	}
}

// close releases the prepared statements.
func (in *interner) close() {
	for _, st := range in.stmts {
		st.Close()
	}
}

func (in *interner) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := in.stmts[q]; ok {
		return st, nil
	}
	st, err := in.tx.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	in.stmts[q] = st
	return st, nil
}

// lookupOrAdd returns the id of the row that find (a SELECT of id) finds
// with args, adding it with add (an INSERT) if there is none.
func (in *interner) lookupOrAdd(ctx context.Context, find, add string, args ...any) (int64, error) {
	st, err := in.stmt(ctx, find)
	if err != nil {
		return 0, err
	}
	var id int64
	switch err := st.QueryRowContext(ctx, args...).Scan(&id); err {
	case nil:
		return id, nil
	case sql.ErrNoRows:
	default:
		return 0, err
	}
	if st, err = in.stmt(ctx, add); err != nil {
		return 0, err
	}
	res, err := st.ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// val is the vals id of v.
func (in *interner) val(ctx context.Context, v string) (int64, error) {
	if id, ok := in.vals[v]; ok {
		return id, nil
	}
	in.d.mu.Lock()
	id, ok := in.d.vals[v]
	in.d.mu.Unlock()
	if !ok {
		var err error
		if id, err = in.lookupOrAdd(ctx, "SELECT id FROM vals WHERE v = ?", "INSERT INTO vals (v) VALUES (?)", v); err != nil {
			return 0, err
		}
	}
	in.vals[v] = id
	return id, nil
}

// name is the ref_names id of ref's name, kind, via, scope and type.
func (in *interner) name(ctx context.Context, ref retrieval.Ref) (int64, error) {
	k := refName{ref.Name, ref.Kind, ref.Via, ref.Scope, ref.Type}
	if id, ok := in.names[k]; ok {
		return id, nil
	}
	in.d.mu.Lock()
	id, ok := in.d.names[k]
	in.d.mu.Unlock()
	if !ok {
		var err error
		if id, err = in.lookupOrAdd(ctx, "SELECT id FROM ref_names WHERE name = ? AND kind = ? AND via = ? AND scope = ? AND type = ?",
			"INSERT INTO ref_names (name, kind, via, scope, type) VALUES (?, ?, ?, ?, ?)", k.name, k.kind, k.via, k.scope, k.typ); err != nil {
			return 0, err
		}
	}
	in.names[k] = id
	return id, nil
}

// idHash is the docs.id_hash of a document id.
func idHash(id string) int64 { return int64(xxhash.Sum64String(id)) }

// storedFold is what docs stores as the fold of name: nil when SQLite's
// lower() (ASCII only) gives strings.ToLower(name), else that.
func storedFold(name string) any {
	fold := strings.ToLower(name)
	if fold == asciiLower(name) {
		return nil
	}
	return fold
}

// asciiLower is name with the bytes A-Z lowered and every other byte as
// it is, as SQLite's lower() does without ICU.
func asciiLower(name string) string {
	b := []byte(name)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
