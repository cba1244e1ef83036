package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// SchemaVersion is the database schema this build writes, stored in PRAGMA
// user_version. Open migrates older databases up to it, in one transaction,
// and refuses newer ones with *SchemaError.
const SchemaVersion = 7

// migrations[i] takes a database from version i to i+1. Append only: never
// edit a migration that has shipped.
var migrations = []func(ctx context.Context, tx *sql.Tx) error{
	migrate1, // files, facts, generations
	migrate2, // dirty journal
	migrate3, // skipped files, language decisions
	migrate4, // settings that outlive one command (the size cap)
	migrate5, // roles of files and symbols (source, test, example)
	migrate6, // how each call was resolved
	migrate7, // facts one row per file (storedfacts.go)
}

// migrate brings the database to version want (≤ len(migrations)).
func migrate(ctx context.Context, db *sql.DB, path string, want int) error {
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (see dsn)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var have int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		return err
	}
	if have > want {
		return &SchemaError{Path: path, Have: have, Want: want}
	}
	if have == want {
		return nil
	}
	for v := have; v < want; v++ {
		if err := migrations[v](ctx, tx); err != nil {
			return fmt.Errorf("store: migrate schema %d→%d: %w", v, v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", want)); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if have > 0 && have < 7 && want >= 7 {
		// The fact tables migrate7 dropped left their pages free (most of
		// the file); give them back: VACUUM writes the smaller file into
		// the WAL, the checkpoint into the file. Either fails while
		// another connection reads: then the pages stay free for later
		// writes, and the next checkpoint shrinks the file.
		if _, err := db.ExecContext(ctx, "VACUUM"); err == nil {
			_, _ = db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
		}
	}
	return nil
}

func execAll(ctx context.Context, tx *sql.Tx, stmts ...string) error {
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%w\n%s", err, s)
		}
	}
	return nil
}

// migrate1 creates the registry, the facts and the generations.
//
// files: one row per path ever seen; id is assigned at first sight
// (AUTOINCREMENT: never reused) and kept across deletion and re-creation of
// the same path. present=0 means the file is gone in the current
// generation. hash is the XXH64 as a signed 64-bit integer (bit pattern),
// len its length in bytes. file_gen bumps when the hash changes, parse_gen
// at every extraction, published_gen is the project generation that last
// wrote the row. status is what readers see (current, partial, error, or
// stale while the file is dirty); extract_status is what extraction said.
// st_* cache the stat seen when the bytes were last hashed (st_size -1:
// none), st_checked the time (unix ns) just before that read.
//
// Facts tables: one row per fact, keyed by (file_id, idx), each with the
// file_gen it was extracted for. refs and imports have small rows and are
// WITHOUT ROWID (clustered on the key); symbols carry doc text and keep a
// rowid. Ranges: bytes 0-based end exclusive
// (sb, eb), lines 1-based (sl, el), columns 0-based bytes (sc, ec); n* is a
// symbol's name range.
func migrate1(ctx context.Context, tx *sql.Tx) error {
	if err := execAll(ctx, tx,
		`CREATE TABLE files (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			path TEXT NOT NULL UNIQUE,
			present INTEGER NOT NULL DEFAULT 0,
			hash INTEGER NOT NULL DEFAULT 0,
			len INTEGER NOT NULL DEFAULT 0,
			file_gen INTEGER NOT NULL DEFAULT 0,
			parse_gen INTEGER NOT NULL DEFAULT 0,
			published_gen INTEGER NOT NULL DEFAULT 0,
			parser TEXT NOT NULL DEFAULT '',
			grammar TEXT NOT NULL DEFAULT '',
			grammar_version TEXT NOT NULL DEFAULT '',
			extractor TEXT NOT NULL DEFAULT '',
			schema_version INTEGER NOT NULL DEFAULT 0,
			language TEXT NOT NULL DEFAULT '',
			test INTEGER NOT NULL DEFAULT 0,
			package TEXT NOT NULL DEFAULT '',
			status TEXT NOT NULL DEFAULT 'stale' CHECK (status IN ('current','stale','error','partial')),
			extract_status TEXT NOT NULL DEFAULT '',
			error TEXT NOT NULL DEFAULT '',
			st_size INTEGER NOT NULL DEFAULT -1,
			st_mtime INTEGER NOT NULL DEFAULT 0,
			st_ino INTEGER NOT NULL DEFAULT 0,
			st_checked INTEGER NOT NULL DEFAULT 0
		)`,
		`CREATE TABLE symbols (
			file_id INTEGER NOT NULL, idx INTEGER NOT NULL, file_gen INTEGER NOT NULL,
			name TEXT NOT NULL, kind TEXT NOT NULL, receiver TEXT NOT NULL, container TEXT NOT NULL,
			signature TEXT NOT NULL, doc TEXT NOT NULL,
			sb INTEGER, eb INTEGER, sl INTEGER, el INTEGER, sc INTEGER, ec INTEGER,
			nsb INTEGER, neb INTEGER, nsl INTEGER, nel INTEGER, nsc INTEGER, nec INTEGER,
			PRIMARY KEY (file_id, idx)
		)`,
		`CREATE INDEX symbols_name ON symbols(name)`,
		`CREATE TABLE refs (
			file_id INTEGER NOT NULL, idx INTEGER NOT NULL, file_gen INTEGER NOT NULL,
			name TEXT NOT NULL, kind TEXT NOT NULL, receiver TEXT NOT NULL, enclosing INTEGER NOT NULL,
			sb INTEGER, eb INTEGER, sl INTEGER, el INTEGER, sc INTEGER, ec INTEGER,
			PRIMARY KEY (file_id, idx)
		) WITHOUT ROWID`,
		`CREATE INDEX refs_name ON refs(name, kind)`,
		`CREATE TABLE imports (
			file_id INTEGER NOT NULL, idx INTEGER NOT NULL, file_gen INTEGER NOT NULL,
			path TEXT NOT NULL, alias TEXT NOT NULL,
			sb INTEGER, eb INTEGER, sl INTEGER, el INTEGER, sc INTEGER, ec INTEGER,
			PRIMARY KEY (file_id, idx)
		) WITHOUT ROWID`,
		`CREATE INDEX imports_path ON imports(path)`,
		`CREATE TABLE generations (
			gen INTEGER PRIMARY KEY,
			fingerprint INTEGER NOT NULL,
			files INTEGER NOT NULL,
			changed INTEGER NOT NULL,
			published_ns INTEGER NOT NULL
		)`,
		`CREATE TABLE current_generation (
			id INTEGER PRIMARY KEY CHECK (id = 1),
			gen INTEGER NOT NULL
		)`,
	); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO generations(gen, fingerprint, files, changed, published_ns) VALUES (0, ?, 0, 0, 0)`,
		int64(Fingerprint(nil))); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO current_generation(id, gen) VALUES (1, 0)`)
	return err
}

// migrate2 adds the dirty journal. dirty: one row per path written and not
// yet flushed (writes=0, last_seq=0: a write in progress or a bare mark).
// journal: the edits themselves, bounded by Options.JournalLimit.
func migrate2(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE dirty (
			path TEXT PRIMARY KEY,
			since_ns INTEGER NOT NULL,
			writes INTEGER NOT NULL,
			last_seq INTEGER NOT NULL
		)`,
		`CREATE TABLE journal (
			seq INTEGER PRIMARY KEY AUTOINCREMENT,
			path TEXT NOT NULL,
			at_ns INTEGER NOT NULL,
			kind TEXT NOT NULL,
			before_hash INTEGER NOT NULL, before_len INTEGER NOT NULL,
			after_hash INTEGER NOT NULL, after_len INTEGER NOT NULL,
			patch BLOB
		)`,
		`CREATE INDEX journal_path ON journal(path, seq)`,
	)
}

// migrate3 records why a file is skipped (skipped: the reason, e.g. "not
// ours: a Perl script", "too large: ..."; such a file's status is current:
// there are no facts to be stale) and how its language was decided
// (language_by, sourcefacts.Provenance.LanguageBy).
func migrate3(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`ALTER TABLE files ADD COLUMN skipped TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE files ADD COLUMN language_by TEXT NOT NULL DEFAULT ''`,
	)
}

// migrate4 keeps settings a knowledge base was built with, so that a later
// command without them keeps the same snapshot (key "max_file_bytes": the
// size cap given to the last command that set one).
func migrate4(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
	)
}

// migrate5 records roles (sourcefacts.RoleSource, RoleTest, RoleExample):
// files.role is the file's (sourcefacts.FileFacts.Role), symbols.role a
// definition's own where it differs from its file's (else empty;
// sourcefacts.Symbol.Role). Rows written before are empty: a file's role is
// then read from its test column (see FileState.Role), and the new
// ExtractorVersion extracts them again.
func migrate5(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`ALTER TABLE files ADD COLUMN role TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE symbols ADD COLUMN role TEXT NOT NULL DEFAULT ''`,
	)
}

// migrate6 records how each call reference was resolved from syntax
// (sourcefacts.Reference.Via, Module, Type, Path) and the type each
// definition's declaration writes (sourcefacts.Symbol.Type). Rows written
// before it have none (calls by name); the extractor version changed with
// it (sourcefacts.ExtractorVersion), so every file is extracted again at
// its next validation and its rows replaced.
func migrate6(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`ALTER TABLE refs ADD COLUMN via TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE refs ADD COLUMN module TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE refs ADD COLUMN type TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE refs ADD COLUMN path TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE symbols ADD COLUMN type TEXT NOT NULL DEFAULT ''`,
	)
}

// migrate7 moves the facts from one row per fact (symbols, refs, imports
// and their indexes) to one row per file (facts, see storedfacts.go):
// file_id, the file_gen the facts were extracted for, the numbers of
// symbols, refs and imports (Stats counts them without decoding), and
// data; facts_counts covers the counts, so Stats reads them without
// the rows. Every file's rows are kept as they were, in idx order; a file
// whose rows disagree on their file_gen gets -1, which no file has, so
// its facts read as ErrCorrupt as they did. Open vacuums the file after
// it (the old tables' pages are free).
func migrate7(ctx context.Context, tx *sql.Tx) error {
	if err := execAll(ctx, tx, `CREATE TABLE facts (
			file_id INTEGER PRIMARY KEY,
			file_gen INTEGER NOT NULL,
			symbols INTEGER NOT NULL,
			refs INTEGER NOT NULL,
			imports INTEGER NOT NULL,
			data BLOB NOT NULL
		)`,
		`CREATE INDEX facts_counts ON facts(symbols, refs, imports)`); err != nil {
		return err
	}
	var ids []int64
	rows, err := tx.QueryContext(ctx, `SELECT file_id FROM symbols UNION SELECT file_id FROM refs UNION SELECT file_id FROM imports ORDER BY 1`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO facts(file_id, file_gen, symbols, refs, imports, data) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, id := range ids {
		ff := &sourcefacts.FileFacts{}
		gen, seen := int64(0), false
		see := func(g int64) {
			if !seen {
				gen, seen = g, true
			} else if g != gen {
				gen = -1
			}
		}
		if ff.Symbols, err = oldFacts(ctx, tx, `SELECT file_gen, `+symbolCols("")+` FROM symbols WHERE file_id = ? ORDER BY idx`, id, see, symbolDest); err != nil {
			return err
		}
		if ff.References, err = oldFacts(ctx, tx, `SELECT file_gen, `+refCols("")+` FROM refs WHERE file_id = ? ORDER BY idx`, id, see, refDest); err != nil {
			return err
		}
		if ff.Imports, err = oldFacts(ctx, tx, `SELECT file_gen, `+importCols("")+` FROM imports WHERE file_id = ? ORDER BY idx`, id, see, importDest); err != nil {
			return err
		}
		// The path the facts belong to, as a publish packs it, so that a
		// reader can tell them from another file's (unpackInto).
		if err := tx.QueryRowContext(ctx, `SELECT path FROM files WHERE id = ?`, id).Scan(&ff.Provenance.Path); err != nil && err != sql.ErrNoRows {
			return err
		}
		p, err := packFacts(ff)
		if err != nil {
			return err
		}
		if _, err := ins.ExecContext(ctx, id, gen, len(ff.Symbols), len(ff.References), len(ff.Imports), storeFacts(p)); err != nil {
			return err
		}
	}
	return execAll(ctx, tx, `DROP TABLE symbols`, `DROP TABLE refs`, `DROP TABLE imports`)
}

// oldFacts reads one file's rows of a schema 6 fact table, passing each
// row's file_gen to see.
func oldFacts[T any](ctx context.Context, tx *sql.Tx, query string, id int64, see func(int64), dest func(*T) []any) ([]T, error) {
	rows, err := tx.QueryContext(ctx, query, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var gen int64
		var v T
		if err := rows.Scan(append([]any{&gen}, dest(&v)...)...); err != nil {
			return nil, err
		}
		see(gen)
		out = append(out, v)
	}
	return out, rows.Err()
}

// The columns of the schema 6 fact tables, as migrate7 reads them.

func prefixed(p, cols string) string {
	if p == "" {
		return cols
	}
	parts := strings.Split(cols, ", ")
	for i := range parts {
		parts[i] = p + "." + parts[i]
	}
	return strings.Join(parts, ", ")
}

func symbolCols(p string) string {
	return prefixed(p, "name, kind, receiver, container, signature, doc, sb, eb, sl, el, sc, ec, nsb, neb, nsl, nel, nsc, nec, role, type")
}

func symbolDest(y *sourcefacts.Symbol) []any {
	g, n := &y.Range, &y.NameRange
	return []any{&y.Name, &y.Kind, &y.Receiver, &y.Container, &y.Signature, &y.Doc,
		&g.StartByte, &g.EndByte, &g.StartLine, &g.EndLine, &g.StartCol, &g.EndCol,
		&n.StartByte, &n.EndByte, &n.StartLine, &n.EndLine, &n.StartCol, &n.EndCol, &y.Role, &y.Type}
}

func refCols(p string) string {
	return prefixed(p, "name, kind, receiver, enclosing, sb, eb, sl, el, sc, ec, via, module, type, path")
}

func refDest(r *sourcefacts.Reference) []any {
	g := &r.Range
	return []any{&r.Name, &r.Kind, &r.Receiver, &r.Enclosing,
		&g.StartByte, &g.EndByte, &g.StartLine, &g.EndLine, &g.StartCol, &g.EndCol, &r.Via, &r.Module, &r.Type, &r.Path}
}

func importCols(p string) string {
	return prefixed(p, "path, alias, sb, eb, sl, el, sc, ec")
}

func importDest(im *sourcefacts.Import) []any {
	g := &im.Range
	return []any{&im.Path, &im.Alias, &g.StartByte, &g.EndByte, &g.StartLine, &g.EndLine, &g.StartCol, &g.EndCol}
}
