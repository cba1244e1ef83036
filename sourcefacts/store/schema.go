package store

import (
	"context"
	"database/sql"
	"fmt"
)

// SchemaVersion is the database schema this build writes, stored in PRAGMA
// user_version. Open migrates older databases up to it, in one transaction,
// and refuses newer ones with *SchemaError.
const SchemaVersion = 6

// migrations[i] takes a database from version i to i+1. Append only: never
// edit a migration that has shipped.
var migrations = []func(ctx context.Context, tx *sql.Tx) error{
	migrate1, // files, facts, generations
	migrate2, // dirty journal
	migrate3, // skipped files, language decisions
	migrate4, // settings that outlive one command (the size cap)
	migrate5, // roles of files and symbols (source, test, example)
	migrate6, // how each call was resolved
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
	return tx.Commit()
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
