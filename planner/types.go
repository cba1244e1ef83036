package planner

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/retrieval"
)

// Because is one fired rule and the premises it rested on, each written as
// a term (strings double-quoted).
type Because struct {
	Rule     string   `json:"rule"`
	Premises []string `json:"premises"`
}

// Step is one retrieval step as the rules planned it: step(Strategy, Args,
// Role) decoded and checked against the closed vocabulary of
// bridge/steps.go.
type Step struct {
	Strategy        string `json:"strategy"`
	Role            string `json:"role"` // "evidence" or "check"
	Name            string `json:"name,omitempty"`
	Text            string `json:"text,omitempty"`
	Path            string `json:"path,omitempty"`
	Relation        string `json:"relation,omitempty"`
	CaseInsensitive bool   `json:"case_insensitive,omitempty"`
	// Near (spelling(near), exact only): when no name matches in either
	// case, the nearest names within retrieval.NearEdits (a misspelling).
	Near         bool   `json:"near,omitempty"`
	Kind         string `json:"kind,omitempty"`
	Language     string `json:"language,omitempty"`
	ExcludeTests bool   `json:"exclude_tests,omitempty"`
	OnlyTests    bool   `json:"only_tests,omitempty"`
	// ExcludeExamples and OnlyExamples: examples(exclude), examples(only).
	ExcludeExamples bool `json:"exclude_examples,omitempty"`
	OnlyExamples    bool `json:"only_examples,omitempty"`
	// Demote holds the roles of the step's demote(R) arguments (one of
	// bridge.DemotableRoles each, in the order written): their
	// definitions rank after all others (retrieval.SearchDemoting).
	Demote []string `json:"demote,omitempty"`
	// Quoted and Named are the exact references demotion spares
	// (retrieval.Demotion): quoted(T), a demoted definition whose doc
	// comment starts with T keeps its rank; named(N), one named N does.
	Quoted string   `json:"quoted,omitempty"`
	Named  []string `json:"named,omitempty"`
	// Changed keeps the definitions whose file changed after a project
	// generation: a decimal generation, or bridge.ChangedLast (the
	// generation before the snapshot's own, Plan.Generation - 1).
	Changed string `json:"changed,omitempty"`
	// Parser keeps the definitions one parser extracted (one of
	// bridge.ParserNames).
	Parser string `json:"parser,omitempty"`
	// Resolved (match(resolved), graph callers only) keeps the calls
	// resolved to the name's definitions, none matched by name alone.
	Resolved bool `json:"resolved,omitempty"`
	// Emphasis (emphasis(doc)) has the step's BM25 weigh doc comments
	// more: retrieval.Request.Emphasis.
	Emphasis string `json:"emphasis,omitempty"`
	// NamePart (name_part(N), lexical steps) keeps the hits whose name
	// holds every word of N (NameHolds), in the step's BM25 order.
	NamePart string `json:"name_part,omitempty"`
	// TypesFirst (types(first)) ranks the step's type definitions first
	// and brings in the types its hits are members of
	// (retrieval.TypesFirst).
	TypesFirst bool `json:"types_first,omitempty"`
	term       any  // the step as the rules wrote it, handed back in result/3
}

// String renders the step compactly, e.g. `graph(callers, "ServeHTTP")`.
func (s Step) String() string {
	var args []string
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
	if s.Kind != "" {
		args = append(args, "kind="+s.Kind)
	}
	if s.Language != "" {
		args = append(args, "language="+s.Language)
	}
	if s.CaseInsensitive {
		args = append(args, "case-insensitive")
	}
	if s.Near {
		args = append(args, "near-spelling")
	}
	if s.ExcludeTests {
		args = append(args, "no-tests")
	}
	if s.OnlyTests {
		args = append(args, "tests-only")
	}
	if s.ExcludeExamples {
		args = append(args, "no-examples")
	}
	if s.OnlyExamples {
		args = append(args, "examples-only")
	}
	for _, r := range s.Demote {
		args = append(args, "demote="+r)
	}
	// What demotion spares, not what the query looks like: quoted(T)
	// keeps a definition whose doc comment T quotes, named(N) one named N.
	if s.Quoted != "" {
		args = append(args, "spare=doc-start")
	}
	for _, n := range s.Named {
		args = append(args, "spare="+n)
	}
	if s.Changed != "" {
		args = append(args, "changed-since="+s.Changed)
	}
	if s.Parser != "" {
		args = append(args, "parser="+s.Parser)
	}
	if s.Resolved {
		args = append(args, "resolved")
	}
	if s.Emphasis != "" {
		args = append(args, "weigh="+s.Emphasis)
	}
	if s.NamePart != "" {
		args = append(args, "name-holds="+s.NamePart)
	}
	if s.TypesFirst {
		args = append(args, "types-first")
	}
	return s.Strategy + "(" + strings.Join(args, ", ") + ")"
}

// Request maps the step onto a retrieval request of at most limit hits
// over the snapshot of project generation gen (which resolves
// changed(last); 0: unknown). Demote is not part of it: the step runs
// through retrieval.SearchDemoting with it. Error: ErrNoGeneration for
// changed(last) without a generation.
func (s Step) Request(limit int, gen int64) (retrieval.Request, error) {
	req := retrieval.Request{
		Strategy: retrieval.Strategy(s.Strategy), Limit: limit, Name: s.Name, Text: s.Text,
		CaseInsensitive: s.CaseInsensitive, Near: s.Near, Relation: retrieval.Relation(s.Relation), Resolved: s.Resolved,
		Emphasis: retrieval.Emphasis(s.Emphasis),
	}
	if s.Path != "" {
		req.Filter.PathPrefixes = pathPrefixes(s.Path)
	}
	if s.Kind != "" {
		req.Filter.Kinds = []string{s.Kind}
	}
	if s.Language != "" {
		req.Filter.Languages = []string{s.Language}
	}
	req.Filter.ExcludeTests, req.Filter.OnlyTests = s.ExcludeTests, s.OnlyTests
	if s.ExcludeExamples {
		req.Filter.ExcludeRoles = []string{retrieval.RoleExample}
	}
	if s.OnlyExamples {
		req.Filter.Roles = []string{retrieval.RoleExample}
	}
	if s.Parser != "" {
		req.Filter.Parsers = []string{s.Parser}
	}
	switch s.Changed {
	case "":
	case bridge.ChangedLast:
		if gen <= 0 {
			return req, fmt.Errorf("%w: step %s", ErrNoGeneration, s)
		}
		req.Filter.ChangedSince = gen - 1
	default:
		n, err := strconv.ParseInt(s.Changed, 10, 64)
		if err != nil || n < 0 {
			return req, fmt.Errorf("%w: step %s: changed must be a generation or last", ErrBadRules, s)
		}
		req.Filter.ChangedSince = n
	}
	return req, nil
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

// Plan is the rules' plan for a query, before any search.
type Plan struct {
	Query string `json:"query"`
	Class string `json:"class"`
	Steps []Step `json:"steps"`
	// Because holds the class rule first, then one entry per step (the
	// rule that planned it), in step order.
	Because []Because `json:"because"`
	// Generation is the project generation of the snapshot the plan runs
	// against, set by the caller before Run (store.Identity.Generation;
	// 0: unknown). A step with changed(last) needs it.
	Generation int64 `json:"-"`
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

// Hit is one answer line: a definition with its location (path relative to
// the index root, lines 1-based inclusive), the score as its strategy gave
// it and that score's kind (see retrieval.ScoreKind), and what a host needs
// to cite it in a prompt: a stable id, the signature, the doc comment and
// the content hash of the file it was read from.
type Hit struct {
	// ID is the definition's document id in the search index
	// (retrieval.Document.ID): for a knowledge base's documents
	// retrieval.SymbolDocumentID, "path#Qualified" with "~n" for the nth
	// (from 0) same-named definition of the file, which stays the same
	// while edits shift lines.
	ID        string  `json:"id"`
	Path      string  `json:"path"`
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Symbol    string  `json:"symbol"`
	Qualified string  `json:"qualified,omitempty"`
	Kind      string  `json:"kind"`
	Signature string  `json:"signature,omitempty"` // the definition's first line(s), as extracted
	Doc       string  `json:"doc,omitempty"`       // its doc comment
	Score     float64 `json:"score"`
	ScoreKind string  `json:"score_kind"`
	Strategy  string  `json:"strategy"`
	Lines     []int   `json:"lines,omitempty"` // e.g. call sites, for graph hits
	Test      bool    `json:"test,omitempty"`  // Role is test
	// Role is what the definition is for: source, test or example
	// (retrieval.RoleOf of its document).
	Role string `json:"role"`
	// ContentHash is the content hash of the file the hit was read from
	// (sourcefacts.ContentHash's string form), for citations.
	ContentHash string `json:"content_hash,omitempty"`
	// Match is how a graph hit's calls were matched to the name asked
	// about (retrieval.Match*): "resolved" (through an import, the
	// receiver's declared type or the caller's own scope), "external"
	// (to a module outside the tree: the name has no definition in it)
	// or "name" (by name only); "" for other strategies.
	Match string `json:"match,omitempty"`
}

// ExecutedStep is a step that ran, with what it found and the verdict.
type ExecutedStep struct {
	Step
	Hits    int       `json:"hits"`
	Because []Because `json:"because"` // the verdict, then any fallback/retarget
}

// Answer is the result of Search. Its JSON form is the CLI's --json output.
type Answer struct {
	Query string         `json:"query"`
	Class string         `json:"class"`
	Plan  []ExecutedStep `json:"plan"`
	Hits  []Hit          `json:"hits"`
	// Total is how many distinct definitions the evidence steps found, of
	// which Hits holds the first (at most the limit): "10 of 60". Exact for
	// exact, graph and structural steps; for BM25 and embedding steps, which
	// are asked for the limit only, a lower bound.
	Total int `json:"total"`
	// Explain is the chain of rules that decided, in order: the class rule
	// (or a reused case's), then for each step that ran the rule that
	// planned it (none for a fallback's or a reuse's step), its verdict
	// and the fallback or retarget rule that followed. The rules of
	// planned steps the search never reached are not in it (Plan.Because
	// has them).
	Explain []Because `json:"explain"`
	// Gap is the gap the rules left unfilled (an outcome gap(G) event, or
	// step_limit(N) when MaxSteps ran out), as a term; "" if none.
	Gap string `json:"gap,omitempty"`
	// Resolved is set when the rules answered for a different name than
	// the query's (a case-insensitive or fuzzy match, or the last segment
	// of a qualified name): the answer is about Resolved.To, not
	// Resolved.From. It comes from an outcome resolved/3 event.
	Resolved *Resolution `json:"resolved,omitempty"`
	// ReusedCase is the case whose steps this answer reused instead of a
	// plan (0 if none); the explanation names it (rules/cases/reuse.pl).
	ReusedCase int64 `json:"reused_case,omitempty"`
	// Case is the kept case this answer's evidence came from: the reused
	// case, or the case retained from this search (0 if none). Set by the
	// façade's case base; the citations of an answer built on this
	// evidence revise it.
	Case int64 `json:"case,omitempty"`
	// Sources are the files every step's hits were read from (check steps
	// included), each once, in the order first seen: what the answer
	// rests on, for truth maintenance. Not part of the JSON form.
	Sources []SourceRef `json:"-"`
	// Skipped lists the files of the snapshot that could have held hits
	// but were not parsed (over the size cap), so that an answer says what
	// it could not see. Set by the caller that knows the snapshot (the
	// façade's Search), not by the planner.
	Skipped []SkippedFile `json:"skipped,omitempty"`
	// Notes say what the answer could not do: each step that could not
	// run because a service it needs failed (a retrieval.UnavailableError:
	// "skipped STEP: NOTE", the note safe to show a client; such a step
	// counts as having found nothing, so the rules' fallbacks still run),
	// and a recency filter no file can pass ("changed since generation N:
	// the snapshot is generation G, ...").
	Notes []string `json:"notes,omitempty"`
	// Unwalked lists the paths the walk of the snapshot's tree could not
	// see (a directory it could not read, a special file, a link loop),
	// each with the reason ("open: permission denied"). Set by the caller
	// that knows the snapshot, like Skipped.
	Unwalked []SkippedFile `json:"unwalked,omitempty"`
	// NotCurrent lists, when the knowledge base is read-only, the files
	// whose bytes differ from the generation the answer comes from (new,
	// changed or deleted since), each with the reason. Set by the caller
	// that knows the snapshot, like Skipped.
	NotCurrent []SkippedFile `json:"not_current,omitempty"`
	// Generation is the project generation the answer's snapshot had
	// (Plan.Generation; 0 unknown): what changed(last) meant.
	Generation int64 `json:"-"`
	// Snapshot is the identity of the knowledge-base snapshot the answer
	// was computed from; every hit's ContentHash is its file's hash in
	// that snapshot. Set by the caller that knows the snapshot (the
	// façade's Search), like Skipped; nil when unknown.
	Snapshot *SnapshotID `json:"snapshot,omitempty"`
}

// SnapshotID names a knowledge-base snapshot (store.Identity): its
// project generation and the fingerprint of its file → content hash map,
// 16 lower-case hex digits (the store's XXH64 fingerprint).
type SnapshotID struct {
	Generation  int64  `json:"generation"`
	Fingerprint string `json:"fingerprint"`
}

// String is "generation N (fingerprint F)", as store.Identity prints.
func (s SnapshotID) String() string {
	return fmt.Sprintf("generation %d (fingerprint %s)", s.Generation, s.Fingerprint)
}

// SourceRef is a file a hit was read from and its content hash
// (sourcefacts.ContentHash's string form).
type SourceRef struct {
	Path        string
	ContentHash string
}

// SkippedFile is a file an answer could not see, and why ("too large:
// 5242880 bytes, over the size cap of 4194304").
type SkippedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Resolution records that the query's name was replaced by another.
type Resolution struct {
	From string `json:"from"`
	To   string `json:"to"`
	Rule string `json:"rule"` // the rule that found To, for the explanation
}
