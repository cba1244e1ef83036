// Package planner is the rule-driven retrieval planner: Go computes a
// query's features (bridge.QueryFeatures), the rules (rules/retrieval)
// classify it and plan retrieval steps in cost order for the strategies a
// backend offers, the planner runs each step against a retrieval.Backend,
// reports what it found as inert data, and the rules judge whether the
// evidence is enough or which fallback to try. Every decision carries
// because(RuleID, Premises); Go decodes the rules' answers by shape
// (plan/3, step/3, outcome/2) and never reads a rule ID to learn a decision.
//
// Plan, Explain and Search share one planning path: given the same
// capabilities they plan the same steps.
package planner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/rules"
)

// MaxSteps bounds the steps one search runs, fallbacks included.
const MaxSteps = 8

// MaxQueryBytes bounds query text (the retrieval contract's limit).
const MaxQueryBytes = retrieval.MaxQueryBytes

// Errors callers can match with errors.Is.
var (
	// ErrQueryTooLarge: the query is over MaxQueryBytes.
	ErrQueryTooLarge = errors.New("planner: query too large")
	// ErrBadRules: the rules returned a term outside the step protocol
	// (see bridge/steps.go); the error is a *RuleError.
	ErrBadRules = errors.New("planner: rules returned an unexpected term")
	// ErrNoGeneration: a step asks for the definitions changed since the
	// last index (changed(last)) but the plan runs without the snapshot's
	// generation (Plan.Generation 0: use PlanFor, set it, then Run).
	ErrNoGeneration = errors.New("planner: changed since the last index needs the snapshot's generation")
)

// RuleError reports a term the rules returned that is outside the step
// protocol: an unknown strategy, role or step argument, or a malformed
// plan or outcome. Rules names the rule IDs that produced it, when known.
// It matches ErrBadRules with errors.Is.
type RuleError struct {
	Predicate string   // the entry point that returned it, e.g. "plan_features/3"
	Rules     []string // rule IDs that planned the offending term, if known
	Term      string   // the offending term, clipped
	Reason    string
}

func (e *RuleError) Error() string {
	who := ""
	if len(e.Rules) > 0 {
		who = " (planned by " + fmt.Sprint(e.Rules) + ")"
	}
	return fmt.Sprintf("planner: %s returned %s%s: %s", e.Predicate, e.Term, who, e.Reason)
}

// Unwrap makes a RuleError match ErrBadRules.
func (e *RuleError) Unwrap() error { return ErrBadRules }

// Options configure New.
type Options struct {
	// Rules are the default rule files; nil means the embedded defaults
	// (package rules).
	Rules fs.FS
	// RulesDir is an optional directory of .pl files layered over the
	// defaults (see engine.Options.Layers): a file with a default file's
	// path (or, at the directory's top level, its base name) replaces it;
	// other files add rules, e.g. clauses of the extension hooks.
	RulesDir string
	// Inferences is the per-query inference budget (0: engine default).
	Inferences int64
	// Predicates are extra host predicates, after the bridge's and the
	// planner's own (available_strategies/1).
	Predicates []engine.Predicate
	// Capabilities are those of the backend plans are made for: Plan,
	// Explain and the rules' plan/2 (REPL) plan only its strategies.
	// Search uses the capabilities of the backend it is given. Zero means
	// the strategies every backend has (exact, structural, graph, lexical).
	Capabilities retrieval.Capabilities
}

// Planner is the rule-driven retrieval planner. Safe for concurrent use.
type Planner struct {
	eng   *engine.Engine
	avail []retrieval.Strategy
	caps  retrieval.Capabilities // avail and the embedder's nature
	feats featureMemo            // PlanFor's features, for Run of the same plan
}

// New loads the rules with the bridge's host predicates. Bad rule files
// give an *engine.LoadError.
func New(opts Options) (*Planner, error) {
	p := &Planner{avail: opts.Capabilities.Strategies}
	if len(p.avail) == 0 {
		p.avail = DefaultStrategies()
	}
	p.caps = retrieval.Capabilities{Strategies: p.avail, Embedder: opts.Capabilities.Embedder}
	eng, err := engine.New(EngineOptions(opts, p.avail))
	if err != nil {
		return nil, err
	}
	p.eng = eng
	return p, nil
}

// DefaultStrategies are the strategies every backend has.
func DefaultStrategies() []retrieval.Strategy {
	return []retrieval.Strategy{retrieval.Exact, retrieval.Structural, retrieval.Graph, retrieval.Lexical}
}

// EngineOptions are the engine options New uses: the default rules (or
// opts.Rules) with opts.RulesDir layered over them, the bridge's host
// predicates, available_strategies/1 answering avail (and the nature of
// opts.Capabilities' embedder, see capabilityList), opts.Predicates, and
// the step vocabulary (bridge.Vocabulary) checked at load time.
// Rule tests of a host's own rules directory use them with ruletest.Run.
func EngineOptions(opts Options, avail []retrieval.Strategy) engine.Options {
	if opts.Rules == nil {
		opts.Rules = rules.FS
	}
	if len(avail) == 0 {
		avail = DefaultStrategies()
	}
	preds := append(bridge.Predicates(), availablePredicate(retrieval.Capabilities{Strategies: avail, Embedder: opts.Capabilities.Embedder}))
	preds = append(preds, opts.Predicates...)
	return engine.Options{
		Rules:      opts.Rules,
		RulesLabel: "rules",
		UserDir:    opts.RulesDir,
		Inferences: opts.Inferences,
		Predicates: preds,
		Vocabulary: bridge.Vocabulary(),
	}
}

// availablePredicate is available_strategies(-Capabilities): the
// capabilities of the backend the planner plans for (capabilityList).
func availablePredicate(caps retrieval.Capabilities) engine.Predicate {
	return engine.Predicate{
		Name: "available_strategies", Arity: 1,
		Doc: "available_strategies(-Strategies): the strategies of the backend plans are made for, and embedder(Nature) when it has vectors",
		Fn: func(context.Context, []any) (engine.Term, error) {
			return capabilityList(caps), nil
		},
	}
}

// capabilityList is what the rules know of a backend (the Available
// argument of plan_features/3 and next_scored/8): its strategies as atoms,
// then embedder(Nature) when it scores vectors, Nature the atom of
// caps.Embedder (lexical or learned, retrieval.EmbedderNature). Closed
// vocabularies (retrieval.Strategy constants, the embedder natures), never
// text from users. down, for next_scored/8, are the strategies whose
// step could not run in the search so far because a service it needs
// failed (a retrieval.UnavailableError): unavailable(S) each, after the
// rest.
func capabilityList(caps retrieval.Capabilities, down ...string) engine.Term {
	ts := make([]engine.Term, 0, len(caps.Strategies)+1)
	for _, s := range caps.Strategies {
		if slices.Contains(bridge.Strategies, s) {
			ts = append(ts, engine.Atom(string(s)))
		}
	}
	switch caps.Embedder {
	case retrieval.EmbedderLexical, retrieval.EmbedderLearned:
		ts = append(ts, engine.Compound("embedder", engine.Atom(caps.Embedder)))
	}
	for _, s := range down {
		if slices.Contains(bridge.Strategies, retrieval.Strategy(s)) {
			ts = append(ts, engine.Compound("unavailable", engine.Atom(s)))
		}
	}
	return engine.List(ts...)
}

// Engine returns the underlying rule engine (for the REPL and rule tests).
func (p *Planner) Engine() *engine.Engine { return p.eng }

// Capabilities returns the strategies Plan and Explain plan for.
func (p *Planner) Strategies() []retrieval.Strategy { return slices.Clone(p.avail) }

func checkQuery(q string) error {
	if len(q) > MaxQueryBytes {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrQueryTooLarge, len(q), MaxQueryBytes)
	}
	return nil
}

// Plan classifies query and returns the planned steps in cost order, for
// the planner's capabilities (Options.Capabilities).
func (p *Planner) Plan(ctx context.Context, query string) (*Plan, error) {
	if err := checkQuery(query); err != nil {
		return nil, err
	}
	return p.plan(ctx, query, bridge.QueryFeatures(query).Term(), p.caps)
}

// plan asks plan_features/3 for the plan for features f and the
// capabilities caps: the one planning path of Plan, Explain and Search.
func (p *Planner) plan(ctx context.Context, query string, f engine.Term, caps retrieval.Capabilities) (*Plan, error) {
	sol, err := p.eng.Once(ctx, "plan_features", f, capabilityList(caps), engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("planner: plan: %w", err)
	}
	return decodePlan(query, sol[2])
}

// Explain returns the plan for the planner's capabilities — made by the
// same call Search makes (plan_features/3) — and what the rules would do
// on each gap (contingencies/4), without searching.
func (p *Planner) Explain(ctx context.Context, query string) (*Explanation, error) {
	if err := checkQuery(query); err != nil {
		return nil, err
	}
	return p.explain(ctx, query, bridge.QueryFeatures(query).Term(), p.caps)
}

// ExplainFor is Explain for b's capabilities and snapshot: the plan
// Search would run against b (words b knows as symbol names included, see
// PlanFor) and the contingencies. Errors: as Explain.
func (p *Planner) ExplainFor(ctx context.Context, b retrieval.Backend, query string) (*Explanation, error) {
	if err := checkQuery(query); err != nil {
		return nil, err
	}
	return p.explain(ctx, query, featuresFor(ctx, b, query), b.Capabilities())
}

func (p *Planner) explain(ctx context.Context, query string, feats engine.Term, caps retrieval.Capabilities) (*Explanation, error) {
	plan, err := p.plan(ctx, query, feats, caps)
	if err != nil {
		return nil, err
	}
	steps := make([]any, len(plan.Steps))
	for i, s := range plan.Steps {
		steps[i] = s.term
	}
	// The class is an atom the rules chose (plan/3 decoding checked it).
	sol, err := p.eng.Once(ctx, "contingencies", feats, engine.Atom(plan.Class), engine.Encode(steps), engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("planner: explain: %w", err)
	}
	e := &Explanation{Plan: *plan}
	if e.Contingencies, err = decodeContingencies(sol[3]); err != nil {
		return nil, err
	}
	return e, nil
}

func clip(s string, n int) string { return textclip.Clip(s, n) }

// RuleID is one entry of the rules' registry rule_id/2.
type RuleID = engine.RuleID

// RuleIDs returns the registry of decision rules (rule_id/2 facts of every
// loaded rule file), in load order.
func (p *Planner) RuleIDs(ctx context.Context) ([]RuleID, error) {
	return p.eng.RuleIDs(ctx)
}
