package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestARecencyFilterNoFileCanPassIsNoted: "changed since generation N"
// on a snapshot of generation N or earlier can have no hits; the answer
// says so once, whatever the number of steps carrying it.
func TestARecencyFilterNoFileCanPassIsNoted(t *testing.T) {
	steps := []Step{{Strategy: "structural", Changed: "50"}, {Strategy: "vector", Changed: "50"}, {Strategy: "exact", Changed: "3"}, {Strategy: "exact", Changed: "last"}}
	want := []string{"changed since generation 50: the snapshot is generation 4, so no file has changed since",
		"changed since generation 4: the snapshot is generation 4, so no file has changed since"}
	steps = append(steps, Step{Strategy: "exact", Changed: "4"})
	if d := cmp.Diff(want, futureGenerations(steps, 4)); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
	if got := futureGenerations(steps, 0); got != nil {
		t.Errorf("unknown generation: %v", got)
	}
}
