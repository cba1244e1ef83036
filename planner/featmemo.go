package planner

import (
	"reflect"
	"runtime"
	"sync"
	"weak"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/retrieval"
)

// featureMemo keeps the feature term PlanFor (or PlanTabled) computed for
// a plan, so that Run of the same plan against the same backend judges
// with it instead of asking the backend's lexicon again (up to
// bridge.MaxLexiconLookups exact searches). Entries are keyed by a weak
// pointer to the plan and removed when the plan is collected; an entry
// is used only while the plan's query is unchanged and the backend is
// the same value.
type featureMemo struct {
	mu sync.Mutex
	m  map[weak.Pointer[Plan]]memoEntry
}

type memoEntry struct {
	query    string
	backend  retrieval.Backend
	features engine.Term
}

// put records features for plan, computed for plan.Query against b.
func (f *featureMemo) put(plan *Plan, b retrieval.Backend, features engine.Term) {
	k := weak.Make(plan)
	f.mu.Lock()
	if f.m == nil {
		f.m = map[weak.Pointer[Plan]]memoEntry{}
	}
	_, had := f.m[k]
	f.m[k] = memoEntry{query: plan.Query, backend: b, features: features}
	f.mu.Unlock()
	if !had {
		runtime.AddCleanup(plan, f.drop, k)
	}
}

func (f *featureMemo) drop(k weak.Pointer[Plan]) {
	f.mu.Lock()
	delete(f.m, k)
	f.mu.Unlock()
}

// get returns the features recorded for plan if its query is unchanged
// and b is the backend they were computed against.
func (f *featureMemo) get(plan *Plan, b retrieval.Backend) (engine.Term, bool) {
	f.mu.Lock()
	e, ok := f.m[weak.Make(plan)]
	f.mu.Unlock()
	if !ok || e.query != plan.Query || !sameBackend(e.backend, b) {
		return nil, false
	}
	return e.features, true
}

// sameBackend reports whether a and b are the same backend value (false
// for values of a type == cannot compare).
func sameBackend(a, b retrieval.Backend) bool {
	if a == nil || b == nil {
		return false
	}
	ta := reflect.TypeOf(a)
	return ta == reflect.TypeOf(b) && ta.Comparable() && a == b
}
