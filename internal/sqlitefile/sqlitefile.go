// Package sqlitefile opens a SQLite database file with modernc.org/sqlite
// (the driver the knowledge base uses) in WAL mode, for the small stores
// beside a knowledge base (truth maintenance, cases).
package sqlitefile

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// Open opens (creating it if needed) the database file at path: WAL
// journal, synchronous NORMAL, a 10 s busy timeout and BEGIN IMMEDIATE for
// write transactions. The path is escaped into a file: URI, so '?', '#'
// and '%' in it are not read as URI syntax.
func Open(path string) (*sql.DB, error) {
	dsn, err := DSN(path)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlitefile: %w", err)
	}
	db.SetMaxOpenConns(2)
	return db, nil
}

// DSN is the file: URI Open uses for path.
func DSN(path string) (string, error) {
	return dsn(path, "journal_mode(WAL)", "synchronous(NORMAL)")
}

// BuildDSN is a file: URI for a new database file at path that one
// writer fills and that is trusted only once it is closed, checked and
// synced by its caller (a search index built under a temporary name):
// no rollback journal or WAL (journal_mode OFF: a failed or interrupted
// write leaves the file damaged, and a ROLLBACK does not undo it — the
// caller discards the file), no syncs, and a page cache of cacheKiB.
// Open the file with DSN afterwards: that puts it back in WAL mode.
func BuildDSN(path string, cacheKiB int) (string, error) {
	return dsn(path, "journal_mode(OFF)", "synchronous(OFF)", fmt.Sprintf("cache_size(-%d)", cacheKiB))
}

func dsn(path string, pragmas ...string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("sqlitefile: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String(), nil
}

// Column is a column AddColumns adds: its name and its declaration (type
// and constraints, e.g. "INTEGER NOT NULL DEFAULT 0"). Both are SQL
// written by the caller as constants, never data.
type Column struct{ Name, Decl string }

// Execer is what AddColumns needs of a *sql.DB or *sql.Tx.
type Execer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// AddColumns adds to table the columns it lacks, for a database written
// by an older schema (ALTER TABLE ... ADD COLUMN, so a declaration needs a
// default).
func AddColumns(ctx context.Context, db Execer, table string, cols []Column) error {
	rows, err := db.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", table)
	if err != nil {
		return fmt.Errorf("sqlitefile: columns of %s: %w", table, err)
	}
	have := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return fmt.Errorf("sqlitefile: columns of %s: %w", table, err)
		}
		have[n] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sqlitefile: columns of %s: %w", table, err)
	}
	for _, c := range cols {
		if !have[c.Name] {
			if _, err := db.ExecContext(ctx, "ALTER TABLE "+table+" ADD COLUMN "+c.Name+" "+c.Decl); err != nil {
				return fmt.Errorf("sqlitefile: add column %s.%s: %w", table, c.Name, err)
			}
		}
	}
	return nil
}
