// Package rlm answers questions about a source tree with retrieval planned
// by Prolog rules. Open a tree, then Search, Explain or Plan:
//
//	p, err := rlm.Open(ctx, root, rlm.Options{})
//	defer p.Close()
//	ans, err := p.Search(ctx, "what calls ServeHTTP?", 10)
//
// Open builds or reuses the tree's knowledge base (package project), checks
// it against the files' exact bytes, and loads the rules (package planner,
// rule files in package rules, the interpreter in package engine). Query
// text is only ever data to the rules; every decision in an Answer names
// the rule that made it. NewPlanner plans without a tree.
//
// Options.Embedder nil means BM25 without vectors (the CLI defaults to
// LocalEmbedder). The answer types are defined in package planner (go doc
// github.com/rlm-dev/rlm/planner.Answer); a bad rule file is an
// *engine.LoadError (LoadError here).
package rlm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
	"github.com/rlm-dev/rlm/tms"
)

// Options configure Open and NewPlanner.
type Options struct {
	Rules          string        // directory of .pl files layered over the default rules
	DBPath         string        // knowledge base file; "" means project.DefaultDBPath
	InMemory       bool          // keep the knowledge base in a temporary directory
	Embedder       Embedder      // vectors for hybrid/vector search; nil: BM25 only
	Chroma         *ChromaConfig // keep the vectors in a Chroma server
	RequireCurrent bool          // refuse answers while a file is stale, partial or unparsable
	NoRefresh      bool          // answer from the snapshot of Open without re-checking the files
	IncludeIgnored bool          // index files that .gitignore/.ignore exclude
	MaxFileBytes   int64         // size cap: larger files are skipped, and answers say so (0: 4 MiB; <0: none)
	Inferences     int64         // per-query rule budget (0: the engine's default)
	// RetryVectorsAfter is how long after the embedder failed on a
	// snapshot a later Open or Refresh of it (in this process or another)
	// answers without vectors before calling the embedder again (0:
	// project.RetryVectorsAfter, a minute); see project.VectorFailure.
	RetryVectorsAfter time.Duration
	HostPredicates    []HostPredicate // extra host predicates the rules may call (data only)
	Progress          func(Progress)
	// Memory keeps conclusions with their justifications in a
	// truth-maintenance store beside the knowledge base (MemoryFile):
	// Search serves a repeated question from the cache while its answer
	// is IN, sessions (NewSession) keep their context true across turns,
	// and Conclusions, WhatIf and Why explain them.
	Memory bool
	// Cases keeps cases beside the knowledge base (CasesFile): a question
	// whose evidence took several steps is retained, and a similar later
	// question reuses its evidence steps when the rules
	// (rules/cases/reuse.pl) choose it; the answer's explanation names
	// the case.
	Cases bool
}

// Types of the answers and options, defined in the packages that own them.
type (
	Answer        = planner.Answer
	Hit           = planner.Hit        // one of an Answer's hits: a definition's id, lines, signature, doc, role and its file's content hash
	SnapshotID    = planner.SnapshotID // the snapshot an Answer was computed from: generation and fingerprint
	Explanation   = planner.Explanation
	TableStats    = planner.TableStats // what the plan table (tabling) did
	Planner       = planner.Planner
	Embedder      = retrieval.Embedder
	ChromaConfig  = chroma.Config
	ChromaLimits  = chroma.Limits // what one Chroma record may hold; the rest goes to the overflow collection
	Progress      = project.Progress
	Status        = project.Status
	Binding       = engine.Binding        // one variable of a REPL query and its value
	HostPredicate = engine.Predicate      // a Go predicate registered for the rules
	LoadError     = engine.LoadError      // a rule file refused at load: file, line, column, reason
	SkippedFile   = planner.SkippedFile   // a file an answer could not see (over the size cap), and why
	PathFault     = sourcefacts.PathFault // a path the walk could not see (unreadable directory, special file, link loop), and why
)

// ChromaCloudLimits are Chroma Cloud's per-record quotas (chroma.CloudLimits:
// ids of 128 bytes, metadata keys of 36 and values of 4,096, documents of
// 16,384), for ChromaConfig.Limits when the server is Chroma Cloud.
func ChromaCloudLimits() ChromaLimits { return chroma.CloudLimits() }

// How a graph hit's calls matched the name asked about (Hit.Match).
const (
	MatchResolved = retrieval.MatchResolved // resolved to one of the name's definitions
	MatchExternal = retrieval.MatchExternal // to a module outside the tree: the tree does not define the name
	MatchName     = retrieval.MatchName     // by name only: the syntax does not say whose name it is
)

// ReadOnlyReason starts the reason of an Answer's NotCurrent file: the
// knowledge base is read-only and its bytes changed since its last
// generation.
const ReadOnlyReason = store.ReadOnlyReason

// Errors callers can match with errors.Is.
var (
	ErrQueryTooLarge = planner.ErrQueryTooLarge
	ErrBadRules      = planner.ErrBadRules
	ErrBadPatch      = store.ErrBadPatch // ApplyPatch: a malformed patch, or one that does not apply
	ErrStale         = project.ErrStale  // ReadSource: the file is no longer the bytes a hit was read from
)

// Limits: query text, a line typed at the REPL, and hits per search (0
// means DefaultLimit; more than MaxLimit is an error).
const (
	MaxQueryBytes     = planner.MaxQueryBytes
	MaxReplQueryBytes = engine.MaxQueryTextBytes
	DefaultLimit      = retrieval.DefaultLimit
	MaxLimit          = retrieval.MaxLimit
)

// Project is an open tree: its knowledge base, search index and rules.
// Safe for concurrent use.
type Project struct {
	opts    Options
	proj    *project.Project
	planner *planner.Planner
	mu      sync.Mutex // serialises Refresh (and the memory's relabelling with it)
	comp    compilerOnce
	mem     *memory   // nil unless Options.Memory
	cases   *caseBase // nil unless Options.Cases
	plans   *planner.Table
}

// Open loads the rules and opens root's knowledge base and search index
// (building them the first time). Errors: *engine.LoadError for bad rule
// files, and project.Open's.
func Open(ctx context.Context, root string, opts Options) (*Project, error) {
	// Rules first: a bad rule file is reported before any indexing.
	caps := project.Capabilities(projectOptions(opts))
	pl, err := planner.New(plannerOptions(opts, caps))
	if err != nil {
		return nil, err
	}
	proj, err := project.Open(ctx, root, projectOptions(opts))
	if err != nil {
		return nil, err
	}
	if got := proj.Capabilities(); !slices.Equal(got.Strategies, caps.Strategies) || got.Embedder != caps.Embedder {
		if pl, err = planner.New(plannerOptions(opts, got)); err != nil {
			proj.Close()
			return nil, err
		}
	}
	p := &Project{opts: opts, proj: proj, planner: pl, plans: planner.NewTable(0)}
	if opts.Cases {
		if err := p.openCases(ctx); err != nil {
			proj.Close()
			return nil, err
		}
	}
	if opts.Memory {
		if err := p.openMemory(ctx); err != nil {
			p.Close()
			return nil, err
		}
	}
	return p, nil
}

// NewPlanner loads the rules for planning without a tree, for the
// capabilities that Open with the same Options would have.
func NewPlanner(opts Options) (*Planner, error) {
	return planner.New(plannerOptions(opts, project.Capabilities(projectOptions(opts))))
}

// Search checks the snapshot (unless NoRefresh), then plans query, runs the
// plan and returns up to limit hits (0: DefaultLimit; at most MaxLimit).
func (p *Project) Search(ctx context.Context, query string, limit int) (*Answer, error) {
	ans, _, err := p.checkedAnswer(ctx, query, limit)
	return ans, err
}

// checkedAnswer refuses bad input before the tree is checked, then
// refreshes (unless NoRefresh) and answers.
func (p *Project) checkedAnswer(ctx context.Context, query string, limit int) (*Answer, bool, error) {
	if len(query) > MaxQueryBytes {
		return nil, false, fmt.Errorf("%w: %d bytes, limit %d", ErrQueryTooLarge, len(query), MaxQueryBytes)
	}
	if _, err := retrieval.NormalizeLimit(limit); err != nil {
		return nil, false, err
	}
	if err := p.refresh(ctx); err != nil {
		return nil, false, err
	}
	return p.answer(ctx, query, limit)
}

// answer is Search after the refresh: the cached answer if one is IN
// (served true), else the planner's, kept when Memory is on.
func (p *Project) answer(ctx context.Context, query string, limit int) (*Answer, bool, error) {
	if p.mem == nil {
		ans, _, err := p.search(ctx, query, limit)
		return ans, false, err
	}
	key := p.answerKey(query, limit)
	if ans, ok := p.recall(ctx, key); ok {
		return ans, true, nil
	}
	ans, id, err := p.search(ctx, query, limit)
	if err != nil {
		return nil, false, err
	}
	p.mem.computed.Add(1)
	value, err := json.Marshal(ans)
	if err != nil {
		return nil, false, fmt.Errorf("rlm: %w", err)
	}
	if _, err := p.justifyAnswer(ctx, tms.KindAnswer, key, query, ans, id, value); err != nil {
		return nil, false, err
	}
	return ans, false, nil
}

// search runs the planner on the current snapshot and returns its answer
// and that snapshot's identity. A search index found damaged on the way
// (project.ErrCorruptIndex: View removed it) is made again by a Refresh
// and the search runs once more.
func (p *Project) search(ctx context.Context, query string, limit int) (*Answer, store.Identity, error) {
	ans, at, err := p.searchOnce(ctx, query, limit)
	if errors.Is(err, project.ErrCorruptIndex) {
		if _, rerr := p.proj.Refresh(ctx); rerr == nil {
			ans, at, err = p.searchOnce(ctx, query, limit)
		}
	}
	return ans, at, err
}

func (p *Project) searchOnce(ctx context.Context, query string, limit int) (*Answer, store.Identity, error) {
	var ans *Answer
	var at store.Identity
	err := p.proj.View(func(b retrieval.Backend, id store.Identity) (err error) {
		at = id
		plan, _, err := p.planner.PlanTabled(ctx, p.plans, b, id.String(), query)
		if err != nil {
			return err
		}
		plan.Generation = id.Generation
		if p.cases != nil {
			ans, err = p.searchCases(ctx, b, id, plan, limit)
		} else {
			ans, err = p.planner.Run(ctx, b, plan, limit)
		}
		return err
	})
	if ans != nil {
		ans.Snapshot = snapshotID(at)
		ans.Skipped = tooLarge(p.proj.Skipped())
		for _, f := range p.proj.Faults() {
			ans.Unwalked = append(ans.Unwalked, planner.SkippedFile{Path: f.Path, Reason: f.Reason()})
		}
		for _, f := range p.proj.ReadOnlyPending() {
			ans.NotCurrent = append(ans.NotCurrent, planner.SkippedFile{Path: f.Path, Reason: f.Error})
		}
	}
	return ans, at, err
}

// snapshotID is id as an Answer carries it.
func snapshotID(id store.Identity) *SnapshotID {
	return &SnapshotID{Generation: id.Generation, Fingerprint: fmt.Sprintf("%016x", id.Fingerprint)}
}

// tooLarge lists the skipped files whose facts could have been hits: those
// over the size cap (a Perl .pl or a bash script never could).
func tooLarge(fs []store.FileState) []planner.SkippedFile {
	var out []planner.SkippedFile
	for _, f := range fs {
		if strings.HasPrefix(f.Error, sourcefacts.SkipTooLarge) {
			out = append(out, planner.SkippedFile{Path: f.Path, Reason: f.Error})
		}
	}
	return out
}

// PlanTableStats counts what the project's plan table did: Search plans
// a question's feature term once per snapshot (planner.Table, tabling)
// and plans again once the snapshot changed.
func (p *Project) PlanTableStats() TableStats { return p.plans.Stats() }

// Explain returns the plan Search would run and what the rules would do
// on each gap, without searching.
// The plan is made against the current snapshot (words it knows as symbol
// names are identifiers), as Search makes it.
func (p *Project) Explain(ctx context.Context, query string) (*Explanation, error) {
	var e *Explanation
	err := p.proj.View(func(b retrieval.Backend, _ store.Identity) (err error) {
		e, err = p.planner.ExplainFor(ctx, b, query)
		return err
	})
	return e, err
}

// Plan returns the plan Search would run, against the current snapshot.
func (p *Project) Plan(ctx context.Context, query string) (*planner.Plan, error) {
	var pl *planner.Plan
	err := p.proj.View(func(b retrieval.Backend, _ store.Identity) (err error) {
		pl, err = p.planner.PlanFor(ctx, b, query)
		return err
	})
	return pl, err
}

// Refresh moves to a new snapshot if the files changed; it reports whether
// they did.
func (p *Project) Refresh(ctx context.Context) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	changed, err := p.proj.Refresh(ctx)
	if err != nil || !changed {
		return changed, err
	}
	_, err = p.syncMemory(ctx)
	return true, err
}

func (p *Project) refresh(ctx context.Context) error {
	if p.opts.NoRefresh {
		return nil
	}
	_, err := p.Refresh(ctx)
	return err
}

// Root, Snapshot, Stats and FileHash (a file's content hash, "" and false
// if the snapshot has no such file) describe the tree and its current
// snapshot.
func (p *Project) Root() string             { return p.proj.Root() }
func (p *Project) DBPath() string           { return p.proj.DBPath() }
func (p *Project) Snapshot() store.Identity { return p.proj.Snapshot() }
func (p *Project) Stats() project.Stats     { return p.proj.Stats() }

// VectorState is how the Chroma collection stood against the search
// index at its last open, repairs included (project.VectorState); false
// without Options.Chroma.
func (p *Project) VectorState() (project.VectorState, bool) { return p.proj.VectorState() }

// Faults lists the paths the last validation's walk could not see, by
// path; the rest of the tree is indexed.
func (p *Project) Faults() []PathFault                 { return p.proj.Faults() }
func (p *Project) FileHash(path string) (string, bool) { return p.proj.FileHash(path) }

// VectorsUnavailable is "" or why the search index has no vectors although
// Options.Embedder is set ("the embedder M failed (KIND)", safe to show):
// vector and hybrid steps are then skipped with a note (Answer.Notes)
// until the embedder answers again. The failure is recorded beside the
// knowledge base (project.VectorFailure, shown by Status), so later
// processes do not call the same embedder on that snapshot before
// project.RetryVectorsAfter has passed.
func (p *Project) VectorsUnavailable() string { return p.proj.VectorsUnavailable() }

// Status validates the files and reports the knowledge base's state: the
// snapshot, counts and every file that is not current (as ReadStatus).
func (p *Project) Status(ctx context.Context) (*Status, error) { return p.proj.Status(ctx) }

// Planner is the project's planner (for the REPL and rule tests).
func (p *Project) Planner() *Planner { return p.planner }

// Close releases the truth-maintenance store, the search index and the
// knowledge base.
func (p *Project) Close() error {
	var err error
	if p.mem != nil {
		err = p.mem.store.Close()
	}
	if p.cases != nil {
		err = errors.Join(err, p.cases.store.Close())
	}
	return errors.Join(err, p.proj.Close())
}

// ReadStatus checks root's knowledge base against the files and reports
// its state, without building a search index.
func ReadStatus(ctx context.Context, root string, opts Options) (*Status, error) {
	return project.ReadStatus(ctx, root, projectOptions(opts))
}

func projectOptions(o Options) project.Options {
	return project.Options{DBPath: o.DBPath, InMemory: o.InMemory, Embedder: o.Embedder, Chroma: o.Chroma,
		RequireCurrent: o.RequireCurrent, Progress: o.Progress, Files: sourcefacts.Lister{IncludeIgnored: o.IncludeIgnored},
		MaxFileBytes: o.MaxFileBytes, RetryVectorsAfter: o.RetryVectorsAfter}
}

func plannerOptions(o Options, caps retrieval.Capabilities) planner.Options {
	return planner.Options{RulesDir: o.Rules, Inferences: o.Inferences, Predicates: o.HostPredicates, Capabilities: caps}
}

// DefinitionKinds returns the kinds a definition (a hit's Kind) can have,
// sourcefacts.Kinds: function, method, type, interface, struct, constant,
// variable, field, class, module, macro, enum, predicate, prototype and
// declaration.
func DefinitionKinds() []string { return slices.Clone(sourcefacts.Kinds) }
