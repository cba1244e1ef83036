package planner

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/retrieval"
)

// DefaultTableSize bounds a Table when NewTable is given 0.
const DefaultTableSize = 512

// Table memoizes the plans of one session (tabling): the plan for a
// feature term (bridge.QueryFeatures of the query, with the backend's
// strategies) on one snapshot identity is computed by the rules once and
// then served from the table. A plan asked for on another snapshot
// identity empties the table first, so nothing computed on one snapshot
// is served on another. At most its size plans are kept; a new plan over
// the bound empties the table. The table also keeps the snapshot's
// answers to the lexicon look-ups the features need
// (bridge.LexiconMemo), so a question asked again makes no look-up
// before its plan is found; they go with the snapshot too. Safe for
// concurrent use.
type Table struct {
	mu       sync.Mutex
	max      int
	snapshot string
	plans    map[string]*Plan
	lexicon  *bridge.LexiconMemo // the snapshot's look-up answers
	stats    TableStats
}

// TableStats count what a Table did.
type TableStats struct {
	Computed int64 // plans the rules made (misses)
	Reused   int64 // plans served from the table (hits)
	Emptied  int64 // times a new snapshot identity (or the bound) emptied it
}

// NewTable returns an empty table of at most size plans (0:
// DefaultTableSize).
func NewTable(size int) *Table {
	if size <= 0 {
		size = DefaultTableSize
	}
	return &Table{max: size, plans: map[string]*Plan{}, lexicon: bridge.NewLexiconMemo()}
}

// Stats returns the table's counts.
func (t *Table) Stats() TableStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stats
}

// PlanTabled is PlanFor through table t for the snapshot whose identity
// is snapshot (store.Identity's string form): the rules plan a feature
// term once per snapshot. It returns a plan the caller may change (a
// copy of the tabled one) and whether it came from the table. Errors: as
// PlanFor; an error is not tabled.
func (p *Planner) PlanTabled(ctx context.Context, t *Table, b retrieval.Backend, snapshot, query string) (*Plan, bool, error) {
	if err := checkQuery(query); err != nil {
		return nil, false, err
	}
	// As PlanFor: words b knows are names; the snapshot's answers come
	// from the table's memo.
	feats := bridge.QueryFeaturesIn(query, bridge.BackendLexiconMemo(ctx, b, t.lexiconFor(snapshot)))
	caps := b.Capabilities()
	key, err := json.Marshal(struct {
		F bridge.Features
		S []retrieval.Strategy
		E string
	}{feats, caps.Strategies, caps.Embedder})
	if err != nil {
		return nil, false, fmt.Errorf("planner: table key: %w", err)
	}
	term := feats.Term()
	if plan, ok := t.lookup(snapshot, string(key)); ok {
		plan.Query = query // the features of longer texts are of their first MaxFeatureBytes
		p.feats.put(plan, b, term)
		return plan, true, nil
	}
	plan, err := p.plan(ctx, query, term, caps)
	if err != nil {
		return nil, false, err
	}
	t.store(snapshot, string(key), plan)
	cp := clonePlan(plan)
	p.feats.put(cp, b, term)
	return cp, false, nil
}

// lexiconFor returns the memo of snapshot's look-up answers, emptying
// the table if it holds another snapshot's.
func (t *Table) lexiconFor(snapshot string) *bridge.LexiconMemo {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.snapshot != snapshot {
		t.empty(snapshot)
	}
	return t.lexicon
}

// lookup returns a copy of the plan tabled under key for snapshot,
// emptying the table if it holds another snapshot's plans.
func (t *Table) lookup(snapshot, key string) (*Plan, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.snapshot != snapshot {
		t.empty(snapshot)
	}
	plan, ok := t.plans[key]
	if !ok {
		return nil, false
	}
	t.stats.Reused++
	return clonePlan(plan), true
}

// store tables plan under key for snapshot (unless the snapshot moved on
// while the rules planned).
func (t *Table) store(snapshot, key string, plan *Plan) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stats.Computed++
	if t.snapshot != snapshot {
		return
	}
	if len(t.plans) >= t.max {
		t.empty(snapshot)
	}
	t.plans[key] = clonePlan(plan)
}

// empty drops every plan and tables for snapshot from now on; a new
// snapshot also gets a new look-up memo. The caller holds t.mu.
func (t *Table) empty(snapshot string) {
	if len(t.plans) > 0 {
		t.stats.Emptied++
	}
	if t.snapshot != snapshot {
		t.lexicon = bridge.NewLexiconMemo()
	}
	t.snapshot = snapshot
	clear(t.plans)
}

// clonePlan copies plan's fields and slices (steps and their explanations
// are values; their premises are read only).
func clonePlan(plan *Plan) *Plan {
	cp := *plan
	cp.Steps = slices.Clone(plan.Steps)
	cp.Because = slices.Clone(plan.Because)
	return &cp
}
