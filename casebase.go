package rlm

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rlm-dev/rlm/cases"
	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// Case-based reuse (Options.Cases): the project keeps, in cases.sqlite
// beside the knowledge base, a case for each question whose evidence took
// more than one step to find; a later question with the same key
// (cases.Key: class, names and words, constraints) is offered the kept
// cases, the rules (rules/cases/reuse.pl) decide whether one is similar
// and not vetoed, and then its evidence steps run instead of the plan. A
// reuse that finds nothing counts a failure and the question is planned
// afresh, so reuse never answers with less than planning would have
// found.

// Case is a kept case (package cases).
type Case = cases.Case

// CasesFile is the case store's file name, beside the knowledge base.
const CasesFile = "cases.sqlite"

// CaseStats count what case-based reuse did.
type CaseStats struct {
	Reused   int64 // answers found by a reused case's steps
	Failed   int64 // reuses that found nothing (then planned afresh)
	Retained int64 // cases kept or replaced
}

type caseBase struct {
	store    *cases.Store
	version  string
	reused   atomic.Int64
	failed   atomic.Int64
	retained atomic.Int64
}

func (p *Project) openCases(ctx context.Context) error {
	st, err := cases.Open(ctx, filepath.Join(filepath.Dir(p.proj.Store().DBPath()), CasesFile), cases.Options{})
	if err != nil {
		return err
	}
	p.cases = &caseBase{store: st, version: p.planner.Engine().Version()}
	return nil
}

// searchCases answers plan's query on b (snapshot id) reusing a similar
// case's steps when the rules choose one, else running plan; it retains
// the case of a search that needed more than one step.
func (p *Project) searchCases(ctx context.Context, b retrieval.Backend, id store.Identity, plan *planner.Plan, limit int) (*Answer, error) {
	query := plan.Query
	cb := p.cases
	key := cases.Key(plan.Class, query)
	var vetoed *planner.Because
	found, err := cb.store.Retrieve(ctx, key, cb.version)
	if err != nil {
		return nil, err
	}
	if len(found) > 0 {
		cands := make([]planner.CaseCandidate, len(found))
		for i, c := range found {
			cands[i] = c.Candidate()
			cands[i].SameSnapshot = c.Snapshot == id.String()
		}
		r, why, err := p.planner.ChooseCase(ctx, plan, cands)
		if err != nil {
			return nil, err
		}
		if r == nil {
			vetoed = &why // cases were kept for this question but not reused: say why
		}
		if r != nil {
			ans, err := p.planner.RunReusing(ctx, b, plan, r, limit)
			if err != nil {
				return nil, err
			}
			ok := len(ans.Hits) > 0 && ans.Gap == ""
			if err := cb.store.Revise(ctx, r.CaseID, ok); err != nil {
				return nil, err
			}
			if ok {
				cb.reused.Add(1)
				ans.Case = r.CaseID
				return ans, nil
			}
			cb.failed.Add(1)
		}
	}
	ans, err := p.planner.Run(ctx, b, plan, limit)
	if err != nil {
		return nil, err
	}
	if vetoed != nil && len(ans.Explain) > 0 {
		ans.Explain = slices.Insert(ans.Explain, 1, *vetoed)
	}
	if retainable(ans) {
		if ans.Case, err = cb.store.Retain(ctx, cases.Case{Key: key, Query: query, Class: ans.Class, Plan: ans.Plan, Hits: len(ans.Hits),
			Resolved: ans.Resolved, Snapshot: id.String(), RulesVersion: cb.version}); err != nil {
			return nil, err
		}
		cb.retained.Add(1)
	}
	return ans, nil
}

// retainable: the search found evidence, left no gap, and its first
// evidence step with hits was not its first step (a reuse can skip the
// steps before it).
func retainable(ans *Answer) bool {
	if len(ans.Hits) == 0 || ans.Gap != "" {
		return false
	}
	for i, s := range ans.Plan {
		if s.Role == "evidence" && s.Hits > 0 {
			return i > 0
		}
	}
	return false
}

// ReviseCase records what became of evidence from reused case id
// downstream: used, or rejected (counted as a failure; a case that fails
// more often than it helps is vetoed by the rules). Errors: ErrNoCases,
// one wrapping cases.ErrNotFound.
func (p *Project) ReviseCase(ctx context.Context, id int64, used bool) error {
	if p.cases == nil {
		return ErrNoCases
	}
	return p.cases.store.Revise(ctx, id, used)
}

// Cases returns the kept cases, oldest first. Error: ErrNoCases.
func (p *Project) Cases(ctx context.Context) ([]Case, error) {
	if p.cases == nil {
		return nil, ErrNoCases
	}
	return p.cases.store.List(ctx)
}

// CaseStats reports what case-based reuse did (zero without Options.Cases).
func (p *Project) CaseStats() CaseStats {
	if p.cases == nil {
		return CaseStats{}
	}
	return CaseStats{Reused: p.cases.reused.Load(), Failed: p.cases.failed.Load(), Retained: p.cases.retained.Load()}
}

// caseRecorder is the project as the completion loop's retriever for one
// Ask or a session's turns: it remembers which kept case each hit it handed out came from, so
// that the answer's citations revise those cases (reviseCited).
type caseRecorder struct {
	p    *Project
	mu   sync.Mutex
	from map[evidenceKey]int64
}

// evidenceKey names a hit as a citation does.
type evidenceKey struct {
	path, hash string
	line       int
}

func (r *caseRecorder) Search(ctx context.Context, query string, limit int) (*Answer, error) {
	ans, err := r.p.Search(ctx, query, limit)
	if err != nil || ans.Case == 0 {
		return ans, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, h := range ans.Hits {
		r.from[evidenceKey{h.Path, h.ContentHash, h.StartLine}] = ans.Case
	}
	return ans, nil
}

func (r *caseRecorder) ReadSource(ctx context.Context, path, contentHash string) ([]byte, error) {
	return r.p.ReadSource(ctx, path, contentHash)
}

// Cited is reviseCited (loop.CitationObserver: a session calls it after
// each turn).
func (r *caseRecorder) Cited(ctx context.Context, cs []loop.Citation) error {
	return r.reviseCited(ctx, cs)
}

// reviseCited revises each case whose evidence the answer was given
// (cs, the loop's citations) with which of it the answer cited, then
// forgets what it handed out: each answer revises its own evidence's
// cases once.
func (r *caseRecorder) reviseCited(ctx context.Context, cs []loop.Citation) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer clear(r.from)
	byCase := map[int64]*cases.Evidence{}
	var order []int64
	for _, c := range cs {
		id := r.from[evidenceKey{c.Path, c.ContentHash, c.StartLine}]
		if id == 0 {
			continue
		}
		ev := byCase[id]
		if ev == nil {
			ev = &cases.Evidence{}
			byCase[id] = ev
			order = append(order, id)
		}
		loc := fmt.Sprintf("%s:%d", c.Path, c.StartLine)
		if c.Cited {
			ev.Used = append(ev.Used, loc)
		} else {
			ev.Unused = append(ev.Unused, loc)
		}
	}
	for _, id := range order {
		err := r.p.cases.store.ReviseEvidence(ctx, id, *byCase[id])
		if err != nil && !errors.Is(err, cases.ErrNotFound) { // an evicted case has nothing to revise
			return fmt.Errorf("rlm: revise case %d: %w", id, err)
		}
	}
	return nil
}
