package rlm

import (
	"context"

	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// Explanations: why an answer (the chain of rules and premises, and with
// Options.Memory the kept conclusion, IN or OUT), why not a strategy or a
// symbol (the rule that excluded it and the premise that would have to
// change), and what if a file changed (Project.WhatIf).

// WhyNot is the rules' verdict on a strategy or a symbol (planner.WhyNot).
type WhyNot = planner.WhyNot

// IsStrategy reports whether s names a retrieval strategy (exact,
// structural, graph, lexical, vector, hybrid): WhyNot judges those
// against the plan, anything else as a symbol.
func IsStrategy(s string) bool { return planner.IsStrategy(s) }

// Why is an answer with the chain of rules that produced it.
type Why struct {
	Query  string  `json:"query"`
	Answer *Answer `json:"answer"`
	// Chain is every rule that decided, in order, with its premises: the
	// class rule, then for each step that ran the rule that planned it,
	// its verdict and any fallback (Answer.Explain); a planned step the
	// search never reached is not in it.
	Chain []planner.Because `json:"chain"`
	// Served is true when the answer came from the cache (Memory).
	Served bool `json:"served"`
	// Conclusion is the answer as the truth-maintenance store keeps it
	// (Memory): its label, the rule that gave it, and the premises it
	// rests on (files with content hash and generation, rules, embedder,
	// rules version, the closed-world premise). nil without Memory.
	Conclusion *Conclusion `json:"conclusion,omitempty"`
}

// Why answers query (limit hits, as Search) and returns the answer with
// the chain of rules and premises that produced it and, with Memory, the
// conclusion kept for it.
func (p *Project) Why(ctx context.Context, query string, limit int) (*Why, error) {
	ans, served, err := p.checkedAnswer(ctx, query, limit)
	if err != nil {
		return nil, err
	}
	w := &Why{Query: query, Answer: ans, Chain: ans.Explain, Served: served}
	if p.mem != nil {
		for _, r := range p.mem.store.Lookup(ctx, p.answerKey(query, limit)) {
			r := r
			w.Conclusion = &r
			break
		}
	}
	return w, nil
}

// WhyNot asks the rules why target is not part of query's answer: a
// strategy name (exact, structural, graph, lexical, vector, hybrid) is
// judged against the plan; anything else is a symbol, judged against the
// answer Search gives (DefaultLimit hits) and the symbol's definitions in
// the snapshot. The verdict names the excluding rule and the premise that
// would have to change.
func (p *Project) WhyNot(ctx context.Context, query, target string) (*WhyNot, error) {
	if planner.IsStrategy(target) {
		return p.planner.WhyNotStrategy(ctx, query, target)
	}
	ans, err := p.Search(ctx, query, DefaultLimit)
	if err != nil {
		return nil, err
	}
	var w *WhyNot
	err = p.proj.View(func(b retrieval.Backend, _ store.Identity) (err error) {
		w, err = p.planner.WhyNotSymbol(ctx, b, ans, target, DefaultLimit)
		return err
	})
	return w, err
}

// Conclusion returns the kept conclusion id with its label. Errors:
// ErrNoMemory, one wrapping tms.ErrNotFound.
func (p *Project) Conclusion(ctx context.Context, id string) (*Conclusion, error) {
	if p.mem == nil {
		return nil, ErrNoMemory
	}
	r, err := p.mem.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	return &r, nil
}
