// Package cases keeps the cases of case-based reuse for one knowledge
// base, in SQLite beside it: a case is a query, the plan its search ran,
// its outcome (the evidence found, which steps found it, how often reusing
// it helped or failed) and the snapshot and rules it ran under. The rules
// (rules/cases/reuse.pl, planner.ChooseCase) decide which case to reuse;
// this package only stores, retrieves candidates, revises and retains,
// bounded with eviction.
package cases

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/internal/sqlitefile"
	"github.com/rlm-dev/rlm/planner"
)

// DefaultMaxCases bounds a store when Options leaves it zero.
const DefaultMaxCases = 1024

// MaxCandidates bounds the candidates Retrieve returns.
const MaxCandidates = 8

// MaxUsedEvidence bounds Case.UsedEvidence.
const MaxUsedEvidence = 16

// ErrNotFound: no case has that ID.
var ErrNotFound = errors.New("cases: no such case")

// Case is one kept case.
type Case struct {
	ID    int64
	Key   string // the retrieval key (see Key)
	Query string
	Class string
	Plan  []planner.ExecutedStep // the steps its search ran, with their hits
	Hits  int
	// Resolved is the name the answer was about instead of the query's.
	Resolved *planner.Resolution
	Uses     int // reuses that found evidence (revised as used)
	Failures int // reuses that found nothing, or whose evidence was rejected
	// Cited counts the answers that cited this case's evidence, Ignored
	// those that were given it and cited none of it (ReviseEvidence).
	Cited   int
	Ignored int
	// UsedEvidence are the locations ("path:line") of the evidence
	// answers cited, each once, the newest last, at most MaxUsedEvidence.
	UsedEvidence []string
	Snapshot     string
	RulesVersion string
	Created      time.Time
	Used         time.Time
}

// Candidate is c as the rules see it.
func (c Case) Candidate() planner.CaseCandidate {
	return planner.CaseCandidate{ID: c.ID, Query: c.Query, Class: c.Class, Plan: c.Plan, Hits: c.Hits, Resolved: c.Resolved,
		Uses: c.Uses, Failures: c.Failures, Cited: c.Cited, Ignored: c.Ignored}
}

// Options configure Open.
type Options struct {
	Max int              // cases kept (0: DefaultMaxCases)
	Now func() time.Time // the clock (nil: time.Now)
}

// Store keeps cases. Safe for concurrent use.
type Store struct {
	db  *sql.DB
	max int
	now func() time.Time
	mu  sync.Mutex
}

// Open opens (creating it if needed) the case store at path.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	db, err := sqlitefile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cases: open %s: %w", path, err)
	}
	s := &Store{db: db, max: opts.Max, now: opts.Now}
	if s.max <= 0 {
		s.max = DefaultMaxCases
	}
	if s.now == nil {
		s.now = time.Now
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS cases (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		key TEXT NOT NULL UNIQUE,
		query TEXT NOT NULL,
		class TEXT NOT NULL,
		plan TEXT NOT NULL,
		hits INTEGER NOT NULL,
		resolved TEXT NOT NULL,
		uses INTEGER NOT NULL DEFAULT 0,
		failures INTEGER NOT NULL DEFAULT 0,
		snapshot TEXT NOT NULL,
		rules_version TEXT NOT NULL,
		created INTEGER NOT NULL,
		used INTEGER NOT NULL,
		cited INTEGER NOT NULL DEFAULT 0,
		ignored INTEGER NOT NULL DEFAULT 0,
		used_evidence TEXT NOT NULL DEFAULT '[]')`); err != nil {
		db.Close()
		return nil, fmt.Errorf("cases: open %s: %w", path, err)
	}
	// A store written before the evidence columns gains them.
	if err := sqlitefile.AddColumns(ctx, db, "cases", evidenceColumns); err != nil {
		db.Close()
		return nil, fmt.Errorf("cases: open %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

const columns = `id, key, query, class, plan, hits, resolved, uses, failures, snapshot, rules_version, created, used,
	cited, ignored, used_evidence`

// evidenceColumns are the columns a store gained for ReviseEvidence.
var evidenceColumns = []sqlitefile.Column{{Name: "cited", Decl: "INTEGER NOT NULL DEFAULT 0"},
	{Name: "ignored", Decl: "INTEGER NOT NULL DEFAULT 0"}, {Name: "used_evidence", Decl: "TEXT NOT NULL DEFAULT '[]'"}}

func scan(rows *sql.Rows) (Case, error) {
	var c Case
	var plan, res, ev string
	var created, used int64
	if err := rows.Scan(&c.ID, &c.Key, &c.Query, &c.Class, &plan, &c.Hits, &res, &c.Uses, &c.Failures, &c.Snapshot, &c.RulesVersion,
		&created, &used, &c.Cited, &c.Ignored, &ev); err != nil {
		return c, err
	}
	if err := json.Unmarshal([]byte(ev), &c.UsedEvidence); err != nil {
		return c, fmt.Errorf("case %d: %w", c.ID, err)
	}
	if err := json.Unmarshal([]byte(plan), &c.Plan); err != nil {
		return c, fmt.Errorf("case %d: %w", c.ID, err)
	}
	if err := json.Unmarshal([]byte(res), &c.Resolved); err != nil {
		return c, fmt.Errorf("case %d: %w", c.ID, err)
	}
	c.Created, c.Used = time.Unix(0, created), time.Unix(0, used)
	return c, nil
}

// Retrieve returns the candidates for key (Key's form), the most recently
// used first, at most MaxCandidates. A case of other rules (rulesVersion)
// is not a candidate.
func (s *Store) Retrieve(ctx context.Context, key, rulesVersion string) ([]Case, error) {
	return s.query(ctx, `SELECT `+columns+` FROM cases WHERE key = ? AND rules_version = ? ORDER BY used DESC LIMIT ?`,
		key, rulesVersion, MaxCandidates)
}

// List returns every case, the oldest first.
func (s *Store) List(ctx context.Context) ([]Case, error) {
	return s.query(ctx, `SELECT `+columns+` FROM cases ORDER BY id`)
}

// query returns the cases a SELECT of columns finds.
func (s *Store) query(ctx context.Context, q string, args ...any) ([]Case, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("cases: %w", err)
	}
	defer rows.Close()
	var out []Case
	for rows.Next() {
		c, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("cases: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Retain keeps c under its key (a case already kept under the key is
// replaced, its counts reset) and evicts over the bound: the cases whose
// reuses failed more than they helped first, then the least recently
// used. It returns the case's ID.
func (s *Store) Retain(ctx context.Context, c Case) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	plan, err := json.Marshal(c.Plan)
	if err != nil {
		return 0, fmt.Errorf("cases: %w", err)
	}
	res, err := json.Marshal(c.Resolved)
	if err != nil {
		return 0, fmt.Errorf("cases: %w", err)
	}
	now := s.now().UnixNano()
	var id int64
	err = s.db.QueryRowContext(ctx, `INSERT INTO cases (key, query, class, plan, hits, resolved, snapshot, rules_version, created, used)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET query = excluded.query, class = excluded.class, plan = excluded.plan, hits = excluded.hits,
		resolved = excluded.resolved, uses = 0, failures = 0, cited = 0, ignored = 0, used_evidence = '[]', snapshot = excluded.snapshot, rules_version = excluded.rules_version,
		created = excluded.created, used = excluded.used
		RETURNING id`, c.Key, c.Query, c.Class, string(plan), c.Hits, string(res), c.Snapshot, c.RulesVersion, now, now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("cases: retain: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM cases WHERE id IN (
		SELECT id FROM cases ORDER BY (failures > uses) DESC, used ASC
		LIMIT max(0, (SELECT COUNT(*) FROM cases) - ?))`, s.max); err != nil {
		return 0, fmt.Errorf("cases: evict: %w", err)
	}
	return id, nil
}

// Revise records the outcome of reusing case id: used (the reuse found
// evidence that was used) or not (it found nothing, or its evidence was
// rejected downstream). Error: one wrapping ErrNotFound.
func (s *Store) Revise(ctx context.Context, id int64, used bool) error {
	col := "failures"
	if used {
		col = "uses"
	}
	r, err := s.db.ExecContext(ctx, `UPDATE cases SET `+col+` = `+col+` + 1, used = ? WHERE id = ?`, s.now().UnixNano(), id)
	if err != nil {
		return fmt.Errorf("cases: revise: %w", err)
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %d", ErrNotFound, id)
	}
	return nil
}

// Evidence is what became of a case's evidence in one answer downstream
// (the completion loop's citations): Used are the locations
// ("path:line") of the evidence the answer cited, Unused those it was
// given and did not cite.
type Evidence struct {
	Used, Unused []string
}

// ReviseEvidence records what became of case id's evidence in one
// answer: cited (Used not empty: Cited counts one and the locations join
// UsedEvidence, each once, the newest last, at most MaxUsedEvidence) or
// given and not cited (only Unused: Ignored counts one). Evidence with
// neither changes nothing. Error: one wrapping ErrNotFound.
func (s *Store) ReviseEvidence(ctx context.Context, id int64, ev Evidence) error {
	if len(ev.Used) == 0 && len(ev.Unused) == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var old string
	err := s.db.QueryRowContext(ctx, `SELECT used_evidence FROM cases WHERE id = ?`, id).Scan(&old)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %d", ErrNotFound, id)
	}
	if err != nil {
		return fmt.Errorf("cases: revise evidence: %w", err)
	}
	var used []string
	if err := json.Unmarshal([]byte(old), &used); err != nil {
		return fmt.Errorf("cases: case %d: %w", id, err)
	}
	col := "ignored"
	if len(ev.Used) > 0 {
		col = "cited"
		for _, loc := range ev.Used {
			used = append(slices.DeleteFunc(used, func(u string) bool { return u == loc }), loc)
		}
		used = used[max(0, len(used)-MaxUsedEvidence):]
	}
	js, err := json.Marshal(used)
	if err != nil {
		return fmt.Errorf("cases: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE cases SET `+col+` = `+col+` + 1, used_evidence = ? WHERE id = ?`, string(js), id); err != nil {
		return fmt.Errorf("cases: revise evidence: %w", err)
	}
	return nil
}

// Key is the retrieval key of a query of class: the class, its
// identifiers' names and content words lowercased, sorted and each once,
// and its constraints. Queries about the same names in other words ("what
// calls servehttp", "who calls ServeHttp?") share a key; the rules judge
// whether a candidate is similar enough.
func Key(class, query string) string {
	f := bridge.QueryFeatures(query)
	var words []string
	for _, id := range f.Idents {
		words = append(words, strings.ToLower(id.Name))
	}
	for _, w := range f.ContentWords {
		words = append(words, strings.ToLower(w))
	}
	slices.Sort(words)
	var cs []string
	for _, c := range f.Constraints {
		cs = append(cs, c.Kind+"="+c.Value)
	}
	slices.Sort(cs)
	return class + "|" + strings.Join(slices.Compact(words), " ") + "|" + strings.Join(cs, " ")
}
