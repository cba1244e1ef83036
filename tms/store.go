package tms

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/rlm-dev/rlm/internal/sqlitefile"
)

// DefaultMaxConclusions bounds a store when Options leaves it zero.
const DefaultMaxConclusions = 4096

// Limits of a conclusion, checked by Justify.
const (
	MaxKeyBytes     = 4 << 10
	MaxPremises     = 256
	MaxAntecedents  = 64
	MaxValueBytes   = 4 << 20
	MaxTerms        = 32
	maxMentioning   = 16
	schemaVersion   = 1
	metaSchemaKey   = "schema"
	unknownEnvLabel = "unknown"
)

// Options configure Open.
type Options struct {
	// Rules are the label rules; nil loads the defaults (NewRules with
	// zero RulesOptions).
	Rules *Rules
	// MaxConclusions bounds the store (0: DefaultMaxConclusions). When
	// Justify goes over it, the least recently used conclusions are
	// evicted, OUT ones first, each with its dependants.
	MaxConclusions int
	// Now is the clock (nil: time.Now), for tests of eviction order.
	Now func() time.Time
}

// Store keeps the conclusions of one knowledge base with their
// justifications and labels, in a SQLite file beside it, and relabels them
// with the rules when the environment (the snapshot, the embedder, the
// rules) changes. All records are also held in memory (the store is
// bounded). Safe for concurrent use.
type Store struct {
	db    *sql.DB
	rules *Rules
	max   int
	now   func() time.Time

	mu     sync.Mutex
	closed bool
	recs   map[string]*entry
	seq    int64
	env    *envState // the last synced environment; nil before the first Sync
	envs   map[string]map[string]string
	// relabelled counts the conclusions Sync and WhatIf handed the rules.
	relabelled int64
}

// entry is a record with its bookkeeping.
type entry struct {
	Record
	seq     int64
	obs     string // digest of the observations the label was computed from
	derived int64  // unix nanoseconds
	used    int64
}

// Open opens (creating it if needed) the store at path. Errors: the
// database's, or *engine.LoadError when Options.Rules is nil and the
// default rules fail to load.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	r := opts.Rules
	if r == nil {
		var err error
		if r, err = NewRules(RulesOptions{}); err != nil {
			return nil, err
		}
	}
	s := &Store{rules: r, max: opts.MaxConclusions, now: opts.Now, recs: map[string]*entry{}, envs: map[string]map[string]string{}}
	if s.max <= 0 {
		s.max = DefaultMaxConclusions
	}
	if s.now == nil {
		s.now = time.Now
	}
	db, err := sqlitefile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tms: open %s: %w", path, err)
	}
	s.db = db
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("tms: open %s: %w", path, err)
	}
	return s, nil
}

func (s *Store) init(ctx context.Context) error {
	for _, q := range []string{
		`CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS conclusions (
			seq INTEGER PRIMARY KEY,
			id TEXT NOT NULL UNIQUE,
			key TEXT NOT NULL,
			kind TEXT NOT NULL,
			title TEXT NOT NULL,
			label TEXT NOT NULL,
			because TEXT NOT NULL,
			action TEXT NOT NULL,
			action_because TEXT NOT NULL,
			premises TEXT NOT NULL,
			antecedents TEXT NOT NULL,
			value BLOB,
			obs TEXT NOT NULL,
			derivations INTEGER NOT NULL,
			derived INTEGER NOT NULL,
			used INTEGER NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS envs (fp TEXT NOT NULL, path TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (fp, path)) WITHOUT ROWID`,
	} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	var v string
	switch err := s.db.QueryRowContext(ctx, `SELECT v FROM meta WHERE k = ?`, metaSchemaKey).Scan(&v); {
	case err == sql.ErrNoRows:
		if _, err := s.db.ExecContext(ctx, `INSERT INTO meta (k, v) VALUES (?, ?)`, metaSchemaKey, strconv.Itoa(schemaVersion)); err != nil {
			return err
		}
	case err != nil:
		return err
	case v != strconv.Itoa(schemaVersion):
		return fmt.Errorf("schema version %s, this build knows %d", v, schemaVersion)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, id, key, kind, title, label, because, action, action_because,
		premises, antecedents, value, obs, derivations, derived, used FROM conclusions ORDER BY seq`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		e := &entry{}
		var why, awhy, prem, ante string
		if err := rows.Scan(&e.seq, &e.ID, &e.Key, &e.Kind, &e.Title, &e.Label, &why, &e.Action, &awhy,
			&prem, &ante, &e.Value, &e.obs, &e.Derivations, &e.derived, &e.used); err != nil {
			return err
		}
		for _, x := range []struct {
			text string
			into any
		}{{why, &e.Because}, {awhy, &e.ActionWhy}, {prem, &e.Premises}, {ante, &e.Antecedents}} {
			if err := json.Unmarshal([]byte(x.text), x.into); err != nil {
				return fmt.Errorf("conclusion %s: %w", e.ID, err)
			}
		}
		s.recs[e.ID] = e
		s.seq = max(s.seq, e.seq)
	}
	return rows.Err()
}

// Close closes the database. Further calls return ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.db.Close()
}

// Relabelled is how many conclusions Sync and WhatIf have handed the
// rules since Open: only those whose observations changed, and their
// dependants, are.
func (s *Store) Relabelled() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.relabelled
}

// ready reports ErrClosed, or ErrNoEnvironment before the first Sync. The
// caller holds s.mu.
func (s *Store) ready() error {
	if s.closed {
		return ErrClosed
	}
	if s.env == nil {
		return ErrNoEnvironment
	}
	return nil
}

// Rules returns the store's label rules.
func (s *Store) Rules() *Rules { return s.rules }

// check validates c before it is kept.
func (s *Store) check(c Conclusion) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadConclusion, fmt.Sprintf(format, args...))
	}
	switch {
	case c.Key == "" || len(c.Key) > MaxKeyBytes:
		return bad("the key must be 1..%d bytes", MaxKeyBytes)
	case !slices.Contains(Kinds(), c.Kind):
		return bad("unknown kind %q", c.Kind)
	case len(c.Premises) > MaxPremises || len(c.Antecedents) > MaxAntecedents:
		return bad("over %d premises or %d antecedents", MaxPremises, MaxAntecedents)
	case len(c.Value) > MaxValueBytes:
		return bad("value over %d bytes", MaxValueBytes)
	}
	for _, p := range c.Premises {
		switch p.Kind {
		case PremiseSource:
			if p.Path == "" || p.Hash == "" {
				return bad("a source premise needs a path and a hash")
			}
		case PremiseRule, PremiseEmbedder, PremiseRulesVersion:
		case PremiseElsewhere:
			if len(p.Terms) > MaxTerms || len(p.Terms) == 0 && !p.AnyChange {
				return bad("an elsewhere premise needs 1..%d terms, or AnyChange", MaxTerms)
			}
		default:
			return bad("unknown premise kind %q", p.Kind)
		}
	}
	for _, a := range c.Antecedents {
		if _, ok := s.recs[a]; !ok {
			return bad("antecedent %q is not kept", a)
		}
	}
	return nil
}

// conclusionID is Key#digest of the justification: one record per
// justification of a key.
func conclusionID(c Conclusion) string {
	d := xxhash.New()
	d.WriteString(string(c.Kind))
	for _, p := range c.Premises {
		b, _ := json.Marshal(p)
		d.Write(b)
	}
	for _, a := range c.Antecedents {
		d.WriteString("\x00" + a)
	}
	return fmt.Sprintf("%s#%012x", c.Key, d.Sum64()&0xffffffffffff)
}

// Justify keeps c, labelled by the rules against the last synced
// environment (normally IN; OUT if a premise already fails, e.g. a hit
// read from bytes that changed since), and returns its record. Justifying
// the same key with the same justification again updates its value and
// counts a derivation. Errors: ErrNoEnvironment before the first Sync,
// ErrBadConclusion (wrapped), ErrClosed, the rules' or the database's.
func (s *Store) Justify(ctx context.Context, c Conclusion) (Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ready(); err != nil {
		return Record{}, err
	}
	if err := s.check(c); err != nil {
		return Record{}, err
	}
	c.Premises = slices.Clone(c.Premises)
	for i := range c.Premises {
		if c.Premises[i].Kind == PremiseElsewhere {
			c.Premises[i].Env = s.env.fp
		}
	}
	if err := s.keepEnv(ctx, s.env, c.Premises); err != nil {
		return Record{}, err
	}
	id := conclusionID(c)
	now := s.now().UnixNano()
	e, ok := s.recs[id]
	if !ok {
		s.seq++
		e = &entry{seq: s.seq, Record: Record{ID: id, Key: c.Key, Kind: c.Kind, Label: In, Premises: c.Premises,
			Antecedents: slices.Clone(c.Antecedents)}}
	}
	e.Title, e.Value, e.derived, e.used = c.Title, slices.Clone(c.Value), now, now
	e.Derivations++
	n := s.observe(ctx, s.env, e)
	ds, err := s.rules.decide(ctx, []node{n.node}, s.heldLabel)
	if err != nil {
		return Record{}, err
	}
	e.Label, e.Because, e.Action, e.ActionWhy, e.obs = ds[0].label, ds[0].why, ds[0].action, ds[0].actionWhy, n.digest
	if err := s.write(ctx, []*entry{e}, nil); err != nil {
		return Record{}, err
	}
	s.recs[id] = e
	if err := s.evict(ctx, id); err != nil {
		return Record{}, err
	}
	return e.copy(), nil
}

func (e *entry) copy() Record {
	r := e.Record
	r.Premises = slices.Clone(r.Premises)
	r.Antecedents = slices.Clone(r.Antecedents)
	r.Value = slices.Clone(r.Value)
	return r
}

// heldLabel is the stored label of a conclusion outside a batch; a
// conclusion no longer kept counts as OUT.
func (s *Store) heldLabel(id string) Label {
	if e, ok := s.recs[id]; ok {
		return e.Label
	}
	return Out
}

// write saves entries and deletes the IDs in gone, in one transaction.
func (s *Store) write(ctx context.Context, es []*entry, gone []string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("tms: %w", err)
	}
	defer tx.Rollback()
	for _, e := range es {
		why, _ := json.Marshal(e.Because)
		awhy, _ := json.Marshal(e.ActionWhy)
		prem, _ := json.Marshal(e.Premises)
		ante, _ := json.Marshal(e.Antecedents)
		if _, err := tx.ExecContext(ctx, `INSERT INTO conclusions (seq, id, key, kind, title, label, because, action, action_because,
			premises, antecedents, value, obs, derivations, derived, used) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET title = excluded.title, label = excluded.label, because = excluded.because,
			action = excluded.action, action_because = excluded.action_because, value = excluded.value, obs = excluded.obs,
			derivations = excluded.derivations, derived = excluded.derived, used = excluded.used`,
			e.seq, e.ID, e.Key, string(e.Kind), e.Title, string(e.Label), string(why), string(e.Action), string(awhy),
			string(prem), string(ante), e.Value, e.obs, e.Derivations, e.derived, e.used); err != nil {
			return fmt.Errorf("tms: save %s: %w", e.ID, err)
		}
	}
	for _, id := range gone {
		if _, err := tx.ExecContext(ctx, `DELETE FROM conclusions WHERE id = ?`, id); err != nil {
			return fmt.Errorf("tms: delete %s: %w", id, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("tms: %w", err)
	}
	return nil
}

// dependants maps each ID to the IDs of the conclusions that name it as
// an antecedent.
func (s *Store) dependants() map[string][]string {
	deps := map[string][]string{}
	for _, e := range s.recs {
		for _, a := range e.Antecedents {
			deps[a] = append(deps[a], e.ID)
		}
	}
	return deps
}

// closure is ids with all their transitive dependants.
func (s *Store) closure(ids []string) map[string]bool {
	deps := s.dependants()
	seen := map[string]bool{}
	for len(ids) > 0 {
		id := ids[len(ids)-1]
		ids = ids[:len(ids)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		ids = append(ids, deps[id]...)
	}
	return seen
}

// evict removes conclusions (each with its dependants) until the store is
// within its bound: OUT before IN, least recently used first; keep is
// never evicted.
func (s *Store) evict(ctx context.Context, keep string) error {
	if len(s.recs) <= s.max {
		return nil
	}
	order := s.sorted(func(a, b *entry) int {
		if (a.Label == Out) != (b.Label == Out) {
			if a.Label == Out {
				return -1
			}
			return 1
		}
		return int(a.used - b.used)
	})
	var gone []string
	for _, e := range order {
		if len(s.recs) <= s.max {
			break
		}
		if _, ok := s.recs[e.ID]; !ok || e.ID == keep {
			continue
		}
		vs := s.closure([]string{e.ID})
		if vs[keep] {
			continue
		}
		for id := range vs {
			delete(s.recs, id)
			gone = append(gone, id)
		}
	}
	return s.write(ctx, nil, gone)
}

// sorted is the entries in the order cmp gives (seq order when nil).
func (s *Store) sorted(cmp func(a, b *entry) int) []*entry {
	es := make([]*entry, 0, len(s.recs))
	for _, e := range s.recs {
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b *entry) int {
		if cmp != nil {
			if c := cmp(a, b); c != 0 {
				return c
			}
		}
		return int(a.seq - b.seq)
	})
	return es
}

// Get returns the conclusion with ID id, or an error wrapping ErrNotFound.
func (s *Store) Get(ctx context.Context, id string) (Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.recs[id]
	if !ok {
		return Record{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return e.copy(), nil
}

// Lookup returns the conclusions kept for key: IN ones first, then the
// most recently derived first.
func (s *Store) Lookup(ctx context.Context, key string) []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	var es []*entry
	for _, e := range s.recs {
		if e.Key == key {
			es = append(es, e)
		}
	}
	slices.SortFunc(es, func(a, b *entry) int {
		if (a.Label == In) != (b.Label == In) {
			if a.Label == In {
				return -1
			}
			return 1
		}
		return int(b.derived - a.derived)
	})
	out := make([]Record, len(es))
	for i, e := range es {
		out[i] = e.copy()
	}
	return out
}

// List returns every kept conclusion, oldest first.
func (s *Store) List(ctx context.Context) []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	es := s.sorted(nil)
	out := make([]Record, len(es))
	for i, e := range es {
		out[i] = e.copy()
	}
	return out
}

// Len is the number of kept conclusions.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.recs)
}

// Touch marks a conclusion used now (eviction keeps recently used ones).
func (s *Store) Touch(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.recs[id]
	if !ok {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	e.used = s.now().UnixNano()
	_, err := s.db.ExecContext(ctx, `UPDATE conclusions SET used = ? WHERE id = ?`, e.used, id)
	return err
}

// Forget removes every conclusion whose key starts with prefix, with its
// dependants, and returns how many went.
func (s *Store) Forget(ctx context.Context, prefix string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for id, e := range s.recs {
		if strings.HasPrefix(e.Key, prefix) {
			ids = append(ids, id)
		}
	}
	var gone []string
	for id := range s.closure(ids) {
		delete(s.recs, id)
		gone = append(gone, id)
	}
	return len(gone), s.write(ctx, nil, gone)
}
