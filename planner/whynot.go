package planner

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/retrieval"
)

// WhyNot says why a strategy is or is not in a query's plan, or why a
// symbol is or is not among an answer's hits, as the rules
// (rules/retrieval/whynot.pl) judge it.
type WhyNot struct {
	Query  string `json:"query"`
	Target string `json:"target"`
	// Kind is "strategy" or "symbol".
	Kind string `json:"kind"`
	// Excluded is false when the strategy is planned or the symbol is in
	// the answer.
	Excluded bool `json:"excluded"`
	// Because names the rule that decided, with its premises.
	Because Because `json:"because"`
	// Change is the premise that would have to change for the target to
	// be planned or found, as a term (e.g. available(hybrid)); "" when
	// not excluded.
	Change string `json:"change,omitempty"`
}

// Kinds of WhyNot targets.
const (
	WhyNotStrategy = "strategy"
	WhyNotSymbol   = "symbol"
)

// IsStrategy reports whether target names a retrieval strategy (then
// WhyNot asks about the plan, else about a symbol).
func IsStrategy(target string) bool {
	return slices.Contains(bridge.StrategyNames(), target)
}

// WhyNotStrategy asks the rules why strategy (a retrieval strategy name,
// see IsStrategy) is or is not in query's plan for the planner's
// capabilities. Errors: ErrQueryTooLarge, a plain error for an unknown
// strategy, *RuleError for an answer outside the verdict shapes.
func (p *Planner) WhyNotStrategy(ctx context.Context, query, strategy string) (*WhyNot, error) {
	if err := checkQuery(query); err != nil {
		return nil, err
	}
	if !IsStrategy(strategy) {
		return nil, fmt.Errorf("planner: whynot: %q is not a strategy (%v)", strategy, bridge.StrategyNames())
	}
	// The strategy is an atom of the closed vocabulary, checked above.
	sol, err := p.eng.Once(ctx, "whynot_strategy", bridge.QueryFeatures(query).Term(), capabilityList(p.caps), engine.Atom(strategy), engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("planner: whynot: %w", err)
	}
	w := &WhyNot{Query: query, Target: strategy, Kind: WhyNotStrategy}
	return w, decodeVerdict("whynot_strategy/4", sol[3], w)
}

// WhyNotSymbol asks the rules why symbol is or is not among the hits of
// ans, the answer Search gave for query with limit hits over b: Go looks
// the symbol's definitions up in b (exact name) and hands the rules those
// and the steps the search ran, as data.
func (p *Planner) WhyNotSymbol(ctx context.Context, b retrieval.Backend, ans *Answer, symbol string, limit int) (*WhyNot, error) {
	if err := checkQuery(symbol); err != nil {
		return nil, err
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Exact, Name: symbol, Limit: 20})
	if err != nil {
		return nil, fmt.Errorf("planner: whynot: %w", err)
	}
	defs := make([]engine.Term, 0, len(hits))
	for _, h := range hits {
		d := h.Document
		defs = append(defs, engine.Compound("def", engine.String(d.Path), engine.String(d.Kind), engine.String(d.Language), engine.Atom(roleAtom(d)),
			engine.Int(d.Changed), engine.String(retrieval.ParserName(d.Parser))))
	}
	names := make([]string, 0, len(ans.Hits))
	for _, h := range ans.Hits {
		names = append(names, h.Symbol)
		if h.Qualified != "" {
			names = append(names, h.Qualified)
		}
	}
	ran := make([]engine.Term, 0, len(ans.Plan))
	for _, s := range ans.Plan {
		step := s.Step
		if step.Changed == bridge.ChangedLast && ans.Generation > 0 {
			// What the step filtered on: changes after the generation
			// before the answer's (see Step.Request).
			step.Changed = strconv.FormatInt(ans.Generation-1, 10)
		}
		ran = append(ran, engine.Compound("ran", stepTerm(step), engine.Int(int64(s.Hits))))
	}
	sol, err := p.eng.Once(ctx, "whynot_symbol", engine.String(symbol), engine.Strings(names), engine.List(defs...), engine.List(ran...),
		engine.Int(int64(limit)), engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("planner: whynot: %w", err)
	}
	w := &WhyNot{Query: ans.Query, Target: symbol, Kind: WhyNotSymbol}
	return w, decodeVerdict("whynot_symbol/6", sol[5], w)
}

// roleAtom is d's role (retrieval.RoleOf) as an atom of the closed
// vocabulary source, test, example; any other role a host wrote is
// source.
func roleAtom(d retrieval.Document) string {
	switch r := retrieval.RoleOf(d); r {
	case retrieval.RoleTest, retrieval.RoleExample:
		return r
	}
	return retrieval.RoleSource
}

// stepTerm writes a decoded step back as step(Strategy, Args, Role): its
// strategy, role and argument names are the closed vocabulary decodeStep
// checked; names, text and paths are strings.
func stepTerm(s Step) engine.Term {
	var args []engine.Term
	if s.Name != "" {
		args = append(args, engine.Compound("name", engine.String(s.Name)))
	}
	if s.CaseInsensitive {
		args = append(args, engine.Compound("case", engine.Atom("insensitive")))
	}
	if s.Near {
		args = append(args, engine.Compound("spelling", engine.Atom("near")))
	}
	if s.Relation != "" {
		args = append(args, engine.Compound("relation", engine.Atom(s.Relation)))
	}
	if s.Text != "" {
		args = append(args, engine.Compound("text", engine.String(s.Text)))
	}
	if s.Path != "" {
		args = append(args, engine.Compound("path", engine.String(s.Path)))
	}
	if s.Kind != "" {
		args = append(args, engine.Compound("kind", engine.String(s.Kind)))
	}
	if s.Language != "" {
		args = append(args, engine.Compound("language", engine.String(s.Language)))
	}
	if s.ExcludeTests {
		args = append(args, engine.Compound("tests", engine.Atom("exclude")))
	}
	if s.OnlyTests {
		args = append(args, engine.Compound("tests", engine.Atom("only")))
	}
	if s.ExcludeExamples {
		args = append(args, engine.Compound("examples", engine.Atom("exclude")))
	}
	if s.OnlyExamples {
		args = append(args, engine.Compound("examples", engine.Atom("only")))
	}
	for _, r := range s.Demote {
		// One of bridge.DemotableRoles: decodeStep checked it.
		args = append(args, engine.Compound("demote", engine.Atom(r)))
	}
	if s.Quoted != "" {
		args = append(args, engine.Compound("quoted", engine.String(s.Quoted)))
	}
	for _, n := range s.Named {
		args = append(args, engine.Compound("named", engine.String(n)))
	}
	if s.Changed == bridge.ChangedLast {
		args = append(args, engine.Compound("changed", engine.Atom(bridge.ChangedLast)))
	} else if n, err := strconv.ParseInt(s.Changed, 10, 64); err == nil {
		args = append(args, engine.Compound("changed", engine.Int(n)))
	}
	if s.Parser != "" {
		// One of bridge.ParserNames: decodeStep checked it.
		args = append(args, engine.Compound("parser", engine.Atom(s.Parser)))
	}
	if s.Resolved {
		args = append(args, engine.Compound("match", engine.Atom(bridge.MatchResolved)))
	}
	if s.Emphasis != "" {
		// retrieval.EmphasisDoc: decodeStep checked it.
		args = append(args, engine.Compound("emphasis", engine.Atom(s.Emphasis)))
	}
	if s.NamePart != "" {
		args = append(args, engine.Compound("name_part", engine.String(s.NamePart)))
	}
	if s.TypesFirst {
		args = append(args, engine.Compound("types", engine.Atom(bridge.TypesFirst)))
	}
	return engine.Compound("step", engine.Atom(s.Strategy), engine.List(args...), engine.Atom(s.Role))
}

// decodeVerdict reads planned(Because), in_answer(Because) or
// excluded(Because, Change) into w.
func decodeVerdict(pred string, v any, w *WhyNot) error {
	c, ok := v.(engine.CompoundValue)
	if !ok {
		return badTerm(pred, nil, v, "want planned(Because), in_answer(Because) or excluded(Because, Change)")
	}
	switch {
	case (c.Functor == "planned" || c.Functor == "in_answer") && len(c.Args) == 1:
	case c.Functor == "excluded" && len(c.Args) == 2:
		w.Excluded, w.Change = true, engine.FormatValue(c.Args[1])
	default:
		return badTerm(pred, nil, v, "want planned(Because), in_answer(Because) or excluded(Because, Change)")
	}
	bs, err := decodeBecauses(pred, []any{c.Args[0]})
	if err != nil {
		return err
	}
	w.Because = bs[0]
	return nil
}
