package tms

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/rlm-dev/rlm/engine"
)

// Environment is what the premises are checked against: the snapshot's
// files, the embedder, the rules.
type Environment struct {
	// Snapshot names the snapshot for people (e.g. store.Identity's
	// String).
	Snapshot string
	// Files maps each file of the snapshot (slash path relative to the
	// root) to its content hash and generation.
	Files map[string]FileVersion
	// Embedder is the embedder's identity ("" for none).
	Embedder string
	// RulesVersion is the rules' version hash.
	RulesVersion string
	// RuleIDs are the registered rule IDs; nil means unknown (rule
	// premises are then not checked).
	RuleIDs []string
	// Read returns the current bytes of a file of the snapshot, for
	// elsewhere premises (does a changed file mention a question's
	// terms?). nil, or an error, counts the file as mentioning them.
	Read func(ctx context.Context, path string) ([]byte, error)
}

// envState is an Environment prepared for observing premises, with the
// caches of one Sync.
type envState struct {
	Environment
	fp      string
	rules   map[string]bool
	diffs   map[string][]string // derivation env fp -> paths changed since
	lowered map[string][]byte   // path -> lowercased current bytes (nil: unreadable)
}

func newEnvState(env Environment) *envState {
	st := &envState{Environment: env, diffs: map[string][]string{}, lowered: map[string][]byte{}}
	if env.RuleIDs != nil {
		st.rules = map[string]bool{}
		for _, id := range env.RuleIDs {
			st.rules[id] = true
		}
	}
	d := xxhash.New()
	for _, p := range slices.Sorted(maps.Keys(env.Files)) {
		d.WriteString(p + "\x00" + env.Files[p].Hash + "\x00")
	}
	st.fp = fmt.Sprintf("%016x", d.Sum64())
	return st
}

// keepEnv stores st's file map under its fingerprint if premises hold an
// elsewhere premise (which is checked against the snapshot it was derived
// in) and it is not stored yet.
func (s *Store) keepEnv(ctx context.Context, st *envState, premises []Premise) error {
	if !slices.ContainsFunc(premises, func(p Premise) bool { return p.Kind == PremiseElsewhere }) {
		return nil
	}
	if _, ok := s.envs[st.fp]; ok {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("tms: %w", err)
	}
	defer tx.Rollback()
	files := make(map[string]string, len(st.Files))
	for p, v := range st.Files {
		files[p] = v.Hash
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO envs (fp, path, hash) VALUES (?, ?, ?)`, st.fp, p, v.Hash); err != nil {
			return fmt.Errorf("tms: save snapshot: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("tms: save snapshot: %w", err)
	}
	s.envs[st.fp] = files
	return nil
}

// envFiles returns the file map stored under fp (nil if none).
func (s *Store) envFiles(ctx context.Context, fp string) map[string]string {
	if m, ok := s.envs[fp]; ok {
		return m
	}
	rows, err := s.db.QueryContext(ctx, `SELECT path, hash FROM envs WHERE fp = ?`, fp)
	if err != nil {
		return nil
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var p, h string
		if rows.Scan(&p, &h) != nil {
			return nil
		}
		m[p] = h
	}
	if rows.Err() != nil || len(m) == 0 {
		return nil
	}
	s.envs[fp] = m
	return m
}

// dropUnusedEnvs deletes stored snapshots no elsewhere premise names.
func (s *Store) dropUnusedEnvs(ctx context.Context) error {
	used := map[string]bool{}
	for _, e := range s.recs {
		for _, p := range e.Premises {
			if p.Kind == PremiseElsewhere {
				used[p.Env] = true
			}
		}
	}
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT fp FROM envs`)
	if err != nil {
		return fmt.Errorf("tms: %w", err)
	}
	var drop []string
	for rows.Next() {
		var fp string
		if err := rows.Scan(&fp); err != nil {
			rows.Close()
			return fmt.Errorf("tms: %w", err)
		}
		if !used[fp] {
			drop = append(drop, fp)
		}
	}
	rows.Close()
	for _, fp := range drop {
		if _, err := s.db.ExecContext(ctx, `DELETE FROM envs WHERE fp = ?`, fp); err != nil {
			return fmt.Errorf("tms: %w", err)
		}
		delete(s.envs, fp)
	}
	return nil
}

// changedSince lists the paths whose hash differs between the snapshot
// stored under fp and st's (added, removed or edited), sorted; ok is
// false when that snapshot is not stored.
func (s *Store) changedSince(ctx context.Context, st *envState, fp string) ([]string, bool) {
	if d, ok := st.diffs[fp]; ok {
		return d, d != nil
	}
	old := s.envFiles(ctx, fp)
	if old == nil {
		st.diffs[fp] = nil
		return nil, false
	}
	out := []string{}
	for p, h := range old {
		if v, ok := st.Files[p]; !ok || v.Hash != h {
			out = append(out, p)
		}
	}
	for p := range st.Files {
		if _, ok := old[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	st.diffs[fp] = out
	return out, true
}

// mentions reports whether the current bytes of path contain one of
// terms (lowercase), case-insensitively; an unreadable file counts as
// mentioning them.
func (st *envState) mentions(ctx context.Context, path string, terms []string) bool {
	low, seen := st.lowered[path]
	if !seen {
		if st.Read != nil {
			if b, err := st.Read(ctx, path); err == nil {
				low = bytes.ToLower(b)
			}
		}
		st.lowered[path] = low
	}
	if low == nil {
		return true
	}
	for _, t := range terms {
		if t != "" && bytes.Contains(low, []byte(strings.ToLower(t))) {
			return true
		}
	}
	return false
}

// observed is a node for the rules and the digest of its observations.
type observed struct {
	node
	digest string
}

// observe pairs each premise of e with what st shows of it, as
// premise(P, Observation) terms, and digests the observations.
func (s *Store) observe(ctx context.Context, st *envState, e *entry) observed {
	d := xxhash.New()
	obs := make([]engine.Term, 0, len(e.Premises))
	own := map[string]bool{}
	for _, p := range e.Premises {
		if p.Kind == PremiseSource {
			own[p.Path] = true
		}
	}
	for _, p := range e.Premises {
		var pt, ot engine.Term
		switch p.Kind {
		case PremiseSource:
			pt = engine.Compound("source", engine.String(p.Path), engine.String(p.Hash), engine.Int(p.Generation))
			if v, ok := st.Files[p.Path]; ok {
				ot = engine.Compound("current", engine.String(v.Hash), engine.Int(v.Generation))
				fmt.Fprintf(d, "s%q=%q/%d;", p.Path, v.Hash, v.Generation)
			} else {
				ot = engine.Atom("absent")
				fmt.Fprintf(d, "s%q=absent;", p.Path)
			}
		case PremiseRule:
			pt = engine.Compound("rule", engine.String(p.Value))
			o := "unknown"
			if st.rules != nil {
				o = "unregistered"
				if st.rules[p.Value] {
					o = "registered"
				}
			}
			ot = engine.Atom(o)
			fmt.Fprintf(d, "r%q=%s;", p.Value, o)
		case PremiseEmbedder, PremiseRulesVersion:
			v := st.Embedder
			if p.Kind == PremiseRulesVersion {
				v = st.RulesVersion
			}
			pt = engine.Compound(string(p.Kind), engine.String(p.Value))
			ot = engine.Compound("current", engine.String(v))
			fmt.Fprintf(d, "%s=%q;", p.Kind, v)
		case PremiseElsewhere:
			pt = engine.Compound("elsewhere", engine.Atom("any"))
			if !p.AnyChange {
				pt = engine.Compound("elsewhere", engine.Strings(p.Terms))
			}
			changed, ok := s.changedSince(ctx, st, p.Env)
			if !ok {
				ot = engine.Atom(unknownEnvLabel)
				fmt.Fprintf(d, "e=%s;", unknownEnvLabel)
				break
			}
			n := 0
			var mentioning []string
			for _, path := range changed {
				if own[path] {
					continue
				}
				n++
				if _, present := st.Files[path]; !p.AnyChange && present && len(mentioning) < maxMentioning && st.mentions(ctx, path, p.Terms) {
					mentioning = append(mentioning, path)
				}
			}
			ot = engine.Compound("changed", engine.Int(int64(n)), engine.Strings(mentioning))
			fmt.Fprintf(d, "e%d%q;", n, mentioning)
		}
		obs = append(obs, engine.Compound("premise", pt, ot))
	}
	return observed{node: node{rec: &e.Record, obs: obs, ante: e.Antecedents}, digest: fmt.Sprintf("%016x", d.Sum64())}
}

// relabel observes every conclusion under st, hands the rules those whose
// observations changed since they were last labelled (with all their
// dependants, antecedents first) and returns the entries with their new
// decisions, in seq order. Nothing is stored.
func (s *Store) relabel(ctx context.Context, st *envState) ([]*entry, []observed, []decision, error) {
	all := s.sorted(nil)
	obs := make(map[string]observed, len(all))
	var changed []string
	for _, e := range all {
		o := s.observe(ctx, st, e)
		obs[e.ID] = o
		if o.digest != e.obs {
			changed = append(changed, e.ID)
		}
	}
	todo := s.closure(changed)
	var es []*entry
	var nodes []node
	var obsv []observed
	for _, e := range all {
		if todo[e.ID] {
			es = append(es, e)
			nodes = append(nodes, obs[e.ID].node)
			obsv = append(obsv, obs[e.ID])
		}
	}
	s.relabelled += int64(len(nodes))
	ds, err := s.rules.decide(ctx, nodes, s.heldLabel)
	if err != nil {
		return nil, nil, nil, err
	}
	return es, obsv, ds, nil
}

// Sync makes env the store's environment and relabels: the conclusions
// whose premises' observations changed, and their dependants
// transitively, are labelled again by the rules. It returns the label
// changes, oldest conclusion first. A conclusion whose label changes
// records the rules' action (withdraw, rederive, restore); one whose
// label stays keeps the action of its last change.
func (s *Store) Sync(ctx context.Context, env Environment) ([]Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	st := newEnvState(env)
	es, obsv, ds, err := s.relabel(ctx, st)
	if err != nil {
		return nil, err
	}
	var changes []Change
	updated := make([]*entry, len(es))
	for i, e := range es {
		u := *e
		d := ds[i]
		if d.label != e.Label {
			changes = append(changes, Change{ID: e.ID, Key: e.Key, Kind: e.Kind, Title: e.Title, From: e.Label, To: d.label,
				Because: d.why, Action: d.action, ActionWhy: d.actionWhy})
			u.Action, u.ActionWhy = d.action, d.actionWhy
		}
		u.Label, u.Because, u.obs = d.label, d.why, obsv[i].digest
		updated[i] = &u
	}
	if err := s.write(ctx, updated, nil); err != nil {
		return nil, err
	}
	for _, u := range updated {
		s.recs[u.ID] = u
	}
	s.env = st
	if err := s.dropUnusedEnvs(ctx); err != nil {
		return changes, err
	}
	return changes, nil
}

// WhatIf returns the label changes Sync would make if each of paths
// changed (its bytes hashing to something new; a path not in the
// snapshot appearing), without changing anything: which conclusions would
// go OUT, and why. A changed file is taken to keep its words: it mentions
// a question's terms if its current bytes do (a new file: if it is
// unreadable, it counts as mentioning them). Errors: ErrNoEnvironment
// before the first Sync.
func (s *Store) WhatIf(ctx context.Context, paths ...string) ([]Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ready(); err != nil {
		return nil, err
	}
	env := s.env.Environment
	env.Files = maps.Clone(env.Files)
	for _, p := range paths {
		v := env.Files[p]
		env.Files[p] = FileVersion{Hash: "whatif:" + v.Hash, Generation: v.Generation + 1}
	}
	st := newEnvState(env)
	es, _, ds, err := s.relabel(ctx, st)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for i, e := range es {
		if d := ds[i]; d.label != e.Label {
			changes = append(changes, Change{ID: e.ID, Key: e.Key, Kind: e.Kind, Title: e.Title, From: e.Label, To: d.label,
				Because: d.why, Action: d.action, ActionWhy: d.actionWhy})
		}
	}
	return changes, nil
}

// Check labels the conclusion id afresh against the last synced
// environment (its antecedents as they are labelled) and returns it with
// that label, storing nothing: a cached conclusion is served only if
// Check says IN. Errors: ErrNotFound, ErrNoEnvironment.
func (s *Store) Check(ctx context.Context, id string) (Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ready(); err != nil {
		return Record{}, err
	}
	e, ok := s.recs[id]
	if !ok {
		return Record{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	o := s.observe(ctx, s.env, e)
	ds, err := s.rules.decide(ctx, []node{o.node}, s.heldLabel)
	if err != nil {
		return Record{}, err
	}
	r := e.copy()
	r.Label, r.Because = ds[0].label, ds[0].why
	return r, nil
}
