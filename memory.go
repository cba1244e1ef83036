package rlm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/sourcefacts/store"
	"github.com/rlm-dev/rlm/tms"
)

// Truth maintenance (Options.Memory): the project keeps its conclusions —
// cached answers, the retrievals and context units of loop sessions — in
// a tms.Store beside the knowledge base (tms.sqlite), each with the
// premises it rests on: the files its hits were read from (path, content
// hash, generation), the rules that decided it, the rules' version, the
// embedder when embeddings ranked it, and a closed-world premise (no
// other file changed to mention the question's words). Every snapshot
// change relabels them with rules/tms; an answer is served from the cache
// only while it is IN.

// Types of truth maintenance, defined in package tms.
type (
	Conclusion     = tms.Record // a kept conclusion with its label and justification
	LabelChange    = tms.Change // a conclusion that went IN or OUT, and why
	MemoryStats    = memoryStats
	ConclusionKind = tms.Kind
)

// memoryStats count what the answer cache did.
type memoryStats struct {
	Served   int64 // answers served from the cache (IN, checked)
	Computed int64 // answers the planner computed (cache misses)
	Kept     int   // conclusions kept
}

// memory is the project's truth-maintenance store.
type memory struct {
	store    *tms.Store
	ruleIDs  []string
	version  string // the planner's rules version
	embedder string // the embedder's identity, "" for none
	served   atomic.Int64
	computed atomic.Int64
}

// MemoryFile is the truth-maintenance store's file name, beside the
// knowledge base.
const MemoryFile = "tms.sqlite"

// openMemory opens the store beside the knowledge base and syncs it with
// the current snapshot.
func (p *Project) openMemory(ctx context.Context) error {
	r, err := tms.NewRules(tms.RulesOptions{RulesDir: p.opts.Rules, Inferences: p.opts.Inferences})
	if err != nil {
		return err
	}
	ids, err := p.planner.RuleIDs(ctx)
	if err != nil {
		return err
	}
	m := &memory{version: p.planner.Engine().Version(), embedder: embedderIdentity(p.opts.Embedder), ruleIDs: []string{}}
	for _, id := range ids {
		m.ruleIDs = append(m.ruleIDs, id.ID)
	}
	path := filepath.Join(filepath.Dir(p.proj.Store().DBPath()), MemoryFile)
	if m.store, err = tms.Open(ctx, path, tms.Options{Rules: r}); err != nil {
		return err
	}
	p.mem = m
	if _, err := m.store.Sync(ctx, p.environment()); err != nil {
		m.store.Close()
		p.mem = nil
		return err
	}
	return nil
}

func embedderIdentity(e Embedder) string {
	if e == nil {
		return ""
	}
	return fmt.Sprintf("%s/%d", e.Model(), e.Dimensions())
}

// environment is the current snapshot as the truth-maintenance store
// sees it.
func (p *Project) environment() tms.Environment {
	id, files := p.proj.Files()
	fs := make(map[string]tms.FileVersion, len(files))
	for path, v := range files {
		fs[path] = tms.FileVersion{Hash: v.Hash, Generation: v.Generation}
	}
	return tms.Environment{Snapshot: id.String(), Files: fs, Embedder: p.mem.embedder, RulesVersion: p.mem.version, RuleIDs: p.mem.ruleIDs,
		Read: func(ctx context.Context, path string) ([]byte, error) {
			return p.proj.ReadSource(ctx, path, files[path].Hash)
		}}
}

// syncMemory relabels the conclusions against the current snapshot. The
// caller holds p.mu.
func (p *Project) syncMemory(ctx context.Context) ([]LabelChange, error) {
	if p.mem == nil {
		return nil, nil
	}
	ch, err := p.mem.store.Sync(ctx, p.environment())
	if err != nil {
		return nil, fmt.Errorf("rlm: truth maintenance: %w", err)
	}
	return ch, nil
}

// Errors of calls that need an option the project was opened without.
var (
	// ErrNoMemory: a truth-maintenance call without Options.Memory.
	ErrNoMemory = errors.New("rlm: the project keeps no conclusions (Options.Memory is off)")
	// ErrNoCases: a case-base call without Options.Cases.
	ErrNoCases = errors.New("rlm: the project keeps no cases (Options.Cases is off)")
)

// answerKey is the cache key of query's answer for limit hits over the
// project's strategies.
func (p *Project) answerKey(query string, limit int) string {
	d := xxhash.New()
	fmt.Fprintf(d, "%d\x00%v\x00%s", limit, p.planner.Strategies(), query)
	return fmt.Sprintf("answer:%016x", d.Sum64())
}

// recall returns a cached answer for key if one is IN now (checked by the
// rules against the current snapshot, under the lock that serialises
// Refresh): never one with an OUT premise.
func (p *Project) recall(ctx context.Context, key string) (*Answer, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range p.mem.store.Lookup(ctx, key) {
		if r.Label != tms.In {
			break
		}
		c, err := p.mem.store.Check(ctx, r.ID)
		if err != nil || c.Label != tms.In {
			continue
		}
		var ans Answer
		if err := json.Unmarshal(r.Value, &ans); err != nil {
			continue
		}
		_ = p.mem.store.Touch(ctx, r.ID)
		p.mem.served.Add(1)
		return &ans, true
	}
	return nil, false
}

// justifyAnswer keeps ans (computed on snapshot id) as a conclusion of kind
// under key, if id is still the current snapshot; it returns the record's
// ID ("" if the snapshot moved on meanwhile: the answer is not kept).
func (p *Project) justifyAnswer(ctx context.Context, kind tms.Kind, key, query string, ans *Answer, id store.Identity, value []byte) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cur := p.proj.Snapshot(); cur.Generation != id.Generation || cur.Fingerprint != id.Fingerprint {
		return "", nil
	}
	r, err := p.mem.store.Justify(ctx, tms.Conclusion{Key: key, Kind: kind, Title: textclip.Clip(query, 120),
		Premises: p.answerPremises(query, ans), Value: value})
	if err != nil {
		return "", fmt.Errorf("rlm: truth maintenance: %w", err)
	}
	return r.ID, nil
}

// answerPremises are what an answer rests on: the files its steps' hits
// were read from, the rules that decided it and their version, and the
// closed-world premise over the question's words (any change at all when
// embeddings ranked it, with the embedder's identity, or when it asked
// for what changed since the last index).
func (p *Project) answerPremises(query string, ans *Answer) []tms.Premise {
	var ps []tms.Premise
	for _, s := range ans.Sources {
		gen := int64(0)
		if v, ok := p.proj.Version(s.Path); ok && v.Hash == s.ContentHash {
			gen = v.Generation
		}
		ps = append(ps, tms.Source(s.Path, s.ContentHash, gen))
	}
	var rules []string
	for _, b := range ans.Explain {
		if !slices.Contains(rules, b.Rule) {
			rules = append(rules, b.Rule)
		}
	}
	for _, r := range rules {
		ps = append(ps, tms.Rule(r))
	}
	ps = append(ps, tms.RulesAre(p.mem.version))
	embedded := slices.ContainsFunc(ans.Plan, func(s planner.ExecutedStep) bool { return s.Strategy == "vector" || s.Strategy == "hybrid" })
	if embedded {
		return append(ps, tms.EmbedderIs(p.mem.embedder), tms.Elsewhere())
	}
	// "Changed since the last index" means another set of files in the
	// next generation, whatever changed.
	if slices.ContainsFunc(ans.Plan, func(s planner.ExecutedStep) bool { return s.Changed == bridge.ChangedLast }) {
		return append(ps, tms.Elsewhere())
	}
	return append(ps, tms.Elsewhere(questionTerms(query, ans)...))
}

// questionTerms are the words and names a new match for query would have
// to mention, lowercased: content words, identifiers (and the parts of
// qualified ones), paths, quoted text, and the name the answer resolved
// to; at most tms.MaxTerms.
func questionTerms(query string, ans *Answer) []string {
	f := bridge.QueryFeatures(query)
	var out []string
	add := func(s string) {
		s = strings.ToLower(strings.TrimSpace(s))
		if len(s) >= 2 && len(s) <= 200 && !slices.Contains(out, s) && len(out) < tms.MaxTerms {
			out = append(out, s)
		}
	}
	for _, id := range f.Idents {
		add(id.Name)
		for _, part := range strings.FieldsFunc(id.Name, func(r rune) bool { return r == '.' || r == ':' || r == '/' }) {
			add(part)
		}
	}
	if ans.Resolved != nil {
		add(ans.Resolved.To)
	}
	for _, group := range [][]string{f.ContentWords, f.Paths, f.Quoted} {
		for _, s := range group {
			add(s)
		}
	}
	return out
}

// Conclusions returns every conclusion the project keeps, oldest first,
// each with its label and the rule (and premise) that gave it. Error:
// ErrNoMemory.
func (p *Project) Conclusions(ctx context.Context) ([]Conclusion, error) {
	if p.mem == nil {
		return nil, ErrNoMemory
	}
	return p.mem.store.List(ctx), nil
}

// Memory reports what the answer cache did (zero without Options.Memory).
func (p *Project) Memory() MemoryStats {
	if p.mem == nil {
		return MemoryStats{}
	}
	return MemoryStats{Served: p.mem.served.Load(), Computed: p.mem.computed.Load(), Kept: p.mem.store.Len()}
}

// WhatIf returns the conclusions that would go OUT if each of paths
// changed (slash paths relative to the root), and why, changing nothing.
// Error: ErrNoMemory.
func (p *Project) WhatIf(ctx context.Context, paths ...string) ([]LabelChange, error) {
	if p.mem == nil {
		return nil, ErrNoMemory
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mem.store.WhatIf(ctx, paths...)
}

// Session is a conversation with the completion loop whose context is kept
// true between turns (loop.Session).
type (
	Session       = loop.Session
	TurnResult    = loop.TurnResult
	ContextRef    = loop.ContextRef
	ContextChange = loop.ContextChange
)

// NewSession starts a conversation over this project: each turn is an
// Ask, and the evidence of earlier turns is carried into later ones as
// context that the truth-maintenance store keeps true — a unit whose file
// changed is withdrawn and re-derived, one whose bytes are back is
// restored. With Options.Cases each turn's citations revise the kept
// cases its evidence came from, as Ask's do. Close it to forget its
// conclusions. Error: ErrNoMemory without Options.Memory.
func (p *Project) NewSession(opts AskOptions) (*Session, error) {
	if p.mem == nil {
		return nil, ErrNoMemory
	}
	c, err := p.compiler()
	if err != nil {
		return nil, err
	}
	var r loop.Retriever = p
	if p.cases != nil {
		// As Ask: each turn's citations revise the cases its evidence
		// came from (caseRecorder.Cited, after every turn).
		r = &caseRecorder{p: p, from: map[evidenceKey]int64{}}
	}
	return loop.NewSession(loop.Options{
		Model: opts.Model, Compiler: c, Catalog: opts.Catalog, Registry: opts.Tools, Policy: opts.Policy,
		Mode: opts.Mode, Input: opts.Input, Retriever: r, Limits: opts.Limits, OnDelta: opts.OnDelta,
	}, sessionMemory{p})
}

// sessionMemory is the project's truth-maintenance store as a loop.Memory.
type sessionMemory struct{ p *Project }

func (m sessionMemory) Revalidate(ctx context.Context) error {
	_, err := m.p.Refresh(ctx)
	return err
}

func (m sessionMemory) JustifyRetrieval(ctx context.Context, scope, query string, ans *planner.Answer) (string, error) {
	key := fmt.Sprintf("%s/retrieval:%016x", scope, xxhash.Sum64String(query))
	return m.p.justifyAnswer(ctx, tms.KindRetrieval, key, query, ans, m.p.proj.Snapshot(), nil)
}

func (m sessionMemory) JustifyContext(ctx context.Context, scope string, ref ContextRef, retrievalID string) (string, error) {
	gen := int64(0)
	if v, ok := m.p.proj.Version(ref.Path); ok && v.Hash == ref.ContentHash {
		gen = v.Generation
	}
	r, err := m.p.mem.store.Justify(ctx, tms.Conclusion{Key: fmt.Sprintf("%s/context:%s:%d-%d", scope, ref.Path, ref.StartLine, ref.EndLine),
		Kind: tms.KindContext, Title: textclip.Clip(ref.String(), 200), Premises: []tms.Premise{tms.Source(ref.Path, ref.ContentHash, gen)},
		Antecedents: []string{retrievalID}})
	if err != nil {
		return "", fmt.Errorf("rlm: truth maintenance: %w", err)
	}
	return r.ID, nil
}

func (m sessionMemory) Records(ctx context.Context, ids []string) (map[string]tms.Record, error) {
	out := map[string]tms.Record{}
	for _, id := range ids {
		r, err := m.p.mem.store.Get(ctx, id)
		if errors.Is(err, tms.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[id] = r
	}
	return out, nil
}

func (m sessionMemory) Forget(ctx context.Context, scope string) error {
	_, err := m.p.mem.store.Forget(ctx, scope+"/")
	return err
}
