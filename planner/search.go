package planner

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/retrieval"
)

// Search plans query with the rules for b's capabilities, runs the steps
// against b in the order the rules give, asks the rules after each step
// (next/6) whether the evidence is enough or what to do on a gap, and
// returns up to limit hits from the evidence steps (limit as
// retrieval.NormalizeLimit: 0 means retrieval.DefaultLimit; negative or over
// retrieval.MaxLimit is an error wrapping retrieval.ErrBadRequest). Errors:
// ErrQueryTooLarge, *RuleError (ErrBadRules) for a term outside the step
// protocol, *engine.QueryError for a rule that raised or ran out of budget
// or time, and the backend's errors — except a *retrieval.UnavailableError
// (a failed embedder), which makes the step find nothing and adds a note
// (Answer.Notes).
func (p *Planner) Search(ctx context.Context, b retrieval.Backend, query string, limit int) (*Answer, error) {
	if _, err := retrieval.NormalizeLimit(limit); err != nil {
		return nil, fmt.Errorf("planner: %w", err)
	}
	plan, err := p.PlanFor(ctx, b, query)
	if err != nil {
		return nil, err
	}
	return p.Run(ctx, b, plan, limit)
}

// PlanFor plans query for b's capabilities: the plan Search runs.
// Errors: ErrQueryTooLarge, *RuleError, *engine.QueryError.
func (p *Planner) PlanFor(ctx context.Context, b retrieval.Backend, query string) (*Plan, error) {
	if err := checkQuery(query); err != nil {
		return nil, err
	}
	feats := featuresFor(ctx, b, query)
	plan, err := p.plan(ctx, query, feats, b.Capabilities())
	if err != nil {
		return nil, err
	}
	p.feats.put(plan, b, feats)
	return plan, nil
}

// featuresFor is the query's features against b's snapshot: words b
// knows as symbol names are identifiers of shape bridge.ShapeKnown
// (bridge.QueryFeaturesIn with bridge.BackendLexicon).
func featuresFor(ctx context.Context, b retrieval.Backend, query string) engine.Term {
	return bridge.QueryFeaturesIn(query, bridge.BackendLexicon(ctx, b)).Term()
}

// Run runs plan (from PlanFor with the same backend) against b as Search
// does, returning up to limit hits. Errors: as Search.
func (p *Planner) Run(ctx context.Context, b retrieval.Backend, plan *Plan, limit int) (*Answer, error) {
	if len(plan.Because) == len(plan.Steps)+1 {
		return p.run(ctx, b, plan, plan.Steps, plan.Because[:1], plan.Because[1:], limit)
	}
	return p.run(ctx, b, plan, plan.Steps, plan.Because, nil, limit)
}

// run runs agenda for plan's query. The answer's explanation starts with
// explain; planned, when it holds one rule per step of agenda (the rule
// that planned it, plan.Because after the class rule), adds each step's
// rule just before its verdict, once the step runs: a planned step the
// search never reached is not in the explanation.
func (p *Planner) run(ctx context.Context, b retrieval.Backend, plan *Plan, agenda []Step, explain, planned []Because, limit int) (*Answer, error) {
	query := plan.Query
	if err := checkQuery(query); err != nil {
		return nil, err
	}
	limit, err := retrieval.NormalizeLimit(limit)
	if err != nil {
		return nil, fmt.Errorf("planner: %w", err)
	}
	feats, ok := p.feats.get(plan, b)
	if !ok {
		feats = featuresFor(ctx, b, query)
	}
	plannedBy := map[string][]Because{} // the rule that planned each step of agenda, by the step's term
	if len(planned) == len(agenda) {
		for i, s := range agenda {
			k := engine.FormatValue(s.term)
			plannedBy[k] = append(plannedBy[k], planned[i])
		}
	} else {
		explain = append(slices.Clone(explain), planned...)
	}
	ans := &Answer{Query: query, Class: plan.Class, Explain: append([]Because{}, explain...), Hits: []Hit{}, Plan: []ExecutedStep{},
		Generation: plan.Generation}
	ans.Notes = append(ans.Notes, futureGenerations(agenda, plan.Generation)...)
	var history []any          // result/3 values, newest first
	var summaries []any        // scores/4 values, newest first, beside history
	seen := map[string]bool{}  // documents in the answer, by ID and by definition
	var hitKeys [][2]string    // beside ans.Hits: each hit's document ID and definition key
	found := map[string]bool{} // every evidence hit found, by definition: the answer's Total
	sources := map[SourceRef]bool{}
	caps := capabilityList(b.Capabilities()) // what the judge knows of b: its strategies and embedder, then what failed
	var down []string                        // strategies whose step could not run (retrieval.UnavailableError)
	for len(agenda) > 0 {
		if len(ans.Plan) >= MaxSteps {
			ans.Gap = fmt.Sprintf("step_limit(%d)", MaxSteps)
			break
		}
		step := agenda[0]
		pending := agenda[1:]
		hits, err := runStep(ctx, b, step, limit, plan.Generation)
		if ue, ok := errors.AsType[*retrieval.UnavailableError](err); ok && ctx.Err() == nil {
			ans.Notes = append(ans.Notes, fmt.Sprintf("skipped %s: %s", step, ue.Note))
			hits, err = nil, nil
			if !slices.Contains(down, step.Strategy) {
				down = append(down, step.Strategy)
				caps = capabilityList(b.Capabilities(), down...)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("planner: step %s: %w", step, err)
		}
		for _, h := range hits {
			if ref := (SourceRef{Path: h.Document.Path, ContentHash: h.Document.ContentHash}); !sources[ref] {
				sources[ref] = true
				ans.Sources = append(ans.Sources, ref)
			}
		}
		before, newFound := len(ans.Hits), []string{}
		if step.Role == bridge.RoleEvidence {
			for _, h := range hits {
				k := definitionKey(h.Document)
				if !found[k] {
					found[k] = true
					newFound = append(newFound, k)
				}
				if seen[h.Document.ID] || seen[k] || len(ans.Hits) >= limit {
					continue
				}
				seen[h.Document.ID], seen[k] = true, true
				ans.Hits = append(ans.Hits, toHit(h))
				hitKeys = append(hitKeys, [2]string{h.Document.ID, k})
			}
		}
		history = append([]any{resultValue(step, hits)}, history...)
		summaries = append([]any{scoresValue(hits)}, summaries...)
		pend := make([]any, len(pending))
		for i, s := range pending {
			pend[i] = s.term
		}
		sol, err := p.eng.Once(ctx, "next_scored", engine.Atom(plan.Class), feats, caps, engine.Encode(history), engine.Encode(pend),
			engine.Encode(summaries), engine.NewVar(), engine.NewVar())
		if err != nil {
			return nil, fmt.Errorf("planner: judge: %w", err)
		}
		out, err := decodeOutcome(sol[7])
		if err != nil {
			return nil, err
		}
		if out.discard {
			// The rules judged the step's hits not evidence: they leave
			// the answer, and the history says the step found nothing.
			for _, k := range hitKeys[before:] {
				delete(seen, k[0])
				delete(seen, k[1])
			}
			ans.Hits, hitKeys = ans.Hits[:before], hitKeys[:before]
			for _, k := range newFound {
				delete(found, k)
			}
			history[0] = resultValue(step, nil)
			summaries[0] = scoresValue(nil)
		}
		ans.Plan = append(ans.Plan, ExecutedStep{Step: step, Hits: len(hits), Because: out.whys})
		if k := engine.FormatValue(step.term); len(plannedBy[k]) > 0 {
			ans.Explain = append(ans.Explain, plannedBy[k][0])
			plannedBy[k] = plannedBy[k][1:]
		}
		ans.Explain = append(ans.Explain, out.whys...)
		switch {
		case len(out.gaps) > 0:
			ans.Gap = out.gaps[len(out.gaps)-1]
		case len(ans.Hits) > before:
			ans.Gap = "" // a later step found evidence: the gap is filled
		}
		if out.resolved != nil {
			ans.Resolved = out.resolved
		}
		// The new agenda's steps come from the fallback or retarget rule
		// (the whys after the verdict), else from the verdict's.
		var rules []string
		for i, w := range out.whys {
			if i > 0 || len(out.whys) == 1 {
				rules = append(rules, w.Rule)
			}
		}
		if agenda, err = decodeSteps("next_scored/8", rules, sol[6]); err != nil {
			return nil, err
		}
	}
	ans.Total = len(found)
	return ans, nil
}

// definitionKey names a definition by where it is and what it is called
// (the last segment of its name), so that two documents of one definition
// (a JavaScript `res.send = function send` read as `send.send` and `send`)
// are one hit.
func definitionKey(d retrieval.Document) string {
	name := d.Symbol
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return fmt.Sprintf("%s\x00%d\x00%s", d.Path, d.StartLine, name)
}

// scoresValue is scores(Total, Top, Kind, Margin) for a step's hits (see
// rules/retrieval/floor.pl): the number of hits, the best score, the score
// kind as an atom of the closed vocabulary of retrieval.ScoreKind (else
// unknown), and the best score minus the second's.
func scoresValue(hits []retrieval.Hit) engine.CompoundValue {
	top, margin, kind := 0.0, 0.0, "unknown"
	if len(hits) > 0 {
		top, kind = hits[0].Score, scoreKindAtom(hits[0].ScoreKind)
		if len(hits) > 1 {
			margin = hits[0].Score - hits[1].Score
		}
	}
	return engine.CompoundValue{Functor: "scores", Args: []any{int64(len(hits)), top, engine.Atom(kind), margin}}
}

func scoreKindAtom(k retrieval.ScoreKind) string {
	switch k {
	case retrieval.ScoreExact, retrieval.ScoreBM25, retrieval.ScoreCosineSimilarity, retrieval.ScoreL2Distance, retrieval.ScoreRank, retrieval.ScoreCount:
		return string(k)
	}
	return "unknown"
}

// resultValue is result(Step, Count, Tops): the step as the rules wrote it,
// the number of hits and the symbol names of the first three, as strings
// (file contents reach the rules only as data).
func resultValue(step Step, hits []retrieval.Hit) engine.CompoundValue {
	tops := make([]any, 0, 3)
	for i := 0; i < len(hits) && i < 3; i++ {
		tops = append(tops, engine.StringValue(hits[i].Document.Symbol))
	}
	return engine.CompoundValue{Functor: "result", Args: []any{step.term, int64(len(hits)), tops}}
}

// runStep runs a planned step as a retrieval request over the snapshot of
// generation gen, with the roles of its demote(R) arguments ranked after
// every other hit (retrieval.SearchDemoting). Exact, graph and structural steps ask for every hit (up
// to retrieval.MaxLimit), so that the rules and the answer know the total
// ("10 of 60"); the others ask for limit, their ranking depending on the
// depth they are asked for, but a lexical step with name_part(N), which
// asks for every hit too and keeps those whose name holds N's words
// (NameHolds) in BM25's order. A step with types(first) has its hits
// ordered by retrieval.TypesFirst last.
func runStep(ctx context.Context, b retrieval.Backend, s Step, limit int, gen int64) ([]retrieval.Hit, error) {
	if s.NamePart != "" || slices.Contains([]retrieval.Strategy{retrieval.Exact, retrieval.Graph, retrieval.Structural}, retrieval.Strategy(s.Strategy)) {
		// A name_part step reads as deep as an exact one: the
		// definitions its name holds may rank anywhere in BM25's order.
		limit = retrieval.MaxLimit
		if m := b.Capabilities().MaxLimit; m > 0 && m < limit {
			limit = m
		}
	}
	req, err := s.Request(limit, gen)
	if err != nil {
		return nil, err
	}
	if !b.Capabilities().Supports(req.Strategy) {
		return nil, fmt.Errorf("%w: %s", retrieval.ErrUnsupported, req.Strategy)
	}
	dem := retrieval.Demotion{Roles: s.Demote, Quoted: s.Quoted, Names: s.Named}
	hits, err := retrieval.SearchDemoting(ctx, b, req, dem)
	if err == nil && s.NamePart != "" {
		return keepNamed(hits, s.NamePart), nil
	}
	if err == nil && req.Strategy == retrieval.Exact && req.Text != "" && len(hits) >= 2 && b.Capabilities().Supports(retrieval.Lexical) {
		hits, err = rankByText(ctx, b, req, dem, hits)
	}
	if err != nil || !s.TypesFirst {
		return hits, err
	}
	return retrieval.TypesFirst(ctx, b, hits, dem, limit)
}

// rankByText orders the hits of an exact step that carries text (the
// definitions of a doc-worded description's subject): by their rank in a
// BM25 search of that text under the step's filters, those BM25 does not
// find after them in their own order; the hits dem demotes stay after the
// others, ordered so among themselves. Each hit keeps its exact score.
func rankByText(ctx context.Context, b retrieval.Backend, exact retrieval.Request, dem retrieval.Demotion, hits []retrieval.Hit) ([]retrieval.Hit, error) {
	lex := exact
	lex.Strategy, lex.Name, lex.CaseInsensitive = retrieval.Lexical, "", false
	ranked, err := b.Search(ctx, lex)
	if err != nil {
		return nil, err
	}
	rank := make(map[string]int, len(ranked))
	for i, h := range ranked {
		if _, ok := rank[h.Document.ID]; !ok {
			rank[h.Document.ID] = i
		}
	}
	at := func(h retrieval.Hit) int {
		if r, ok := rank[h.Document.ID]; ok {
			return r
		}
		return len(ranked)
	}
	back := func(h retrieval.Hit) int {
		if dem.Demotes(h.Document) {
			return 1
		}
		return 0
	}
	out := slices.Clone(hits)
	slices.SortStableFunc(out, func(x, y retrieval.Hit) int { return cmp.Or(back(x)-back(y), at(x)-at(y)) })
	return out, nil
}

func toHit(h retrieval.Hit) Hit {
	d := h.Document
	return Hit{
		ID: d.ID, Path: d.Path, StartLine: d.StartLine, EndLine: d.EndLine, Symbol: d.Symbol, Qualified: d.Qualified,
		Kind: d.Kind, Signature: d.Signature, Doc: d.Doc, Score: h.Score, ScoreKind: string(h.ScoreKind), Strategy: string(h.Strategy),
		Lines: h.Lines, Test: retrieval.RoleOf(d) == retrieval.RoleTest, Role: retrieval.RoleOf(d), ContentHash: d.ContentHash, Match: h.Match,
	}
}

// futureGenerations notes each "changed since generation N" among steps
// that no file can satisfy because the snapshot is generation gen ≤ N
// (gen 0: unknown, nothing to say).
func futureGenerations(steps []Step, gen int64) []string {
	var notes []string
	seen := map[int64]bool{}
	for _, s := range steps {
		n, err := strconv.ParseInt(s.Changed, 10, 64)
		if err != nil || gen <= 0 || n < gen || seen[n] {
			continue
		}
		seen[n] = true
		notes = append(notes, fmt.Sprintf("changed since generation %d: the snapshot is generation %d, so no file has changed since", n, gen))
	}
	return notes
}
