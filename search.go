package rlm

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/retrieval"
)

// Hit is one answer line: a definition with its location (path relative to
// the index root, lines 1-based inclusive), the score as its strategy gave
// it and that score's kind (see retrieval.ScoreKind).
type Hit struct {
	Path      string  `json:"path"`
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Symbol    string  `json:"symbol"`
	Qualified string  `json:"qualified,omitempty"`
	Kind      string  `json:"kind"`
	Score     float64 `json:"score"`
	ScoreKind string  `json:"score_kind"`
	Strategy  string  `json:"strategy"`
	Lines     []int   `json:"lines,omitempty"` // e.g. call sites, for graph hits
	Test      bool    `json:"test,omitempty"`
	doc       *retrieval.Document
}

// ExecutedStep is a step that ran, with what it found and the verdict.
type ExecutedStep struct {
	Step
	Hits    int       `json:"hits"`
	Because []Because `json:"because"` // the verdict, then any fallback/retarget
}

// Answer is the result of Search. Its JSON form is the CLI's --json output.
type Answer struct {
	Query   string         `json:"query"`
	Class   string         `json:"class"`
	Plan    []ExecutedStep `json:"plan"`
	Hits    []Hit          `json:"hits"`
	Explain []Because      `json:"explain"`
	Gap     string         `json:"gap,omitempty"` // the gap left unfilled, if any
	// Resolved is set when the rules answered for a different name than the
	// query's (a case-insensitive or fuzzy match, or the last segment of a
	// qualified name): the answer is about Resolved.To, not Resolved.From.
	Resolved *Resolution `json:"resolved,omitempty"`
}

// Resolution records that the query's name was replaced by another.
type Resolution struct {
	From string `json:"from"`
	To   string `json:"to"`
	Rule string `json:"rule"`
}

// Search plans query with the rules, runs the steps against b in the order
// the rules give, asks the rules after each step whether the evidence is
// enough or what to do on a gap, and returns up to limit hits from the
// evidence steps.
func (x *Expert) Search(ctx context.Context, b retrieval.Backend, query string, limit int) (*Answer, error) {
	if err := checkQuery(query); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = retrieval.DefaultLimit
	}
	if limit > retrieval.MaxLimit {
		limit = retrieval.MaxLimit
	}
	feats := bridge.QueryFeatures(query).Term()
	plan, err := x.planFeatures(ctx, query, feats, b.Capabilities().Strategies)
	if err != nil {
		return nil, err
	}
	ans := &Answer{Query: query, Class: plan.Class, Explain: append([]Because{}, plan.Because...), Hits: []Hit{}, Plan: []ExecutedStep{}}
	agenda := plan.Steps
	var history []any // result/3 values, newest first
	seen := map[string]bool{}
	for len(agenda) > 0 {
		if len(ans.Plan) >= MaxSteps {
			ans.Gap = fmt.Sprintf("step_limit(%d)", MaxSteps)
			break
		}
		step := agenda[0]
		pending := agenda[1:]
		hits, err := runStep(ctx, b, step, limit)
		if err != nil {
			return nil, fmt.Errorf("rlm: step %s: %w", step, err)
		}
		if step.Role == "evidence" {
			for _, h := range hits {
				if seen[h.Document.ID] || len(ans.Hits) >= limit {
					continue
				}
				seen[h.Document.ID] = true
				ans.Hits = append(ans.Hits, toHit(h))
			}
		}
		tops := make([]any, 0, 3)
		for i := 0; i < len(hits) && i < 3; i++ {
			tops = append(tops, engine.StringValue(hits[i].Document.Symbol))
		}
		res := engine.CompoundValue{Functor: "result", Args: []any{step.term, int64(len(hits)), tops}}
		history = append([]any{res}, history...)
		pend := make([]any, len(pending))
		for i, p := range pending {
			pend[i] = p.term
		}
		sol, err := x.eng.Once(ctx, "next", engine.Atom(plan.Class), feats, engine.Encode(history), engine.Encode(pend), engine.NewVar(), engine.NewVar())
		if err != nil {
			return nil, fmt.Errorf("rlm: judge: %w", err)
		}
		whys := decodeBecauses(sol[5])
		ans.Plan = append(ans.Plan, ExecutedStep{Step: step, Hits: len(hits), Because: whys})
		ans.Explain = append(ans.Explain, whys...)
		for _, w := range whys {
			if w.Rule == "ev_gap_unfilled" && len(w.Premises) > 0 {
				ans.Gap = strings.TrimSuffix(strings.TrimPrefix(w.Premises[0], "gap("), ")")
			}
			if to := resolvedName(w); to != "" {
				from := ""
				for _, st := range plan.Steps {
					if st.Name != "" {
						from = st.Name
						break
					}
				}
				if to != from {
					ans.Resolved = &Resolution{From: from, To: to, Rule: w.Rule}
				}
			}
		}
		if agenda, err = decodeSteps(sol[4]); err != nil {
			return nil, err
		}
	}
	return ans, nil
}

// runStep maps a planned step onto a retrieval request.
func runStep(ctx context.Context, b retrieval.Backend, s Step, limit int) ([]retrieval.Hit, error) {
	req := retrieval.Request{Limit: limit, Name: s.Name, Text: s.Text, CaseInsensitive: s.CaseInsensitive}
	switch s.Strategy {
	case "exact":
		req.Strategy = retrieval.Exact
	case "lexical":
		req.Strategy = retrieval.Lexical
	case "graph":
		req.Strategy = retrieval.Graph
		req.Relation = retrieval.Relation(s.Relation)
	case "structural":
		req.Strategy = retrieval.Structural
	default:
		req.Strategy = retrieval.Strategy(s.Strategy)
	}
	if s.Path != "" {
		req.Filter.PathPrefixes = pathPrefixes(s.Path)
	}
	if !b.Capabilities().Supports(req.Strategy) {
		return nil, fmt.Errorf("%w: %s", retrieval.ErrUnsupported, req.Strategy)
	}
	return b.Search(ctx, req)
}

// pathPrefixes accepts a path as written in a query: relative to the root,
// or starting with the root's own directory names ("net/http/server.go"
// when the root is .../net/http). Every suffix after a slash is tried.
func pathPrefixes(p string) []string {
	p = strings.TrimPrefix(p, "./")
	out := []string{p}
	for i := 0; i < len(p); i++ {
		if p[i] == '/' && i+1 < len(p) {
			out = append(out, p[i+1:])
		}
	}
	return out
}

func toHit(h retrieval.Hit) Hit {
	d := h.Document
	return Hit{
		Path: d.Path, StartLine: d.StartLine, EndLine: d.EndLine, Symbol: d.Symbol, Qualified: d.Qualified,
		Kind: d.Kind, Score: h.Score, ScoreKind: string(h.ScoreKind), Strategy: string(h.Strategy),
		Lines: h.Lines, Test: d.Test, doc: &d,
	}
}

// resolvedName returns the name a resolving rule settled on, from its
// symbol("...") or segment("...") premise.
func resolvedName(b Because) string {
	switch b.Rule {
	case "ev_target_resolved", "ev_fuzzy_resolved", "fb_last_segment":
	default:
		return ""
	}
	for _, p := range b.Premises {
		for _, pre := range []string{"symbol(", "segment("} {
			if strings.HasPrefix(p, pre) {
				if s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(p, pre), ")")); err == nil {
					return s
				}
			}
		}
	}
	return ""
}
