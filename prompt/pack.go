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
// goes out (over_budget) with what requires it. Whenever a unit goes out,
// so does every pulled unit (active only because active units require or
// suggest it) that no unit still in requires or suggests, unless it is
// mandatory (requirer_packed_out, naming the unit that went out).
func (c *Compiler) project(cands []*candidate, enc Encoding, opts Options) (*Compiled, error) {
	p := &packing{c: c, byN: map[int]*candidate{}, packed: map[int]bool{}, out: map[int]bool{}, fixed: map[int]bool{},
		res: &Compiled{Mode: opts.Mode, Encoding: enc, Candidates: len(cands), Rejected: []Decision{}}}
	for _, cd := range cands {
		if cd.active {
			p.active = append(p.active, cd)
			p.byN[cd.n] = cd
		} else {
			p.res.Rejected = append(p.res.Rejected, cd.decision(false, cd.because))
		}
	}
	var mandatory []*candidate
	for _, cd := range p.active {
		if cd.unit.Mandatory {
			for _, d := range append([]*candidate{cd}, p.requires(cd)...) {
				if !p.fixed[d.n] {
					p.fixed[d.n], p.packed[d.n] = true, true
					mandatory = append(mandatory, d)
				}
			}
		}
	}
	if opts.Budget > 0 {
		if err := c.checkMandatory(enc, opts.Budget, mandatory); err != nil {
			return nil, err
		}
		// Pack against the framing of every active unit: at least what
		// the packed subset's framing will be.
		full, err := measure(enc, p.active)
		if err != nil {
			return nil, err
		}
		p.used = full.framing
		for _, d := range mandatory {
			p.used += d.cost
		}
		optional := slices.Clone(p.active)
		slices.SortStableFunc(optional, packOrder)
		for _, cd := range optional {
			if p.packed[cd.n] || p.out[cd.n] {
				continue
			}
			group := []*candidate{cd}
			var blocked *candidate
			for _, d := range p.requires(cd) {
				if p.out[d.n] && blocked == nil {
					blocked = d
				}
				if !p.packed[d.n] {
					group = append(group, d)
				}
			}
			if blocked != nil {
				p.drop(cd, Because{Rule: c.pack[eventDependencyPackedOut], Premises: []string{fmt.Sprintf("requires(%q)", blocked.unit.ID)}})
				p.dropPulled(cd)
				continue
			}
			need := 0
			for _, d := range group {
				need += d.cost
			}
			if p.used+need > opts.Budget {
				p.drop(cd, c.overBudget(need, opts.Budget-p.used))
				p.dropPulled(cd)
				continue
			}
			p.used += need
			for _, d := range group {
				p.packed[d.n] = true
				p.order = append(p.order, d)
			}
		}
	} else {
		for _, cd := range p.active {
			p.packed[cd.n] = true
		}
	}
	for {
		var kept []*candidate
		for _, cd := range p.active {
			if p.packed[cd.n] {
				kept = append(kept, cd)
			}
		}
		slices.SortStableFunc(kept, renderOrder)
		m, err := measure(enc, kept)
		if err != nil {
			return nil, err
		}
		if opts.Budget == 0 || m.total() <= opts.Budget {
			return c.finish(p.res, kept, m, opts)
		}
		if len(p.order) == 0 {
			return nil, c.checkMandatory(enc, opts.Budget, mandatory)
		}
		// The counted projection is over: the optional unit packed last
		// goes, with every packed unit that requires it.
		last := p.order[len(p.order)-1]
		p.drop(last, c.overBudget(last.cost, opts.Budget-(m.total()-last.cost)))
		for _, cd := range slices.Clone(p.order) {
			if slices.Contains(p.requires(cd), last) {
				p.drop(cd, Because{Rule: c.pack[eventDependencyPackedOut], Premises: []string{fmt.Sprintf("requires(%q)", last.unit.ID)}})
			}
		}
		p.dropPulled(last)
	}
}

// packing is the state of one project call.
type packing struct {
	c      *Compiler
	res    *Compiled
	active []*candidate       // the rules' active units, in candidate order
	byN    map[int]*candidate // active units by candidate number
	packed map[int]bool       // in the projection so far
	out    map[int]bool       // packed out
	fixed  map[int]bool       // mandatory units and what they require: never packed out
	order  []*candidate       // optional units in the order they were packed
	used   int                // tokens of the packed units and the framing
}

// requires returns the active units cd requires, transitively.
func (p *packing) requires(cd *candidate) []*candidate {
	var group []*candidate
	seen := map[int]bool{cd.n: true}
	queue := []*candidate{cd}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, n := range x.links[0] {
			if d, ok := p.byN[n]; ok && !seen[n] {
				seen[n] = true
				group = append(group, d)
				queue = append(queue, d)
			}
		}
	}
	return group
}

// drop packs cd out with reason b, giving back its tokens if it was
// packed.
func (p *packing) drop(cd *candidate, b Because) {
	p.out[cd.n] = true
	if p.packed[cd.n] {
		delete(p.packed, cd.n)
		p.used -= cd.cost
		p.order = slices.DeleteFunc(p.order, func(x *candidate) bool { return x == cd })
	}
	p.res.Rejected = append(p.res.Rejected, cd.decision(false, b))
}

// dropPulled packs out, after gone went out, every pulled unit that no
// active unit still in (packed, or not yet considered) requires or
// suggests, unless it is mandatory or a mandatory unit requires it, until
// none is left.
func (p *packing) dropPulled(gone *candidate) {
	for changed := true; changed; {
		changed = false
		for _, cd := range p.active {
			if !cd.pulled || p.fixed[cd.n] || p.out[cd.n] || p.broughtIn(cd) {
				continue
			}
			p.drop(cd, Because{Rule: p.c.pack[eventRequirerPackedOut], Premises: []string{fmt.Sprintf("packed_out(%q)", gone.unit.ID)}})
			changed = true
		}
	}
}

// broughtIn reports whether an active unit that is not packed out
// requires or suggests cd.
func (p *packing) broughtIn(cd *candidate) bool {
	for _, y := range p.active {
		if y != cd && !p.out[y.n] && (slices.Contains(y.links[0], cd.n) || slices.Contains(y.links[1], cd.n)) {
			return true
		}
	}
	return false
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

// renderOrder orders units as Text and Tools show them: by kind (kindOrder
// order), priority (higher first), then catalog order.
func renderOrder(a, b *candidate) int {
	ka, kb := slices.Index(kindOrder, a.unit.Kind), slices.Index(kindOrder, b.unit.Kind)
	if ka != kb {
		return ka - kb
	}
	if a.unit.Priority != b.unit.Priority {
		return b.unit.Priority - a.unit.Priority
	}
	return a.order - b.order
}
