package project

import (
	"bytes"
	"compress/flate"
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
// planUpdate): every file's contribution (sourcefacts.FileScope), the
// contributions aggregated as a sourcefacts.ScopeTable, and the hashes of
// the lookups each file's resolution made. (The state a file's
// documents and contribution were made from is in its source version:
// versionState.) A new layout needs a new indexFormat.
//
//	scope_keys    id, key: scope keys and definition kinds ("kind " and
//	              the kind), numbered (never deleted)
//	scope_files   id, path, language, scope, imports (JSON), contrib (what
//	              its FileScope added: JSON, deflated), deps (the sorted
//	              hashes of its lookups, depHash, 4 bytes each)
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
	language TEXT NOT NULL,
	scope    TEXT NOT NULL,
	imports  TEXT NOT NULL,
	contrib  BLOB NOT NULL,
	deps     BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS scope_defs (
	scope INTEGER NOT NULL, type TEXT NOT NULL, name TEXT NOT NULL, file INTEGER NOT NULL,
	kind INTEGER NOT NULL, decl TEXT NOT NULL,
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
	deflate  *flate.Writer // reused: a new one allocates its whole state
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
// snapshot (see reset and finish), files of them.
func (s *scopeStore) complete(files int) (bool, error) {
	var done, n int
	err := s.tx.QueryRowContext(s.ctx, `SELECT (SELECT count(*) FROM scope_meta WHERE k = 'complete'), (SELECT count(*) FROM scope_files)`).Scan(&done, &n)
	return done == 1 && n == files, err
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

// kindKey starts the scope_keys key of a definition kind (no scope key
// starts so).
const kindKey = "kind "

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
		s.query(`SELECT f.path, k.key, d.decl FROM scope_defs d JOIN scope_files f ON f.id = d.file JOIN scope_keys k ON k.id = d.kind
			WHERE d.scope = ? AND d.type = ? AND d.name = ? ORDER BY f.path LIMIT 1`, []any{id, typ, name}, func(r *sql.Rows) error {
			a.ok = true
			err := r.Scan(&a.d.Path, &a.d.Kind, &a.d.Decl)
			a.d.Kind = strings.TrimPrefix(a.d.Kind, kindKey)
			return err
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

// contribution is what a file's FileScope added to the tables (its
// definitions, fields and entries), kept to take it away again and to see
// what an edit changed (sourcefacts.ScopeChanges).
type contribution struct {
	Defs    [][4]string        `json:"d,omitempty"` // type, name, kind, decl
	Fields  []contributedField `json:"f,omitempty"`
	Entries [][3]string        `json:"e,omitempty"` // kind, a, b
}

type contributedField struct {
	Index     int    `json:"i"`
	Container string `json:"c"`
	Qual      string `json:"q"`
	Name      string `json:"n"`
}

// encodeContribution is fs's contribution as deflated JSON.
func (s *scopeStore) encodeContribution(fs sourcefacts.FileScope) []byte {
	var c contribution
	for _, d := range fs.Defs {
		c.Defs = append(c.Defs, [4]string{d.Type, d.Name, d.Kind, d.Decl})
	}
	for _, f := range fs.Fields {
		c.Fields = append(c.Fields, contributedField{f.Index, f.Container, f.Qual, f.Name})
	}
	for _, e := range fs.Entries {
		c.Entries = append(c.Entries, [3]string{e.Kind, e.A, e.B})
	}
	var b bytes.Buffer
	if s.deflate == nil {
		s.deflate, _ = flate.NewWriter(&b, flate.DefaultCompression) // a valid level
	} else {
		s.deflate.Reset(&b)
	}
	json.NewEncoder(s.deflate).Encode(c) // strings and numbers always encode
	s.deflate.Close()                    // into memory: no error
	return b.Bytes()
}

// decodeContribution is the FileScope of file f whose contribution was
// encoded as b (the symbol indexes of its definitions are not kept).
func decodeContribution(f sourcefacts.ScopeFile, b []byte) (sourcefacts.FileScope, error) {
	var c contribution
	if err := json.NewDecoder(flate.NewReader(bytes.NewReader(b))).Decode(&c); err != nil {
		return sourcefacts.FileScope{}, fmt.Errorf("project: scope contribution of %s: %w", f.Path, err)
	}
	fs := sourcefacts.FileScope{ScopeFile: f}
	for _, d := range c.Defs {
		fs.Defs = append(fs.Defs, sourcefacts.ScopeDef{Type: d[0], Name: d[1], Kind: d[2], Decl: d[3]})
	}
	for _, x := range c.Fields {
		fs.Fields = append(fs.Fields, sourcefacts.ScopeField{Index: x.Index, Container: x.Container, Qual: x.Qual, Name: x.Name})
	}
	for _, e := range c.Entries {
		fs.Entries = append(fs.Entries, sourcefacts.ScopeEntry{Kind: e[0], A: e[1], B: e[2]})
	}
	return fs, nil
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

func encodeDeps(hs []int32) []byte {
	b := make([]byte, 4*len(hs))
	for i, h := range hs {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(h))
	}
	return b
}

func decodeDeps(b []byte) []int32 {
	out := make([]int32, len(b)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// depHash is the hash a lookup is kept by: 32 bits of its Hash. Two
// lookups of one hash only make an update resolve a file it need not
// (a file is found by every hash of its lookups).
func depHash(k sourcefacts.ScopeKey) int32 { return int32(k.Hash()) }

// depHashes are the sorted hashes of keys, each once.
func depHashes(keys sourcefacts.ScopeKeys) []int32 {
	out := make([]int32, 0, len(keys))
	for k := range keys {
		out = append(out, depHash(k))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// storedFile is what the tables hold of a file: its id, contribution
// and lookups.
type storedFile struct {
	id    int64
	scope sourcefacts.FileScope
	deps  []int32
}

// stored is what the tables hold of the file at path; false if they do
// not hold it.
func (s *scopeStore) stored(path string) (storedFile, bool, error) {
	var f storedFile
	var imports string
	var contrib, deps []byte
	st, err := s.stmt(`SELECT id, language, scope, imports, contrib, deps FROM scope_files WHERE path = ?`)
	if err == nil {
		err = st.QueryRowContext(s.ctx, path).Scan(&f.id, &f.scope.Language, &f.scope.Scope, &imports, &contrib, &deps)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return storedFile{}, false, nil
	}
	if err != nil {
		return storedFile{}, false, err
	}
	f.scope.Path, f.scope.Imports, f.deps = path, decodeImports(imports), decodeDeps(deps)
	f.scope, err = decodeContribution(f.scope.ScopeFile, contrib)
	return f, err == nil, err
}

// pathOf is the path of file id.
func (s *scopeStore) pathOf(id int64) (string, error) {
	var p string
	st, err := s.stmt(`SELECT path FROM scope_files WHERE id = ?`)
	if err == nil {
		err = st.QueryRowContext(s.ctx, id).Scan(&p)
	}
	return p, err
}

// put brings file id's contribution from was (stored; nil: a new file,
// id 0) to now (nil: the file is gone, its row and lookups (deps) go
// too), writing only the rows that differ; it returns the file's id.
func (s *scopeStore) put(id int64, was, now *sourcefacts.FileScope, deps []int32) (int64, error) {
	clear(s.memo)
	var err error
	switch {
	case now == nil:
		if err := s.setDeps(id, deps, nil); err != nil {
			return 0, err
		}
		err = s.exec(`DELETE FROM scope_files WHERE id = ?`, id)
	case was == nil:
		var st *sql.Stmt
		var res sql.Result
		if st, err = s.stmt(`INSERT INTO scope_files (path, language, scope, imports, contrib, deps) VALUES (?, ?, ?, ?, ?, x'')`); err == nil {
			if res, err = st.ExecContext(s.ctx, now.Path, now.Language, now.Scope, encodeImports(now.Imports), s.encodeContribution(*now)); err == nil {
				id, err = res.LastInsertId()
			}
		}
	default:
		err = s.exec(`UPDATE scope_files SET language = ?, scope = ?, imports = ?, contrib = ? WHERE id = ?`,
			now.Language, now.Scope, encodeImports(now.Imports), s.encodeContribution(*now), id)
	}
	if err != nil {
		return 0, err
	}
	oldRows, newRows := s.rows(id, was), s.rows(id, now)
	for k, r := range oldRows {
		if n, ok := newRows[k]; !ok || !slices.Equal(n.args, r.args) {
			if err := s.exec(r.del, r.key...); err != nil {
				return 0, err
			}
		}
	}
	for k, r := range newRows {
		if o, ok := oldRows[k]; !ok || !slices.Equal(o.args, r.args) {
			if err := s.exec(r.ins, r.args...); err != nil {
				return 0, err
			}
		}
	}
	// Entries are counted: the difference of the two multisets.
	count := map[sourcefacts.ScopeEntry]int{}
	if was != nil {
		for _, e := range was.Entries {
			count[e]--
		}
	}
	if now != nil {
		for _, e := range now.Entries {
			count[e]++
		}
	}
	for e, n := range count {
		if n == 0 {
			continue
		}
		if err := s.exec(`INSERT INTO scope_entries (kind, a, b, n) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n`, e.Kind, e.A, e.B, n); err != nil {
			return 0, err
		}
		if n < 0 {
			if err := s.exec(`DELETE FROM scope_entries WHERE kind = ? AND a = ? AND b = ? AND n <= 0`, e.Kind, e.A, e.B); err != nil {
				return 0, err
			}
		}
	}
	return id, nil
}

// scopeRow is a row of scope_defs or scope_fields: how to insert it (ins,
// args) and to delete it (del, key).
type scopeRow struct {
	ins, del  string
	args, key []any
}

// rows are the definition and field rows file id's contribution fs holds,
// by their keys (nil fs: none). Errors of numbering keys are kept (fail).
func (s *scopeStore) rows(id int64, fs *sourcefacts.FileScope) map[string]scopeRow {
	out := map[string]scopeRow{}
	if fs == nil {
		return out
	}
	sid, err := s.scopeID(fs.Scope, true)
	s.fail(err)
	for _, d := range fs.Defs {
		kind, err := s.scopeID(kindKey+d.Kind, true)
		s.fail(err)
		out[fmt.Sprintf("d%q%q%q", fs.Scope, d.Type, d.Name)] = scopeRow{
			ins:  `INSERT INTO scope_defs (scope, type, name, file, kind, decl) VALUES (?, ?, ?, ?, ?, ?)`,
			args: []any{sid, d.Type, d.Name, id, kind, d.Decl},
			del:  `DELETE FROM scope_defs WHERE scope = ? AND type = ? AND name = ? AND file = ?`,
			key:  []any{sid, d.Type, d.Name, id},
		}
	}
	for _, f := range fs.Fields {
		out[fmt.Sprintf("f%q%q%d", fs.Scope, f.Container, f.Index)] = scopeRow{
			ins:  `INSERT INTO scope_fields (scope, type, file, idx, qual, name) VALUES (?, ?, ?, ?, ?, ?)`,
			args: []any{sid, f.Container, id, int64(f.Index), f.Qual, f.Name},
			del:  `DELETE FROM scope_fields WHERE scope = ? AND type = ? AND file = ? AND idx = ?`,
			key:  []any{sid, f.Container, id, int64(f.Index)},
		}
	}
	return out
}

// setDeps replaces file id's lookups old (stored) by now, both sorted.
func (s *scopeStore) setDeps(id int64, old, now []int32) error {
	for _, h := range old {
		if _, found := slices.BinarySearch(now, h); !found {
			if err := s.exec(`DELETE FROM scope_deps WHERE key = ? AND file = ?`, h, id); err != nil {
				return err
			}
		}
	}
	for _, h := range now {
		if _, found := slices.BinarySearch(old, h); !found {
			if err := s.exec(`INSERT INTO scope_deps (key, file) VALUES (?, ?)`, h, id); err != nil {
				return err
			}
		}
	}
	return s.exec(`UPDATE scope_files SET deps = ? WHERE id = ?`, encodeDeps(now), id)
}

// dependents are the ids of the files whose lookups include one of the
// keys hashed hs.
func (s *scopeStore) dependents(hs []int32) (map[int64]bool, error) {
	out := map[int64]bool{}
	st, err := s.stmt(`SELECT file FROM scope_deps WHERE key = ?`)
	if err != nil {
		return nil, err
	}
	for _, h := range hs {
		rows, err := st.QueryContext(s.ctx, h)
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
	done := map[string]bool{}
	for _, k := range keys {
		if k.Kind != 'o' || done[k.A] {
			continue
		}
		done[k.A] = true
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
