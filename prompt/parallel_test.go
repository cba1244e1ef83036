package prompt

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestForEachCallsEveryIndexExactlyOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, n := range []int{0, 1, forEachChunk - 1, forEachChunk, forEachChunk + 1, 10*forEachChunk + 3} {
		calls := make([]atomic.Int32, n)
		forEach(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Errorf("n=%d: index %d called %d times", n, i, c)
			}
		}
	}
}

// TestALargeCatalogsProblemsAreAllReportedInUnitOrder checks units on every
// core and still reports each bad unit's problems, in unit order: a bad
// schema, a reserved id and a duplicate id spread over many chunks.
func TestALargeCatalogsProblemsAreAllReportedInUnitOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	units := syntheticUnits(1000)
	type want struct{ Source, Field string }
	var wants []want
	for i := range units {
		units[i].Source = fmt.Sprintf("unit-%d", i)
		units[i].Requires = nil // no problems but the ones made below
		switch {
		case units[i].Kind == KindTool && i%7 == 0:
			units[i].Schema = []byte(`{"type": "object", "properties": {"a": {"type": 7}}}`)
			wants = append(wants, want{units[i].Source, "schema"})
		case units[i].Kind != KindTool && i%11 == 0:
			units[i].ID = ReservedPrefix + units[i].ID
			wants = append(wants, want{units[i].Source, "id"})
		case i > 0 && i%13 == 0 && (i-1)%11 != 0:
			units[i].ID = units[i-1].ID
			wants = append(wants, want{units[i].Source, "id"})
		}
	}
	_, err := NewCatalog(context.Background(), units, CatalogOptions{})
	var ce *CatalogError
	if !errors.As(err, &ce) {
		t.Fatalf("err %v, want a *CatalogError", err)
	}
	var got []want
	for _, p := range ce.Problems {
		got = append(got, want{p.Source, p.Field})
	}
	if diff := cmp.Diff(wants, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if !errors.Is(err, ErrReservedID) {
		t.Errorf("the reserved ids' problems lost their sentinel: %v", err)
	}
}

// TestALargeCatalogCountsEveryUnitsOwnTokens compares the costs counted
// on every core with each unit's content counted alone, by unit id.
func TestALargeCatalogCountsEveryUnitsOwnTokens(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	c, err := NewCatalog(context.Background(), syntheticUnits(1000), CatalogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	for _, enc := range []Encoding{Cl100kBase, O200kBase} {
		costs, err := c.unitCosts(enc)
		if err != nil {
			t.Fatal(err)
		}
		got, want := map[string]int{}, map[string]int{}
		for i, u := range c.units {
			ct, err := contentOf(&u)
			if err != nil {
				t.Fatal(err)
			}
			n, err := countTokens(enc, ct.text)
			if err != nil {
				t.Fatal(err)
			}
			want[u.ID], got[u.ID] = n, costs[i]
			if c.contents[i].hash != ct.hash {
				t.Errorf("unit %s: content hash %s, its own content's %s", u.ID, c.contents[i].hash, ct.hash)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s costs (-each unit alone +catalog):\n%s", enc, diff)
		}
	}
}
