package planner_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// TestATablePlansEachFeatureTermOncePerSnapshot: within a session the
// rules plan a feature term once per snapshot identity; the tabled plan is
// the plan PlanFor makes; another snapshot identity empties the table and
// plans again; changing a served plan changes nothing tabled.
func TestATablePlansEachFeatureTermOncePerSnapshot(t *testing.T) {
	ctx := context.Background()
	pl := mustPlanner(t, planner.Options{})
	const calls, retry = "what calls ServeHTTP?", "retry with backoff"
	steps := []struct {
		snapshot, query string
		fromTable       bool
		want            planner.TableStats
	}{
		{"g1", calls, false, planner.TableStats{Computed: 1}},
		{"g1", calls, true, planner.TableStats{Computed: 1, Reused: 1}},
		{"g1", retry, false, planner.TableStats{Computed: 2, Reused: 1}},
		{"g1", retry, true, planner.TableStats{Computed: 2, Reused: 2}},
		{"g2", calls, false, planner.TableStats{Computed: 3, Reused: 2, Emptied: 1}}, // a new snapshot plans again
		{"g2", calls, true, planner.TableStats{Computed: 3, Reused: 3, Emptied: 1}},
		{"g1", retry, false, planner.TableStats{Computed: 4, Reused: 3, Emptied: 2}}, // g1's plans went with g1
	}
	tab := planner.NewTable(0)
	err := sample(t).View(func(b retrieval.Backend, _ store.Identity) error {
		for i, s := range steps {
			got, hit, err := pl.PlanTabled(ctx, tab, b, s.snapshot, s.query)
			if err != nil {
				return err
			}
			want, err := pl.PlanFor(ctx, b, s.query)
			if err != nil {
				return err
			}
			if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(planner.Step{})); diff != "" {
				t.Errorf("step %d %q on %s: tabled plan differs from PlanFor's (-want +got):\n%s", i, s.query, s.snapshot, diff)
			}
			if hit != s.fromTable || tab.Stats() != s.want {
				t.Errorf("step %d %q on %s: from the table %v, stats %+v; want %v, %+v", i, s.query, s.snapshot, hit, tab.Stats(), s.fromTable, s.want)
			}
			got.Generation = 99 // the caller's copy
			got.Steps[0].Name, got.Steps[0].Text = "Changed", "changed"
			got.Because[0].Rule = "changed"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestATableStaysWithinItsBound: a table of one plan empties itself for a
// second feature term and still serves the plan PlanFor makes.
func TestATableStaysWithinItsBound(t *testing.T) {
	ctx := context.Background()
	pl := mustPlanner(t, planner.Options{})
	tab := planner.NewTable(1)
	err := sample(t).View(func(b retrieval.Backend, _ store.Identity) error {
		for _, q := range []string{"what calls ServeHTTP?", "retry with backoff", "retry with backoff", "what calls ServeHTTP?"} {
			if _, _, err := pl.PlanTabled(ctx, tab, b, "g1", q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tab.Stats(), (planner.TableStats{Computed: 3, Reused: 1, Emptied: 2}); got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
}

// TestAQuestionAskedAgainOnTheSameSnapshotAsksTheBackendNothing: the
// table keeps the snapshot's lexicon answers, so a question asked again
// finds its plan without a look-up, and another question asks only about
// the words no earlier one asked about; a new snapshot asks afresh, as
// many look-ups as a new table makes, and every plan is PlanFor's.
func TestAQuestionAskedAgainOnTheSameSnapshotAsksTheBackendNothing(t *testing.T) {
	ctx := context.Background()
	pl := mustPlanner(t, planner.Options{})
	const first = "where is handler defined and what calls serve"
	const second = "what calls serve" // its words were all asked about by first
	err := sample(t).View(func(b retrieval.Backend, _ store.Identity) error {
		fresh := func(query string) int64 { // look-ups a new table makes
			c := &exactCounter{Backend: b}
			if _, _, err := pl.PlanTabled(ctx, planner.NewTable(0), c, "g1", query); err != nil {
				t.Fatal(err)
			}
			return c.exact.Load()
		}
		t.Logf("look-ups of a new table: %q %d, %q %d", first, fresh(first), second, fresh(second))
		if fresh(first) == 0 || fresh(second) == 0 {
			t.Fatalf("%q or %q asks no look-ups: the test needs words to look up", first, second)
		}
		tab := planner.NewTable(0)
		steps := []struct {
			snapshot, query string
			want            int64
		}{
			{"g1", first, fresh(first)},
			{"g1", first, 0},
			{"g1", second, 0},
			{"g2", second, fresh(second)},
			{"g2", first, fresh(first) - fresh(second)},
		}
		for i, s := range steps {
			c := &exactCounter{Backend: b}
			got, _, err := pl.PlanTabled(ctx, tab, c, s.snapshot, s.query)
			if err != nil {
				return err
			}
			if n := c.exact.Load(); n != s.want {
				t.Errorf("step %d %q on %s: %d look-ups, want %d", i, s.query, s.snapshot, n, s.want)
			}
			want, err := pl.PlanFor(ctx, b, s.query)
			if err != nil {
				return err
			}
			if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(planner.Step{})); diff != "" {
				t.Errorf("step %d %q on %s: tabled plan differs from PlanFor's (-want +got):\n%s", i, s.query, s.snapshot, diff)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
