package project

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// The tree's scopes kept in a search index file, beside its documents
// and written in the same transactions (embedded.Writer.Tx), so that an
// update resolves again only the files an edit can change (see
// planUpdate): every file's contribution (sourcefacts.FileScope) and
// version, the contributions aggregated as a sourcefacts.ScopeTable, and
// the hashes of the lookups each file's resolution made.
//
//	scope_keys    id, key: the scope keys, numbered (never deleted)
//	scope_files   id, path, state (stateVersion), language, scope, imports
//	              (JSON), contrib (what its FileScope added, JSON), deps (the
//	              sorted hashes of its lookups, 8 bytes each)
//	scope_defs    the first definition of each (type, name) of each file,
//	              keyed (scope, type, name, file)
//	scope_fields  Go embedded fields, keyed (scope, type, file, idx)
//	scope_entries registrations counted, keyed (kind, a, b)
//	scope_deps    (key hash, file): who looked up what
//	scope_meta    the tree's root name, the learnt import offsets, and
//	              "complete" once the tables hold every file
const scopeSchema = `
CREATE TABLE IF NOT EXISTS scope_keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS scope_files (
	id       INTEGER PRIMARY KEY,
	path     TEXT NOT NULL UNIQUE,
	state    TEXT NOT NULL,
	language TEXT NOT NULL,
	scope    TEXT NOT NULL,
	imports  TEXT NOT NULL,
	contrib  TEXT NOT NULL,
	deps     BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS scope_defs (
	scope INTEGER NOT NULL, type TEXT NOT NULL, name TEXT NOT NULL, file INTEGER NOT NULL,
	kind TEXT NOT NULL, decl TEXT NOT NULL,
	PRIMARY KEY (scope, type, name, file)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scope_fields (
	scope INTEGER NOT NULL, type TEXT NOT NULL, file INTEGER NOT NULL, idx INTEGER NOT NULL,
	qual TEXT NOT NULL, name TEXT NOT NULL,
	PRIMARY KEY (scope, type, file, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scope_entries (
	kind TEXT NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL, n INTEGER NOT NULL,
	PRIMARY KEY (kind, a, b)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scope_deps (
	key INTEGER NOT NULL, file INTEGER NOT NULL,
	PRIMARY KEY (key, file)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scope_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID;
`

// scopeTables are the tables scopeSchema creates, emptied by reset.
var scopeTables = []string{"scope_keys", "scope_files", "scope_defs", "scope_fields", "scope_entries", "scope_deps", "scope_meta"}

// scopeStore is the scopes of a search index file, read and written
// through one transaction. It is a sourcefacts.ScopeTable: the first
// error of a lookup is kept (err) and the lookup answers nothing; callers
// check err after a batch of lookups. Lookups are cached until the next
// write (memo).
type scopeStore struct {
	ctx  context.Context
	tx   *sql.Tx
	err  error
	root string // the tree's root name (sourcefacts.RootBase)

	stmts    map[string]*sql.Stmt
	scopeIDs map[string]int64 // scope key -> id (0: none)
	offsets  map[string]sourcefacts.ImportOffset
	memo     map[sourcefacts.ScopeKey]any
}

// storedFile is a scope_files row: the file's id and state version.
type storedFile struct {
	id    int64
	state string
}

// openScopeStore creates the scope tables in tx if need be.
func openScopeStore(ctx context.Context, tx *sql.Tx) (*scopeStore, error) {
	if _, err := tx.ExecContext(ctx, scopeSchema); err != nil {
		return nil, fmt.Errorf("project: scope tables: %w", err)
	}
	s := &scopeStore{ctx: ctx, tx: tx, stmts: map[string]*sql.Stmt{}, scopeIDs: map[string]int64{},
		offsets: map[string]sourcefacts.ImportOffset{}, memo: map[sourcefacts.ScopeKey]any{}}
	rows, err := tx.QueryContext(ctx, `SELECT k, v FROM scope_meta`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		switch {
		case k == "root":
			s.root = v
		case strings.HasPrefix(k, "offset:"):
			var o sourcefacts.ImportOffset
			if err := json.Unmarshal([]byte(v), &o); err != nil {
				return nil, fmt.Errorf("project: scope offset %s: %w", k, err)
			}
			s.offsets[strings.TrimPrefix(k, "offset:")] = o
		}
	}
	return s, rows.Err()
}

// close releases the prepared statements.
func (s *scopeStore) close() {
	for _, st := range s.stmts {
		st.Close()
	}
}

// complete reports whether the tables hold every file of the index's
// snapshot (see reset and finish).
func (s *scopeStore) complete() (bool, error) {
	var n int
	err := s.tx.QueryRowContext(s.ctx, `SELECT count(*) FROM scope_meta WHERE k = 'complete'`).Scan(&n)
	return n == 1, err
}

// stmt is the prepared statement of q.
func (s *scopeStore) stmt(q string) (*sql.Stmt, error) {
	if st, ok := s.stmts[q]; ok {
		return st, nil
	}
	st, err := s.tx.PrepareContext(s.ctx, q)
	if err != nil {
		return nil, err
	}
	s.stmts[q] = st
	return st, nil
}

func (s *scopeStore) exec(q string, args ...any) error {
	st, err := s.stmt(q)
	if err == nil {
		_, err = st.ExecContext(s.ctx, args...)
	}
	return err
}

// fail keeps the first error of a lookup.
func (s *scopeStore) fail(err error) {
	if err != nil && s.err == nil {
		s.err = fmt.Errorf("project: scope lookup: %w", err)
	}
}

// query runs q and calls row for each row; errors are kept (fail).
func (s *scopeStore) query(q string, args []any, row func(*sql.Rows) error) {
	if s.err != nil {
		return
	}
	st, err := s.stmt(q)
	if err != nil {
		s.fail(err)
		return
	}
	rows, err := st.QueryContext(s.ctx, args...)
	if err != nil {
		s.fail(err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows); err != nil {
			s.fail(err)
			return
		}
	}
	s.fail(rows.Err())
}

// scopeID is the id of scope key k; 0 if it has none (and add is false).
func (s *scopeStore) scopeID(k string, add bool) (int64, error) {
	if id, ok := s.scopeIDs[k]; ok && (id != 0 || !add) {
		return id, nil
	}
	var id int64
	st, err := s.stmt(`SELECT id FROM scope_keys WHERE key = ?`)
	if err == nil {
		err = st.QueryRowContext(s.ctx, k).Scan(&id)
	}
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
		if add {
			var res sql.Result
			if st, err = s.stmt(`INSERT INTO scope_keys (key) VALUES (?)`); err == nil {
				if res, err = st.ExecContext(s.ctx, k); err == nil {
					id, err = res.LastInsertId()
				}
			}
		}
	}
	if err != nil {
		return 0, err
	}
	s.scopeIDs[k] = id
	return id, nil
}

// memoized answers lookup k from the cache or by compute.
func memoized[T any](s *scopeStore, k sourcefacts.ScopeKey, compute func() T) T {
	if v, ok := s.memo[k]; ok {
		return v.(T)
	}
	v := compute()
	if s.err == nil {
		s.memo[k] = v
	}
	return v
}

type defAnswer struct {
	d  sourcefacts.DefAt
	ok bool
}

// Def implements sourcefacts.ScopeTable.
func (s *scopeStore) Def(scope, typ, name string) (sourcefacts.DefAt, bool) {
	a := memoized(s, sourcefacts.ScopeKey{Kind: 'd', A: scope, B: typ, C: name}, func() defAnswer {
		id, err := s.scopeID(scope, false)
		if err != nil || id == 0 {
			s.fail(err)
			return defAnswer{}
		}
		var a defAnswer
		s.query(`SELECT f.path, d.kind, d.decl FROM scope_defs d JOIN scope_files f ON f.id = d.file
			WHERE d.scope = ? AND d.type = ? AND d.name = ? ORDER BY f.path LIMIT 1`, []any{id, typ, name}, func(r *sql.Rows) error {
			a.ok = true
			return r.Scan(&a.d.Path, &a.d.Kind, &a.d.Decl)
		})
		return a
	})
	return a.d, a.ok
}

type fileAnswer struct {
	f  sourcefacts.ScopeFile
	ok bool
}

// File implements sourcefacts.ScopeTable.
func (s *scopeStore) File(path string) (sourcefacts.ScopeFile, bool) {
	a := memoized(s, sourcefacts.ScopeKey{Kind: 'c', A: path}, func() fileAnswer {
		var a fileAnswer
		s.query(`SELECT language, scope, imports FROM scope_files WHERE path = ?`, []any{path}, func(r *sql.Rows) error {
			var imports string
			a.ok, a.f.Path = true, path
			if err := r.Scan(&a.f.Language, &a.f.Scope, &imports); err != nil {
				return err
			}
			a.f.Imports = decodeImports(imports)
			return nil
		})
		return a
	})
	return a.f, a.ok
}

// Fields implements sourcefacts.ScopeTable.
func (s *scopeStore) Fields(scope, typ string) []sourcefacts.FieldAt {
	return memoized(s, sourcefacts.ScopeKey{Kind: 'e', A: scope, B: typ}, func() []sourcefacts.FieldAt {
		id, err := s.scopeID(scope, false)
		if err != nil || id == 0 {
			s.fail(err)
			return nil
		}
		var out []sourcefacts.FieldAt
		s.query(`SELECT f.path, x.qual, x.name FROM scope_fields x JOIN scope_files f ON f.id = x.file
			WHERE x.scope = ? AND x.type = ? ORDER BY f.path, x.idx`, []any{id, typ}, func(r *sql.Rows) error {
			var fa sourcefacts.FieldAt
			err := r.Scan(&fa.Path, &fa.Qual, &fa.Name)
			out = append(out, fa)
			return err
		})
		return out
	})
}

// Entries implements sourcefacts.ScopeTable.
func (s *scopeStore) Entries(kind string) []sourcefacts.EntryCount {
	return memoized(s, sourcefacts.ScopeKey{Kind: 'E', A: kind}, func() []sourcefacts.EntryCount {
		var out []sourcefacts.EntryCount
		s.query(`SELECT a, b, n FROM scope_entries WHERE kind = ? ORDER BY a, b`, []any{kind}, func(r *sql.Rows) error {
			e := sourcefacts.EntryCount{ScopeEntry: sourcefacts.ScopeEntry{Kind: kind}}
			err := r.Scan(&e.A, &e.B, &e.N)
			out = append(out, e)
			return err
		})
		return out
	})
}

// EntriesAt implements sourcefacts.ScopeTable.
func (s *scopeStore) EntriesAt(kind, a string) []sourcefacts.EntryCount {
	return memoized(s, sourcefacts.ScopeKey{Kind: 'A', A: kind, B: a}, func() []sourcefacts.EntryCount {
		var out []sourcefacts.EntryCount
		s.query(`SELECT b, n FROM scope_entries WHERE kind = ? AND a = ? ORDER BY b`, []any{kind, a}, func(r *sql.Rows) error {
			e := sourcefacts.EntryCount{ScopeEntry: sourcefacts.ScopeEntry{Kind: kind, A: a}}
			err := r.Scan(&e.B, &e.N)
			out = append(out, e)
			return err
		})
		return out
	})
}

// Offset implements sourcefacts.ScopeTable.
func (s *scopeStore) Offset(lang string) sourcefacts.ImportOffset { return s.offsets[lang] }

// contribution is what a file's FileScope added to the tables, kept to
// take it away again (and to name the lookups it could change).
type contribution struct {
	Defs    [][2]string        `json:"d,omitempty"` // type, name
	Fields  []contributedField `json:"f,omitempty"`
	Entries [][3]string        `json:"e,omitempty"` // kind, a, b
}

type contributedField struct {
	Index     int    `json:"i"`
	Container string `json:"c"`
}

func contributionOf(fs sourcefacts.FileScope) contribution {
	var c contribution
	for _, d := range fs.Defs {
		c.Defs = append(c.Defs, [2]string{d.Type, d.Name})
	}
	for _, f := range fs.Fields {
		c.Fields = append(c.Fields, contributedField{f.Index, f.Container})
	}
	for _, e := range fs.Entries {
		c.Entries = append(c.Entries, [3]string{e.Kind, e.A, e.B})
	}
	return c
}

// scope is the FileScope c was made from, as far as ScopeCandidates and
// removal read it (not the kinds, declarations or qualifiers).
func (c contribution) scope(f sourcefacts.ScopeFile) sourcefacts.FileScope {
	fs := sourcefacts.FileScope{ScopeFile: f}
	for _, d := range c.Defs {
		fs.Defs = append(fs.Defs, sourcefacts.ScopeDef{Type: d[0], Name: d[1]})
	}
	for _, x := range c.Fields {
		fs.Fields = append(fs.Fields, sourcefacts.ScopeField{Index: x.Index, Container: x.Container})
	}
	for _, e := range c.Entries {
		fs.Entries = append(fs.Entries, sourcefacts.ScopeEntry{Kind: e[0], A: e[1], B: e[2]})
	}
	return fs
}

func encodeImports(ims []sourcefacts.Import) string {
	pairs := make([][2]string, len(ims))
	for i, im := range ims {
		pairs[i] = [2]string{im.Path, im.Alias}
	}
	b, _ := json.Marshal(pairs) // strings always encode
	return string(b)
}

func decodeImports(s string) []sourcefacts.Import {
	var pairs [][2]string
	json.Unmarshal([]byte(s), &pairs) // written by encodeImports
	var out []sourcefacts.Import
	for _, p := range pairs {
		out = append(out, sourcefacts.Import{Path: p[0], Alias: p[1]})
	}
	return out
}

func encodeDeps(hs []uint64) []byte {
	b := make([]byte, 8*len(hs))
	for i, h := range hs {
		binary.LittleEndian.PutUint64(b[8*i:], h)
	}
	return b
}

func decodeDeps(b []byte) []uint64 {
	out := make([]uint64, len(b)/8)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return out
}

// depHashes are the sorted hashes of keys.
func depHashes(keys sourcefacts.ScopeKeys) []uint64 {
	out := make([]uint64, 0, len(keys))
	for k := range keys {
		out = append(out, k.Hash())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// files lists the stored files: path -> id and state.
func (s *scopeStore) files() (map[string]storedFile, error) {
	out := map[string]storedFile{}
	rows, err := s.tx.QueryContext(s.ctx, `SELECT path, id, state FROM scope_files`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		var f storedFile
		if err := rows.Scan(&p, &f.id, &f.state); err != nil {
			return nil, err
		}
		out[p] = f
	}
	return out, rows.Err()
}

// stored is the FileScope file id contributed (see contribution.scope)
// and the hashes of its lookups.
func (s *scopeStore) stored(id int64) (sourcefacts.FileScope, []uint64, error) {
	var f sourcefacts.ScopeFile
	var imports, contrib string
	var deps []byte
	st, err := s.stmt(`SELECT path, language, scope, imports, contrib, deps FROM scope_files WHERE id = ?`)
	if err == nil {
		err = st.QueryRowContext(s.ctx, id).Scan(&f.Path, &f.Language, &f.Scope, &imports, &contrib, &deps)
	}
	if err != nil {
		return sourcefacts.FileScope{}, nil, err
	}
	f.Imports = decodeImports(imports)
	var c contribution
	if err := json.Unmarshal([]byte(contrib), &c); err != nil {
		return sourcefacts.FileScope{}, nil, fmt.Errorf("project: scope contribution of %s: %w", f.Path, err)
	}
	return c.scope(f), decodeDeps(deps), nil
}

// add stores file fs (of state version state) under id (0: a new file),
// its contribution added to the tables; it returns the id.
func (s *scopeStore) add(id int64, state string, fs sourcefacts.FileScope) (int64, error) {
	clear(s.memo)
	contrib, _ := json.Marshal(contributionOf(fs)) // strings and numbers always encode
	var err error
	if id == 0 {
		var st *sql.Stmt
		var res sql.Result
		if st, err = s.stmt(`INSERT INTO scope_files (path, state, language, scope, imports, contrib, deps) VALUES (?, ?, ?, ?, ?, ?, x'')`); err == nil {
			if res, err = st.ExecContext(s.ctx, fs.Path, state, fs.Language, fs.Scope, encodeImports(fs.Imports), string(contrib)); err == nil {
				id, err = res.LastInsertId()
			}
		}
	} else {
		err = s.exec(`UPDATE scope_files SET state = ?, language = ?, scope = ?, imports = ?, contrib = ? WHERE id = ?`,
			state, fs.Language, fs.Scope, encodeImports(fs.Imports), string(contrib), id)
	}
	if err != nil {
		return 0, err
	}
	sid, err := s.scopeID(fs.Scope, true)
	if err != nil {
		return 0, err
	}
	for _, d := range fs.Defs {
		if err := s.exec(`INSERT INTO scope_defs (scope, type, name, file, kind, decl) VALUES (?, ?, ?, ?, ?, ?)`, sid, d.Type, d.Name, id, d.Kind, d.Decl); err != nil {
			return 0, err
		}
	}
	for _, f := range fs.Fields {
		if err := s.exec(`INSERT INTO scope_fields (scope, type, file, idx, qual, name) VALUES (?, ?, ?, ?, ?, ?)`, sid, f.Container, id, f.Index, f.Qual, f.Name); err != nil {
			return 0, err
		}
	}
	for _, e := range fs.Entries {
		if err := s.exec(`INSERT INTO scope_entries (kind, a, b, n) VALUES (?, ?, ?, 1) ON CONFLICT DO UPDATE SET n = n + 1`, e.Kind, e.A, e.B); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// remove takes file id's contribution fs (stored) away from the tables;
// with forget, the file's row and lookups (deps) go too.
func (s *scopeStore) remove(id int64, fs sourcefacts.FileScope, deps []uint64, forget bool) error {
	clear(s.memo)
	sid, err := s.scopeID(fs.Scope, false)
	if err != nil {
		return err
	}
	for _, d := range fs.Defs {
		if err := s.exec(`DELETE FROM scope_defs WHERE scope = ? AND type = ? AND name = ? AND file = ?`, sid, d.Type, d.Name, id); err != nil {
			return err
		}
	}
	for _, f := range fs.Fields {
		if err := s.exec(`DELETE FROM scope_fields WHERE scope = ? AND type = ? AND file = ? AND idx = ?`, sid, f.Container, id, f.Index); err != nil {
			return err
		}
	}
	for _, e := range fs.Entries {
		if err := s.exec(`UPDATE scope_entries SET n = n - 1 WHERE kind = ? AND a = ? AND b = ?`, e.Kind, e.A, e.B); err != nil {
			return err
		}
	}
	if len(fs.Entries) > 0 {
		if err := s.exec(`DELETE FROM scope_entries WHERE n <= 0`); err != nil {
			return err
		}
	}
	if !forget {
		return nil
	}
	if err := s.setDeps(id, deps, nil); err != nil {
		return err
	}
	return s.exec(`DELETE FROM scope_files WHERE id = ?`, id)
}

// setDeps replaces file id's lookups old (stored) by now, both sorted.
func (s *scopeStore) setDeps(id int64, old, now []uint64) error {
	for _, h := range old {
		if _, found := slices.BinarySearch(now, h); !found {
			if err := s.exec(`DELETE FROM scope_deps WHERE key = ? AND file = ?`, int64(h), id); err != nil {
				return err
			}
		}
	}
	for _, h := range now {
		if _, found := slices.BinarySearch(old, h); !found {
			if err := s.exec(`INSERT INTO scope_deps (key, file) VALUES (?, ?)`, int64(h), id); err != nil {
				return err
			}
		}
	}
	return s.exec(`UPDATE scope_files SET deps = ? WHERE id = ?`, encodeDeps(now), id)
}

// dependents are the ids of the files whose lookups include one of the
// keys hashed hs.
func (s *scopeStore) dependents(hs []uint64) (map[int64]bool, error) {
	out := map[int64]bool{}
	st, err := s.stmt(`SELECT file FROM scope_deps WHERE key = ?`)
	if err != nil {
		return nil, err
	}
	for _, h := range hs {
		rows, err := st.QueryContext(s.ctx, int64(h))
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// learn recomputes the import offsets of the languages whose lookups
// keys name (sourcefacts.LearnOffset) and stores them.
func (s *scopeStore) learn(keys []sourcefacts.ScopeKey) error {
	for _, k := range keys {
		if k.Kind != 'o' {
			continue
		}
		clear(s.memo)
		o := sourcefacts.LearnOffset(s.root, k.A, s)
		if s.err != nil {
			return s.err
		}
		if err := s.setOffset(k.A, o); err != nil {
			return err
		}
	}
	return nil
}

func (s *scopeStore) setOffset(lang string, o sourcefacts.ImportOffset) error {
	s.offsets[lang] = o
	v, _ := json.Marshal(o)
	return s.exec(`INSERT OR REPLACE INTO scope_meta (k, v) VALUES (?, ?)`, "offset:"+lang, string(v))
}

// reset empties the tables for a whole rewrite of the tree rooted at root
// (its base name: sourcefacts.RootBase).
func (s *scopeStore) reset(root string) error {
	for _, t := range scopeTables {
		if _, err := s.tx.ExecContext(s.ctx, "DELETE FROM "+t); err != nil {
			return err
		}
	}
	clear(s.scopeIDs)
	clear(s.memo)
	clear(s.offsets)
	s.root = root
	return s.exec(`INSERT INTO scope_meta (k, v) VALUES ('root', ?)`, root)
}

// finish stores the offsets of t (the whole tree's, in memory) and marks
// the tables complete.
func (s *scopeStore) finish(t sourcefacts.ScopeTable) error {
	for _, lang := range []string{sourcefacts.LangGo, sourcefacts.LangPython} {
		if err := s.setOffset(lang, t.Offset(lang)); err != nil {
			return err
		}
	}
	return s.exec(`INSERT OR REPLACE INTO scope_meta (k, v) VALUES ('complete', '')`)
}

// values are the answers of the table to keys (sourcefacts.ScopeValue).
func (s *scopeStore) values(keys []sourcefacts.ScopeKey) (map[sourcefacts.ScopeKey]string, error) {
	clear(s.memo)
	out := make(map[sourcefacts.ScopeKey]string, len(keys))
	for _, k := range keys {
		out[k] = sourcefacts.ScopeValue(s, k)
	}
	return out, s.err
}
