package parcel

import "testing"

// routeCase is one routing case of the tests.
type routeCase struct {
	// The Handler under test sends each parcel to the right depot.
	Handler Handler
	depot   string
}

// stubDepot sends every parcel to one depot.
type stubDepot struct{}

// Route sends the parcel to the stub's one depot.
func (stubDepot) Route(parcel string) string { return "north" }

func TestRoute(t *testing.T) {
	c := routeCase{Handler: stubDepot{}, depot: "north"}
	if got := c.Handler.Route("p1"); got != c.depot {
		t.Fatalf("Route = %q, want %q", got, c.depot)
	}
}
