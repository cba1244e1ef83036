// Package rlm is the façade a Go host imports: build an index over a source
// tree (BuildIndex), load the rule engine (NewExpert), and plan, search and
// explain queries whose strategy is decided by Prolog rules.
//
//	x, err := rlm.NewExpert(rlm.ExpertOptions{})
//	ix, err := rlm.BuildIndex(ctx, root, rlm.IndexOptions{})
//	ans, err := x.Search(ctx, ix.Backend, "what calls ServeHTTP?", 10)
//
// Query text is data: Go computes its features (bridge.QueryFeatures) and the
// rules decide the class, the strategies in cost order, whether the evidence
// is enough and what to do on a gap. Every decision carries the ID of the
// rule that made it (Because).
package rlm

import (
	"context"
	"errors"
	"fmt"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/rules"
)

// Limits.
const (
	// MaxQueryBytes bounds query text; longer queries get ErrQueryTooLarge.
	MaxQueryBytes = retrieval.MaxQueryBytes
	// MaxSteps bounds the steps one search runs, fallbacks included.
	MaxSteps = 8
)

// Errors callers can match with errors.Is.
var (
	ErrQueryTooLarge = errors.New("rlm: query too large")
	ErrBadRules      = errors.New("rlm: rules returned an unexpected term")
)

// ExpertOptions configure NewExpert.
type ExpertOptions struct {
	// RulesDir is an optional directory of .pl files (at any depth) that
	// add to or override the embedded default rules: a file replaces the
	// default at the same relative path, or, at the top level of RulesDir,
	// the default with the same base name (see engine.Layer). It must
	// hold at least one .pl file (else engine.ErrNoRuleFiles).
	RulesDir string
	// Inferences is the per-query inference budget (0: engine default).
	Inferences int64
	// Predicates are extra host predicates, after the bridge's.
	Predicates []engine.Predicate
}

// Expert is the rule-driven retrieval planner. Safe for concurrent use.
type Expert struct {
	eng *engine.Engine
}

// NewExpert loads the embedded rules (and RulesDir) with the bridge
// predicates. Errors are *engine.LoadError for bad rule files.
func NewExpert(opts ExpertOptions) (*Expert, error) {
	preds := append(bridge.Predicates(), opts.Predicates...)
	eng, err := engine.New(engine.Options{
		Rules:      rules.FS,
		RulesLabel: "rules",
		UserDir:    opts.RulesDir,
		Inferences: opts.Inferences,
		Predicates: preds,
	})
	if err != nil {
		return nil, err
	}
	return &Expert{eng: eng}, nil
}

// Engine returns the underlying rule engine (for the REPL and rule tests).
func (x *Expert) Engine() *engine.Engine { return x.eng }

// Because is one fired rule and the premises it rested on.
type Because struct {
	Rule     string   `json:"rule"`
	Premises []string `json:"premises"`
}

// Step is one retrieval step as the rules planned it.
type Step struct {
	Strategy        string `json:"strategy"`
	Role            string `json:"role"` // "evidence" or "check"
	Name            string `json:"name,omitempty"`
	Text            string `json:"text,omitempty"`
	Path            string `json:"path,omitempty"`
	Relation        string `json:"relation,omitempty"`
	CaseInsensitive bool   `json:"case_insensitive,omitempty"`
	term            any
}

// String renders the step compactly, e.g. `graph(callers, "ServeHTTP")`.
func (s Step) String() string {
	var args []any
	if s.Relation != "" {
		args = append(args, s.Relation)
	}
	if s.Name != "" {
		args = append(args, fmt.Sprintf("%q", s.Name))
	}
	if s.Text != "" {
		args = append(args, fmt.Sprintf("%q", clip(s.Text, 60)))
	}
	if s.Path != "" {
		args = append(args, "path="+s.Path)
	}
	if s.CaseInsensitive {
		args = append(args, "case-insensitive")
	}
	out := s.Strategy + "("
	for i, a := range args {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprint(a)
	}
	return out + ")"
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// Plan is the rules' plan for a query, before any search.
type Plan struct {
	Query   string    `json:"query"`
	Class   string    `json:"class"`
	Steps   []Step    `json:"steps"`
	Because []Because `json:"because"`
}

// Contingency says what the rules would do if Step left Gap.
type Contingency struct {
	Step     Step    `json:"step"`
	Gap      string  `json:"gap"`
	Fallback []Step  `json:"fallback"`
	Because  Because `json:"because"`
}

// Explanation is a plan with its contingencies.
type Explanation struct {
	Plan
	Contingencies []Contingency `json:"contingencies"`
}

func checkQuery(q string) error {
	if len(q) > MaxQueryBytes {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrQueryTooLarge, len(q), MaxQueryBytes)
	}
	return nil
}

// Plan classifies query and returns the planned steps in cost order.
func (x *Expert) Plan(ctx context.Context, query string) (*Plan, error) {
	if err := checkQuery(query); err != nil {
		return nil, err
	}
	f := bridge.QueryFeatures(query).Term()
	return x.planFeatures(ctx, query, f, nil)
}

// planFeatures asks the rules for a plan; avail lists the strategies the
// backend offers (nil: the rules' default, the strategies every backend
// has).
func (x *Expert) planFeatures(ctx context.Context, query string, f engine.Term, avail []retrieval.Strategy) (*Plan, error) {
	var sol engine.Solution
	var err error
	if avail == nil {
		sol, err = x.eng.Once(ctx, "plan_features", f, engine.NewVar())
	} else {
		ts := make([]engine.Term, len(avail))
		for i, s := range avail {
			ts[i] = engine.Atom(string(s)) // closed vocabulary: retrieval.Strategy constants
		}
		sol, err = x.eng.Once(ctx, "plan_features", f, engine.List(ts...), engine.NewVar())
		if err == nil {
			sol = engine.Solution{sol[0], sol[2]}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("rlm: plan: %w", err)
	}
	c, ok := sol[1].(engine.CompoundValue)
	if !ok || c.Functor != "plan" || len(c.Args) != 3 {
		return nil, fmt.Errorf("%w: plan_features/2 gave %s", ErrBadRules, engine.FormatValue(sol[1]))
	}
	p := &Plan{Query: query}
	p.Class = atomText(c.Args[0])
	if p.Steps, err = decodeSteps(c.Args[1]); err != nil {
		return nil, err
	}
	p.Because = decodeBecauses(c.Args[2])
	return p, nil
}

// Explain returns the plan and what the rules would do on each gap, without
// searching.
func (x *Expert) Explain(ctx context.Context, query string) (*Explanation, error) {
	if err := checkQuery(query); err != nil {
		return nil, err
	}
	f := bridge.QueryFeatures(query).Term()
	sol, err := x.eng.Once(ctx, "explain_features", f, engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("rlm: explain: %w", err)
	}
	c, ok := sol[1].(engine.CompoundValue)
	if !ok || c.Functor != "explanation" || len(c.Args) != 4 {
		return nil, fmt.Errorf("%w: explain_features/2 gave %s", ErrBadRules, engine.FormatValue(sol[1]))
	}
	e := &Explanation{Plan: Plan{Query: query, Class: atomText(c.Args[0])}, Contingencies: []Contingency{}}
	if e.Steps, err = decodeSteps(c.Args[1]); err != nil {
		return nil, err
	}
	e.Because = decodeBecauses(c.Args[2])
	cs, _ := c.Args[3].([]any)
	for _, ci := range cs {
		cc, ok := ci.(engine.CompoundValue)
		if !ok || cc.Functor != "if" || len(cc.Args) != 4 {
			continue
		}
		st, err := decodeStep(cc.Args[0])
		if err != nil {
			return nil, err
		}
		fb, err := decodeSteps(cc.Args[2])
		if err != nil {
			return nil, err
		}
		bs := decodeBecauses([]any{cc.Args[3]})
		e.Contingencies = append(e.Contingencies, Contingency{Step: st, Gap: engine.FormatValue(cc.Args[1]), Fallback: fb, Because: bs[0]})
	}
	return e, nil
}

func atomText(v any) string {
	if s, ok := engine.Text(v); ok {
		return s
	}
	return engine.FormatValue(v)
}

func decodeSteps(v any) ([]Step, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%w: steps must be a list, got %s", ErrBadRules, engine.FormatValue(v))
	}
	out := make([]Step, 0, len(l))
	for _, e := range l {
		s, err := decodeStep(e)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// decodeStep reads step(Strategy, Args, Role).
func decodeStep(v any) (Step, error) {
	c, ok := v.(engine.CompoundValue)
	if !ok || c.Functor != "step" || len(c.Args) != 3 {
		return Step{}, fmt.Errorf("%w: not a step/3: %s", ErrBadRules, engine.FormatValue(v))
	}
	s := Step{Strategy: atomText(c.Args[0]), Role: atomText(c.Args[2]), term: v}
	args, _ := c.Args[1].([]any)
	for _, a := range args {
		ac, ok := a.(engine.CompoundValue)
		if !ok || len(ac.Args) != 1 {
			continue
		}
		val, _ := engine.Text(ac.Args[0])
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
			s.CaseInsensitive = val == "insensitive"
		}
	}
	return s, nil
}

func decodeBecauses(v any) []Because {
	l, _ := v.([]any)
	var out []Because
	for _, e := range l {
		c, ok := e.(engine.CompoundValue)
		if !ok || c.Functor != "because" || len(c.Args) != 2 {
			out = append(out, Because{Rule: "?", Premises: []string{engine.FormatValue(e)}})
			continue
		}
		b := Because{Rule: atomText(c.Args[0])}
		ps, _ := c.Args[1].([]any)
		for _, p := range ps {
			b.Premises = append(b.Premises, engine.FormatValue(p))
		}
		out = append(out, b)
	}
	return out
}
