package planner

import (
	"fmt"
	"slices"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/engine"
)

// Decoding: the rules' answers are read by shape — plan/3, explanation/4,
// if/4, step/3, outcome/2, because/2 — and every step is checked against
// the closed vocabulary of bridge/steps.go. Nothing here looks at a rule
// ID to learn what was decided.

func badTerm(pred string, rules []string, v any, format string, args ...any) error {
	return &RuleError{Predicate: pred, Rules: rules, Term: clip(engine.FormatValue(v), 300), Reason: fmt.Sprintf(format, args...)}
}

func compound(v any, functor string, arity int) (engine.CompoundValue, bool) {
	c, ok := v.(engine.CompoundValue)
	return c, ok && c.Functor == functor && len(c.Args) == arity
}

// atomOf returns the name of an atom; strings are not atoms.
func atomOf(v any) (string, bool) {
	a, ok := v.(engine.AtomValue)
	return string(a), ok
}

func decodePlan(query string, v any) (*Plan, error) {
	const pred = "plan_features/3"
	c, ok := compound(v, "plan", 3)
	if !ok {
		return nil, badTerm(pred, nil, v, "want plan(Class, Steps, Because)")
	}
	p := &Plan{Query: query}
	var err error
	if p.Class, ok = atomOf(c.Args[0]); !ok {
		return nil, badTerm(pred, nil, c.Args[0], "the class must be an atom")
	}
	if p.Because, err = decodeBecauses(pred, c.Args[2]); err != nil {
		return nil, err
	}
	// Because holds the class rule, then the rule of each step in order:
	// an invalid step is reported with the rule that planned it.
	l, ok := c.Args[1].([]any)
	if !ok {
		return nil, badTerm(pred, nil, c.Args[1], "steps must be a list")
	}
	p.Steps = make([]Step, 0, len(l))
	for i, e := range l {
		var rules []string
		if i+1 < len(p.Because) {
			rules = []string{p.Because[i+1].Rule}
		}
		st, err := decodeStep(pred, rules, e)
		if err != nil {
			return nil, err
		}
		p.Steps = append(p.Steps, st)
	}
	return p, nil
}

func decodeContingencies(v any) ([]Contingency, error) {
	const pred = "contingencies/4"
	out := []Contingency{}
	cs, ok := v.([]any)
	if !ok {
		return nil, badTerm(pred, nil, v, "contingencies must be a list")
	}
	for _, ci := range cs {
		cc, ok := compound(ci, "if", 4)
		if !ok {
			return nil, badTerm(pred, nil, ci, "want if(Step, Gap, FallbackSteps, Because)")
		}
		bs, err := decodeBecauses(pred, []any{cc.Args[3]})
		if err != nil {
			return nil, err
		}
		rules := []string{bs[0].Rule}
		st, err := decodeStep(pred, rules, cc.Args[0])
		if err != nil {
			return nil, err
		}
		fb, err := decodeSteps(pred, rules, cc.Args[2])
		if err != nil {
			return nil, err
		}
		out = append(out, Contingency{Step: st, Gap: engine.FormatValue(cc.Args[1]), Fallback: fb, Because: bs[0]})
	}
	return out, nil
}

func decodeSteps(pred string, rules []string, v any) ([]Step, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, badTerm(pred, rules, v, "steps must be a list")
	}
	out := make([]Step, 0, len(l))
	for _, e := range l {
		s, err := decodeStep(pred, rules, e)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// decodeStep reads step(Strategy, Args, Role) and checks it against the
// step vocabulary (bridge.Strategies, bridge.Roles, bridge.StepArgs).
func decodeStep(pred string, rules []string, v any) (Step, error) {
	c, ok := compound(v, "step", 3)
	if !ok {
		return Step{}, badTerm(pred, rules, v, "want step(Strategy, Args, Role)")
	}
	strategy, ok := atomOf(c.Args[0])
	if !ok || !slices.Contains(bridge.StrategyNames(), strategy) {
		return Step{}, badTerm(pred, rules, v, "unknown strategy %s (allowed: %v)", engine.FormatValue(c.Args[0]), bridge.StrategyNames())
	}
	role, ok := atomOf(c.Args[2])
	if !ok || !slices.Contains(bridge.Roles, role) {
		return Step{}, badTerm(pred, rules, v, "unknown role %s (allowed: %v)", engine.FormatValue(c.Args[2]), bridge.Roles)
	}
	s := Step{Strategy: strategy, Role: role, term: v}
	args, ok := c.Args[1].([]any)
	if !ok {
		return Step{}, badTerm(pred, rules, v, "the step's arguments must be a list")
	}
	for _, a := range args {
		ac, ok := a.(engine.CompoundValue)
		if !ok || len(ac.Args) != 1 {
			return Step{}, badTerm(pred, rules, v, "step argument %s is not one of %v", engine.FormatValue(a), bridge.StepArgIndicators())
		}
		val, ok := engine.Text(ac.Args[0])
		if ac.Functor == "changed" {
			if val, ok = bridge.CheckChanged(ac.Args[0]); !ok {
				return Step{}, badTerm(pred, rules, v, "step argument %s must hold a generation (a non-negative integer) or last", engine.FormatValue(a))
			}
		}
		if !ok {
			return Step{}, badTerm(pred, rules, v, "step argument %s must hold text or an atom", engine.FormatValue(a))
		}
		if err := bridge.CheckStepArg(ac.Functor, val); err != nil {
			return Step{}, badTerm(pred, rules, v, "%v", err)
		}
		switch ac.Functor {
		case "name":
			s.Name = val
		case "text":
			s.Text = val
		case "path":
			s.Path = val
		case "relation":
			s.Relation = val
		case "case":
			s.CaseInsensitive = true
		case "spelling":
			s.Near = true
		case "kind":
			s.Kind = val
		case "language":
			s.Language = val
		case "tests":
			s.ExcludeTests, s.OnlyTests = val == "exclude", val == "only"
		case "examples":
			s.ExcludeExamples, s.OnlyExamples = val == "exclude", val == "only"
		case "demote":
			if !slices.Contains(s.Demote, val) {
				s.Demote = append(s.Demote, val)
			}
		case "quoted":
			s.Quoted = val
		case "named":
			if !slices.Contains(s.Named, val) {
				s.Named = append(s.Named, val)
			}
		case "changed":
			s.Changed = val
		case "parser":
			s.Parser = val
		case "match":
			s.Resolved = true
		case "emphasis":
			s.Emphasis = val
		case "name_part":
			s.NamePart = val
		case "types":
			s.TypesFirst = true
		}
	}
	if err := checkStepNeeds(s); err != nil {
		return Step{}, badTerm(pred, rules, v, "%v", err)
	}
	return s, nil
}

// checkStepNeeds checks that a step carries what its strategy needs to
// run (the retrieval contract would refuse it later, with less context).
func checkStepNeeds(s Step) error {
	switch s.Strategy {
	case "exact":
		if s.Name == "" {
			return fmt.Errorf("an exact step needs name(N)")
		}
	case "graph":
		if s.Name == "" || s.Relation == "" {
			return fmt.Errorf("a graph step needs name(N) and relation(R)")
		}
		if s.Resolved && s.Relation != "callers" {
			return fmt.Errorf("match(resolved) is for relation(callers), not relation(%s)", s.Relation)
		}
	case "lexical", "vector", "hybrid":
		if s.Text == "" {
			return fmt.Errorf("a %s step needs text(T)", s.Strategy)
		}
		if s.NamePart != "" && s.Strategy != "lexical" {
			return fmt.Errorf("name_part(N) is for lexical steps, not %s", s.Strategy)
		}
	case "structural":
		if s.Path == "" && s.Kind == "" && s.Language == "" && s.Changed == "" && s.Parser == "" && !s.OnlyTests && !s.ExcludeTests &&
			!s.OnlyExamples && !s.ExcludeExamples {
			return fmt.Errorf("a structural step needs a filter: path(P), kind(K), language(L), changed(G), parser(P), tests(T) or examples(E)")
		}
	}
	return nil
}

func decodeBecauses(pred string, v any) ([]Because, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, badTerm(pred, nil, v, "because must be a list")
	}
	out := make([]Because, 0, len(l))
	for _, e := range l {
		c, ok := compound(e, "because", 2)
		if !ok {
			return nil, badTerm(pred, nil, e, "want because(RuleID, Premises)")
		}
		rule, ok := atomOf(c.Args[0])
		if !ok {
			return nil, badTerm(pred, nil, e, "a rule ID must be an atom")
		}
		b := Because{Rule: rule, Premises: []string{}}
		ps, ok := c.Args[1].([]any)
		if !ok {
			return nil, badTerm(pred, []string{rule}, e, "premises must be a list")
		}
		for _, p := range ps {
			b.Premises = append(b.Premises, engine.FormatValue(p))
		}
		out = append(out, b)
	}
	return out, nil
}

// outcome is the decoded second half of next/6.
type outcome struct {
	gaps     []string
	resolved *Resolution
	discard  bool // a discard(RuleID) event: the newest step's hits leave the answer
	whys     []Because
}

// decodeOutcome reads outcome(Events, Whys); Events hold only the
// bridge.OutcomeEvents shapes.
func decodeOutcome(v any) (outcome, error) {
	const pred = "next_scored/8"
	var o outcome
	c, ok := compound(v, "outcome", 2)
	if !ok {
		return o, badTerm(pred, nil, v, "want outcome(Events, Because)")
	}
	var err error
	if o.whys, err = decodeBecauses(pred, c.Args[1]); err != nil {
		return o, err
	}
	evs, ok := c.Args[0].([]any)
	if !ok {
		return o, badTerm(pred, nil, c.Args[0], "events must be a list")
	}
	for _, ev := range evs {
		if g, ok := compound(ev, "gap", 1); ok {
			o.gaps = append(o.gaps, engine.FormatValue(g.Args[0]))
			continue
		}
		if d, ok := compound(ev, "discard", 1); ok {
			if _, ok := atomOf(d.Args[0]); !ok {
				return o, badTerm(pred, nil, ev, "discard(RuleID): RuleID must be an atom")
			}
			o.discard = true
			continue
		}
		if r, ok := compound(ev, "resolved", 3); ok {
			from, ok1 := engine.Text(r.Args[0])
			to, ok2 := engine.Text(r.Args[1])
			rule, ok3 := atomOf(r.Args[2])
			switch {
			case !ok1 || !ok2:
				return o, badTerm(pred, nil, ev, "resolved(From, To, RuleID): From and To must be names (text)")
			case !ok3:
				return o, badTerm(pred, nil, ev, "resolved(From, To, RuleID): RuleID must be an atom")
			}
			o.resolved = &Resolution{From: from, To: to, Rule: rule}
			continue
		}
		return o, badTerm(pred, nil, ev, "unknown outcome event (allowed: %v)", bridge.OutcomeEvents)
	}
	return o, nil
}
