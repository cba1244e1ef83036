package loop

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/tools"
)

// Why a catalog tool unit is never offered (Event.Denied entries are
// "id: reason").
const (
	denyUnbound      = "no tool of this name in the registry"
	denySchema       = "its schema differs from the registered tool's"
	denyPolicy       = "the run's policy does not allow it"
	denyDepth        = "the recursion depth limit is reached"
	denyNoRecursion  = "recursion is disabled (Limits.Depth < 0)"
	maxDeniedInTrace = 32
)

// denial is a tool unit the run does not offer, and why.
type denial struct {
	id, why string
}

// toolDenials returns the tool units of cat that no call of this run may
// offer: a catalog names tools, the registry binds them, the policy allows
// them, and only a tool present and allowed in all three is offered. A
// tool unit whose schema differs from its binding's is denied too, so the
// model is never shown one schema while the executor checks another.
func toolDenials(cat *prompt.Catalog, reg *tools.Registry, policy tools.Policy) []denial {
	specs := map[string]json.RawMessage{}
	for _, s := range reg.Specs() {
		specs[s.Name] = s.Schema
	}
	var out []denial
	for _, u := range cat.Units() {
		if !u.Kind.IsTool() {
			continue
		}
		t, ok := reg.Lookup(u.ID)
		switch {
		case !ok:
			out = append(out, denial{u.ID, denyUnbound})
		case !sameSchema(u.Schema, specs[u.ID]):
			out = append(out, denial{u.ID, denySchema})
		case policy.Allows(t) != nil:
			out = append(out, denial{u.ID, denyPolicy})
		}
	}
	return out
}

// sameSchema reports whether a and b are the same JSON value (key order
// and spacing aside).
func sameSchema(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// deniedFor is what a call at depth must not offer: the run's denials,
// and recurse when a sub-call could not go deeper.
func (r *run) deniedFor(depth int) []denial {
	out := slices.Clone(r.denied)
	switch {
	case r.limits.Depth < 0:
		out = append(out, denial{ToolRecurse, denyNoRecursion})
	case depth >= r.limits.Depth:
		out = append(out, denial{ToolRecurse, denyDepth})
	}
	return out
}

// traceDenials renders ds for Event.Denied, at most maxDeniedInTrace.
func traceDenials(ds []denial) []string {
	var out []string
	for i, d := range ds {
		if i == maxDeniedInTrace {
			out = append(out, "…")
			break
		}
		out = append(out, d.id+": "+d.why)
	}
	return out
}
