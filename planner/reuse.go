package planner

import (
	"context"
	"fmt"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/retrieval"
)

// CaseCandidate is a past case offered to the rules for reuse
// (rules/cases/reuse.pl): a query, the class and steps of its search, and
// its outcome.
type CaseCandidate struct {
	ID       int64
	Query    string
	Class    string
	Plan     []ExecutedStep
	Hits     int
	Resolved *Resolution
	Uses     int // reuses that found evidence
	Failures int // reuses that found nothing
	Cited    int // answers downstream that cited its evidence
	Ignored  int // answers downstream given its evidence that cited none of it
	// SameSnapshot is true when the case was retained on the snapshot
	// the query runs on; the rules veto reusing a case of another one
	// (cb_veto_other_snapshot): the steps it skipped might find evidence
	// there.
	SameSnapshot bool
}

// Reuse is the rules' decision to reuse a case: run Steps instead of the
// plan, explained by Because (which names the case).
type Reuse struct {
	CaseID   int64
	Steps    []Step
	Because  Because
	resolved *Resolution
}

// ChooseCase asks the rules (reuse_case/4) whether to reuse one of cands
// for plan's query (plan from PlanFor). It returns the reuse, or nil and
// the rule that declined (no similar case, or a veto naming the case).
// Class atoms of the candidates are checked against the rules' classes
// by shape only (an atom); a candidate whose class is not an atom the
// rules could have written is skipped.
func (p *Planner) ChooseCase(ctx context.Context, plan *Plan, cands []CaseCandidate) (*Reuse, Because, error) {
	const pred = "reuse_case/4"
	cs := make([]engine.Term, 0, len(cands))
	for _, c := range cands {
		if c.Class != plan.Class {
			continue // only a case of the same class can be similar; its class is then an atom the rules wrote
		}
		ran := make([]engine.Term, 0, len(c.Plan))
		for _, s := range c.Plan {
			ran = append(ran, engine.Compound("ran", stepTerm(s.Step), engine.Int(int64(s.Hits))))
		}
		res := engine.Atom("none")
		if r := c.Resolved; r != nil {
			res = engine.Compound("resolved", engine.String(r.From), engine.String(r.To), engine.Atom(r.Rule))
		}
		cs = append(cs, engine.Compound("case", engine.Int(c.ID), engine.String(c.Query), engine.Atom(c.Class), engine.List(ran...),
			engine.Compound("outcome", engine.Int(int64(c.Hits)), res, engine.Int(int64(c.Uses)), engine.Int(int64(c.Failures)),
				engine.Compound("cited", engine.Int(int64(c.Cited)), engine.Int(int64(c.Ignored))),
				engine.Compound("snapshot", engine.Atom(snapshotWord(c.SameSnapshot))))))
	}
	feats := bridge.QueryFeatures(plan.Query).Term()
	sol, err := p.eng.Once(ctx, "reuse_case", feats, engine.Atom(plan.Class), engine.List(cs...), engine.NewVar())
	if err != nil {
		return nil, Because{}, fmt.Errorf("planner: reuse: %w", err)
	}
	v := sol[3]
	if c, ok := compound(v, "none", 1); ok {
		bs, err := decodeBecauses(pred, []any{c.Args[0]})
		if err != nil {
			return nil, Because{}, err
		}
		return nil, bs[0], nil
	}
	c, ok := compound(v, "reuse", 4)
	if !ok {
		return nil, Because{}, badTerm(pred, nil, v, "want reuse(CaseID, Steps, Events, Because) or none(Because)")
	}
	id, ok := c.Args[0].(int64)
	if !ok {
		return nil, Because{}, badTerm(pred, nil, v, "the case ID must be an integer")
	}
	bs, err := decodeBecauses(pred, []any{c.Args[3]})
	if err != nil {
		return nil, Because{}, err
	}
	r := &Reuse{CaseID: id, Because: bs[0]}
	if r.Steps, err = decodeSteps(pred, []string{bs[0].Rule}, c.Args[1]); err != nil {
		return nil, Because{}, err
	}
	if len(r.Steps) == 0 {
		return nil, Because{}, badTerm(pred, []string{bs[0].Rule}, v, "a reuse needs steps")
	}
	out, err := decodeOutcome(engine.CompoundValue{Functor: "outcome", Args: []any{c.Args[2], []any{}}})
	if err != nil {
		return nil, Because{}, err
	}
	r.resolved = out.resolved
	return r, r.Because, nil
}

// RunReusing runs the reused steps of r for plan's query against b, as
// Run does, and returns the answer: its explanation is the class rule,
// then the reuse (naming the case), then the steps' verdicts; ReusedCase
// is set.
func (p *Planner) RunReusing(ctx context.Context, b retrieval.Backend, plan *Plan, r *Reuse, limit int) (*Answer, error) {
	explain := []Because{r.Because}
	if len(plan.Because) > 0 {
		explain = []Because{plan.Because[0], r.Because}
	}
	ans, err := p.run(ctx, b, plan, r.Steps, explain, nil, limit)
	if err != nil {
		return nil, err
	}
	ans.ReusedCase = r.CaseID
	if ans.Resolved == nil && r.resolved != nil {
		ans.Resolved = r.resolved
	}
	return ans, nil
}

// snapshotWord is the case term's snapshot(same|other).
func snapshotWord(same bool) string {
	if same {
		return "same"
	}
	return "other"
}
