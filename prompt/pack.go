package prompt

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrBudget is matched by every *BudgetError.
var ErrBudget = errors.New("prompt: mandatory units do not fit in the budget")

// UnitCost is one unit's token cost.
type UnitCost struct {
	ID     string `json:"id"`
	Tokens int    `json:"tokens"`
}

// BudgetError reports mandatory units (with what they require) that
// cannot fit in the budget: nothing is dropped silently. It matches
// ErrBudget.
type BudgetError struct {
	Budget int        // the budget asked for
	Need   int        // tokens of the mandatory units, what they require and the framing of Text
	Units  []UnitCost // the mandatory units and what they require, in render order
}

func (e *BudgetError) Error() string {
	parts := make([]string, len(e.Units))
	for i, u := range e.Units {
		parts[i] = fmt.Sprintf("%s (%d)", clipID(u.ID), u.Tokens)
	}
	return fmt.Sprintf("prompt: the mandatory units need %d tokens, over the budget of %d: %s", e.Need, e.Budget, strings.Join(parts, ", "))
}

// Unwrap makes a BudgetError match ErrBudget.
func (e *BudgetError) Unwrap() error { return ErrBudget }

// project packs the active candidates to the budget, renders them and
// fills in the ledger and the fingerprint.
//
// Packing: the mandatory units and everything they require (among the
// active units) are packed first; if they cannot fit, *BudgetError. The
// other active units follow by priority (higher first), lexical rank
// (better first, unmatched last) and catalog order, each with what it
// requires that is not packed yet: a unit whose group does not fit in what
// is left is packed out (over_budget), and so is a unit that requires one
// already packed out (dependency_packed_out). Text's framing (header and
// section titles) is charged too, and the final projection is counted
// once more: while it is over the budget the optional unit packed last
// goes out (over_budget) with what requires it.
func (c *Compiler) project(cands []*candidate, enc Encoding, opts Options) (*Compiled, error) {
	var active []*candidate
	byN := map[int]*candidate{}
	out := &Compiled{Mode: opts.Mode, Encoding: enc, Candidates: len(cands), Rejected: []Decision{}}
	for _, cd := range cands {
		if cd.active {
			active = append(active, cd)
			byN[cd.n] = cd
		} else {
			out.Rejected = append(out.Rejected, cd.decision(false, cd.because))
		}
	}
	// requires returns the active units cd requires, transitively.
	requires := func(cd *candidate) []*candidate {
		var group []*candidate
		seen := map[int]bool{cd.n: true}
		queue := []*candidate{cd}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, n := range x.links[0] {
				if d, ok := byN[n]; ok && !seen[n] {
					seen[n] = true
					group = append(group, d)
					queue = append(queue, d)
				}
			}
		}
		return group
	}
	packedSet := map[int]bool{}
	var order []*candidate // optional units in the order they were packed
	var mandatory []*candidate
	for _, cd := range active {
		if cd.unit.Mandatory {
			for _, d := range append([]*candidate{cd}, requires(cd)...) {
				if !packedSet[d.n] {
					packedSet[d.n] = true
					mandatory = append(mandatory, d)
				}
			}
		}
	}
	packedOut := map[int]bool{}
	if opts.Budget > 0 {
		if err := c.checkMandatory(enc, opts.Budget, mandatory); err != nil {
			return nil, err
		}
		// Pack against the framing of every active unit: at least what
		// the packed subset's framing will be.
		full, err := measure(enc, active)
		if err != nil {
			return nil, err
		}
		used := full.framing
		for _, d := range mandatory {
			used += d.cost
		}
		optional := slices.Clone(active)
		slices.SortStableFunc(optional, packOrder)
		for _, cd := range optional {
			if packedSet[cd.n] || packedOut[cd.n] {
				continue
			}
			group := []*candidate{cd}
			var blocked *candidate
			for _, d := range requires(cd) {
				if packedOut[d.n] && blocked == nil {
					blocked = d
				}
				if !packedSet[d.n] {
					group = append(group, d)
				}
			}
			if blocked != nil {
				packedOut[cd.n] = true
				out.Rejected = append(out.Rejected, cd.decision(false, Because{Rule: c.pack[eventDependencyPackedOut],
					Premises: []string{fmt.Sprintf("requires(%q)", blocked.unit.ID)}}))
				continue
			}
			need := 0
			for _, d := range group {
				need += d.cost
			}
			if used+need > opts.Budget {
				packedOut[cd.n] = true
				out.Rejected = append(out.Rejected, cd.decision(false, c.overBudget(need, opts.Budget-used)))
				continue
			}
			used += need
			for _, d := range group {
				packedSet[d.n] = true
				order = append(order, d)
			}
		}
	} else {
		for _, cd := range active {
			packedSet[cd.n] = true
		}
	}
	for {
		var kept []*candidate
		for _, cd := range active {
			if packedSet[cd.n] {
				kept = append(kept, cd)
			}
		}
		slices.SortStableFunc(kept, renderOrder)
		m, err := measure(enc, kept)
		if err != nil {
			return nil, err
		}
		if opts.Budget == 0 || m.total() <= opts.Budget {
			return c.finish(out, kept, m, opts)
		}
		if len(order) == 0 {
			return nil, c.checkMandatory(enc, opts.Budget, mandatory)
		}
		// The counted projection is over: the optional unit packed last
		// goes, with every packed unit that requires it.
		last := order[len(order)-1]
		order = order[:len(order)-1]
		delete(packedSet, last.n)
		out.Rejected = append(out.Rejected, last.decision(false, c.overBudget(last.cost, opts.Budget-(m.total()-last.cost))))
		for _, cd := range slices.Clone(order) {
			if slices.Contains(requires(cd), last) {
				delete(packedSet, cd.n)
				order = slices.DeleteFunc(order, func(x *candidate) bool { return x == cd })
				out.Rejected = append(out.Rejected, cd.decision(false, Because{Rule: c.pack[eventDependencyPackedOut],
					Premises: []string{fmt.Sprintf("requires(%q)", last.unit.ID)}}))
			}
		}
	}
}

func (c *Compiler) overBudget(need, left int) Because {
	return Because{Rule: c.pack[eventOverBudget], Premises: []string{fmt.Sprintf("tokens(%d)", need), fmt.Sprintf("budget_left(%d)", max(0, left))}}
}

// checkMandatory returns a *BudgetError if the mandatory units (and
// what they require), rendered alone, do not fit in budget.
func (c *Compiler) checkMandatory(enc Encoding, budget int, mandatory []*candidate) error {
	ms := slices.Clone(mandatory)
	slices.SortStableFunc(ms, renderOrder)
	m, err := measure(enc, ms)
	if err != nil {
		return err
	}
	if m.total() <= budget {
		return nil
	}
	e := &BudgetError{Budget: budget, Need: m.total(), Units: make([]UnitCost, len(ms))}
	for i, d := range ms {
		e.Units[i] = UnitCost{ID: d.unit.ID, Tokens: d.cost}
	}
	return e
}

// measurement is a rendered projection and its token counts.
type measurement struct {
	text    string
	tools   []ToolSchema
	framing int // tokens of Text that belong to no unit
	textTok int // tokens of Text
	toolTok int
}

func (m measurement) total() int { return m.textTok + m.toolTok }

// measure renders units (in render order) and counts them: a unit's
// tokens were counted with its content; the framing is counted here.
func measure(enc Encoding, units []*candidate) (measurement, error) {
	ps := make([]packed, len(units))
	for i, cd := range units {
		ps[i] = packed{c: cd, cost: cd.cost}
	}
	text, tools, framing, err := render(enc, ps)
	if err != nil {
		return measurement{}, err
	}
	m := measurement{text: text, tools: tools, framing: framing, textTok: framing}
	for _, cd := range units {
		if cd.unit.Kind.IsTool() {
			m.toolTok += cd.cost
		} else {
			m.textTok += cd.cost
		}
	}
	return m, nil
}

// finish fills in the projection of the packed units kept.
func (c *Compiler) finish(out *Compiled, kept []*candidate, m measurement, opts Options) (*Compiled, error) {
	out.Text, out.Tools = m.text, m.tools
	out.Active = make([]Decision, len(kept))
	out.Ledger = Ledger{Budget: opts.Budget, Text: m.textTok, Tools: m.toolTok, Total: m.total(), Units: make(map[string]int, len(kept))}
	ps := make([]packed, len(kept))
	for i, cd := range kept {
		out.Active[i] = cd.decision(true, cd.because)
		out.Ledger.Units[cd.unit.ID] = cd.cost
		ps[i] = packed{c: cd, cost: cd.cost}
	}
	fp, err := fingerprint(opts.Mode, opts.Budget, ps, m.tools)
	if err != nil {
		return nil, err
	}
	out.Fingerprint = fp
	return out, nil
}

// packOrder orders optional units for packing: priority (higher first),
// lexical rank (better first, unmatched last), then catalog order.
func packOrder(a, b *candidate) int {
	if a.unit.Priority != b.unit.Priority {
		return b.unit.Priority - a.unit.Priority
	}
	ra, rb := a.rank, b.rank
	if ra == 0 {
		ra = int(^uint(0) >> 1)
	}
	if rb == 0 {
		rb = int(^uint(0) >> 1)
	}
	if ra != rb {
		if ra < rb {
			return -1
		}
		return 1
	}
	return a.order - b.order
}

// renderOrder orders units as Text and Tools show them: by kind (Kinds
// order), priority (higher first), then catalog order.
func renderOrder(a, b *candidate) int {
	ka, kb := slices.Index(Kinds, a.unit.Kind), slices.Index(Kinds, b.unit.Kind)
	if ka != kb {
		return ka - kb
	}
	if a.unit.Priority != b.unit.Priority {
		return b.unit.Priority - a.unit.Priority
	}
	return a.order - b.order
}
