// Package sqlitefile opens a SQLite database file with modernc.org/sqlite
// (the driver the knowledge base uses) in WAL mode, for the small stores
// beside a knowledge base (truth maintenance, cases).
package sqlitefile

import (
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
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("sqlitefile: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String(), nil
}
