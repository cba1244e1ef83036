package planner_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// exactCounter counts the exact look-ups (the lexicon's questions) made
// through it.
type exactCounter struct {
	retrieval.Backend
	exact atomic.Int64
}

func (c *exactCounter) Search(ctx context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	if req.Strategy == retrieval.Exact && req.Limit == 1 {
		c.exact.Add(1)
	}
	return c.Backend.Search(ctx, req)
}

// Run of a plan from PlanFor (or PlanTabled) against the same backend
// judges with the features PlanFor computed: the backend's lexicon is
// asked once per query, not again by Run; a changed query or another
// backend is asked afresh, and the answer is the one Search gives.
func TestRunReusesTheFeaturesItsPlanWasMadeWith(t *testing.T) {
	ctx := context.Background()
	pl := mustPlanner(t, planner.Options{})
	const query = "where is handler defined and what calls serve"
	err := sample(t).View(func(b retrieval.Backend, _ store.Identity) error {
		cb := &exactCounter{Backend: b}
		want, err := pl.Search(ctx, &exactCounter{Backend: b}, query, 10)
		if err != nil {
			return err
		}
		plan, err := pl.PlanFor(ctx, cb, query)
		if err != nil {
			return err
		}
		planned := cb.exact.Load()
		if planned == 0 {
			t.Fatalf("PlanFor asked no exact look-ups for %q: the test needs a query with names to look up", query)
		}
		lookups := func() int64 { // exact look-ups Run makes that are not steps
			n := cb.exact.Load() - planned
			planned = cb.exact.Load()
			return n
		}
		const stepLookups = 0 // steps ask with the answer's limit (10), not 1
		got, err := pl.Run(ctx, cb, plan, 10)
		if err != nil {
			return err
		}
		if n := lookups(); n > stepLookups {
			t.Errorf("Run after PlanFor made %d exact look-ups of limit 1, want %d: the lexicon was asked again", n, stepLookups)
		}
		if diff := cmp.Diff(want.Hits, got.Hits); diff != "" {
			t.Errorf("PlanFor+Run hits differ from Search's (-want +got):\n%s", diff)
		}

		other := &exactCounter{Backend: b}
		if _, err := pl.Run(ctx, other, plan, 10); err != nil {
			return err
		}
		if other.exact.Load() <= stepLookups {
			t.Errorf("Run against another backend made %d exact look-ups: it reused features computed against the first", other.exact.Load())
		}
		plan.Query = "where is mux defined"
		if _, err := pl.Run(ctx, cb, plan, 10); err != nil {
			return err
		}
		if n := lookups(); n <= stepLookups {
			t.Errorf("Run of a plan whose query changed made %d exact look-ups: it reused the old query's features", n)
		}

		tab := planner.NewTable(0)
		tp, _, err := pl.PlanTabled(ctx, tab, cb, "g1", query)
		if err != nil {
			return err
		}
		lookups()
		if _, err := pl.Run(ctx, cb, tp, 10); err != nil {
			return err
		}
		if n := lookups(); n > stepLookups {
			t.Errorf("Run after PlanTabled made %d exact look-ups: the lexicon was asked again", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
