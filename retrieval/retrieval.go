// Package retrieval is the backend-neutral retrieval contract: documents,
// requests, filters, hits that keep their score kind, capabilities, and the
// Backend interface (Search, Fetch, Upsert, Delete). It knows nothing of
// Prolog or of any one store; the embedded SQLite backend lives in
// retrieval/embedded and the Chroma one in retrieval/chroma.
package retrieval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/internal/textclip"
)

// Strategy names a way of finding evidence.
type Strategy string

// The strategies of the contract.
const (
	Exact      Strategy = "exact"      // symbol name equality (case-sensitive first)
	Lexical    Strategy = "lexical"    // BM25 over symbol-level chunks
	Vector     Strategy = "vector"     // embedding similarity
	Structural Strategy = "structural" // symbol kinds, containment, paths
	Graph      Strategy = "graph"      // calls, references, imports
	Hybrid     Strategy = "hybrid"     // reciprocal rank fusion of others
)

// ScoreKind says what a Hit's Score means and which direction is better.
// Scores of different kinds are never compared or rescaled onto one scale;
// fusion works on ranks (see FuseRRF).
type ScoreKind string

// Score kinds.
const (
	// ScoreExact: 1 for a case-sensitive match, 0.5 for a case-insensitive
	// one, 0.25 / edits for a near one (Request.Near). Higher is better.
	ScoreExact ScoreKind = "exact"
	// ScoreBM25: the BM25 relevance, sign-flipped from SQLite FTS5's bm25()
	// (which returns more-negative-is-better) so that higher is better.
	ScoreBM25 ScoreKind = "bm25"
	// ScoreCosineSimilarity: cosine similarity in [-1, 1]; higher is better.
	ScoreCosineSimilarity ScoreKind = "cosine_similarity"
	// ScoreL2Distance: Euclidean (or squared, as the backend documents)
	// distance; lower is better.
	ScoreL2Distance ScoreKind = "l2_distance"
	// ScoreRank: a fused reciprocal-rank score; higher is better.
	ScoreRank ScoreKind = "rank"
	// ScoreCount: the number of matching edges (graph); higher is better.
	ScoreCount ScoreKind = "count"
)

// HigherIsBetter reports the direction of the score kind.
func (k ScoreKind) HigherIsBetter() bool { return k != ScoreL2Distance }

// Document is one retrievable unit: for source code, one definition
// (function, method, type, ...) with its location and indexed text.
type Document struct {
	ID        string `json:"id"`                  // stable within a backend; see DocumentID
	Path      string `json:"path"`                // slash-separated, relative to the project root
	StartLine int    `json:"start_line"`          // 1-based, inclusive
	EndLine   int    `json:"end_line"`            // 1-based, inclusive
	Symbol    string `json:"symbol"`              // the definition's name, e.g. "ServeHTTP"
	Qualified string `json:"qualified,omitempty"` // e.g. "Server.ServeHTTP"
	Kind      string `json:"kind"`                // function, method, type, interface, ...
	Language  string `json:"language,omitempty"`
	Signature string `json:"signature,omitempty"`
	Doc       string `json:"doc,omitempty"`
	// Text is what lexical and vector strategies index (split name, doc,
	// signature, path).
	Text        string `json:"text,omitempty"`
	ContentHash string `json:"content_hash,omitempty"` // the file's sourcefacts.ContentHash string
	Test        bool   `json:"test,omitempty"`         // Role is RoleTest
	// Role is what the definition is for: RoleSource, RoleTest or
	// RoleExample (sourcefacts' roles: its file's by the language's
	// conventions, or its own, e.g. a Go Example function). "" is unknown:
	// RoleOf reads it from Test.
	Role string `json:"role,omitempty"`
	// Changed is the project generation in which the document's file
	// last changed (its bytes, or the facts extracted from them); 0 when
	// unknown. Provenance, for Filter.ChangedSince.
	Changed int64 `json:"changed,omitempty"`
	// Parser is the parser that extracted the document, "name/version"
	// (sourcefacts.Provenance.Parser, e.g. "tree-sitter/0.25.0"); "" when
	// unknown. Provenance, for Filter.Parsers.
	Parser string `json:"parser,omitempty"`
	// Refs are the names this definition uses, for the graph strategy.
	Refs []Ref `json:"refs,omitempty"`
	// NameWords are more words of the name, lowercase, for lexical search
	// to match as it matches the name's own parts: the words a compound
	// part of the name is written as ("getaddrlist" → get, addrlist, addr,
	// list; the project splits names into its tree's vocabulary). A
	// backend indexes them with the name and keeps them as given.
	NameWords []string          `json:"name_words,omitempty"`
	Metadata  map[string]string `json:"metadata,omitempty"`
}

// Roles of a Document (the values of sourcefacts.RoleSource, RoleTest
// and RoleExample).
const (
	RoleSource  = "source"
	RoleTest    = "test"
	RoleExample = "example"
)

// RoleOf is d's role: d.Role, or for a document without one RoleTest
// when d.Test is set, else RoleSource. Filters and demotion read roles
// through it.
func RoleOf(d Document) string {
	switch {
	case d.Role != "":
		return d.Role
	case d.Test:
		return RoleTest
	}
	return RoleSource
}

// DocumentID builds the id "path#qualified@startLine": unique, but it
// changes whenever lines above the definition are added or removed. A
// store that outlives one snapshot (a Chroma collection) wants
// SymbolDocumentID.
func DocumentID(path, qualified string, startLine int) string {
	return fmt.Sprintf("%s#%s@%d", path, qualified, startLine)
}

// SymbolDocumentID builds the id "path#qualified" of the nth (0-based, in
// source order) definition of qualified in the file at path, with "~n"
// appended for n ≥ 1 (overloads, redefinitions, #if branches): it stays
// the same while edits shift lines, so a record written for an earlier
// version of the file is replaced, not left behind.
func SymbolDocumentID(path, qualified string, nth int) string {
	if nth == 0 {
		return path + "#" + qualified
	}
	return fmt.Sprintf("%s#%s~%d", path, qualified, nth)
}

// Ref is one use of a name inside a Document.
type Ref struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // "call" or "type" (sourcefacts.RefCall, RefType)
	Line int    `json:"line"` // 1-based
	// Via, Scope and Type say what a call resolved to
	// (sourcefacts.CallTarget). Via is how: "import", "receiver" or
	// "scope" (sourcefacts.Via*), "local" for a call of a local function
	// value, "" by name only. Scope is the callee's scope, in the form of
	// the defining Document's Metadata[MetaScope], or "ext:" and the
	// module as imported when it is outside the indexed tree; Type the
	// callee's type (class, struct) in Scope, "" for a top-level
	// function.
	Via   string `json:"via,omitempty"`
	Scope string `json:"scope,omitempty"`
	Type  string `json:"type,omitempty"`
}

// Document metadata keys the graph strategy reads (Document.Metadata).
const (
	// MetaScope is the scope of the document's definition (a Go
	// package, a module; sourcefacts.Scopes.Of): what Ref.Scope names.
	MetaScope = "scope"
	// MetaModule is the name a qualifier uses for that scope: the Go
	// package name, the module's last name ("json" in
	// "json.Unmarshal").
	MetaModule = "module"
	// MetaInternal is "true" on a document whose definition lives in an
	// internal package by its language's convention
	// (sourcefacts.InternalPath: Go's internal/ directories), absent
	// otherwise; IsInternal reads it.
	MetaInternal = "internal"
)

// Internal names, in a Demotion's Roles (and the rules' demote(internal)
// step argument), the definitions of internal packages (IsInternal)
// rather than a role: it ranks them after the others whatever their role.
const Internal = "internal"

// IsInternal reports whether d's definition lives in an internal package
// (Metadata[MetaInternal] is "true").
func IsInternal(d Document) bool { return d.Metadata[MetaInternal] == "true" }

// ExternalScope is the prefix of a Ref.Scope outside the indexed tree.
const ExternalScope = "ext:"

// Relation selects the edges the graph strategy follows.
type Relation string

// Graph relations.
const (
	Callers    Relation = "callers"    // documents containing a call to Name
	Callees    Relation = "callees"    // names called from the documents named Name
	References Relation = "references" // documents that use Name in any way
)

// Filter narrows any strategy that can honour it (see Capabilities).
// Empty fields do not filter.
type Filter struct {
	PathPrefixes []string `json:"path_prefixes,omitempty"`
	Kinds        []string `json:"kinds,omitempty"`
	Languages    []string `json:"languages,omitempty"`
	ExcludeTests bool     `json:"exclude_tests,omitempty"`
	OnlyTests    bool     `json:"only_tests,omitempty"` // only documents of test files
	// Roles keeps the documents whose role (RoleOf) is one of these;
	// ExcludeRoles leaves out those whose role is one of these. Empty
	// does not filter. ExcludeTests is ExcludeRoles holding RoleTest,
	// OnlyTests Roles holding only RoleTest.
	Roles        []string `json:"roles,omitempty"`
	ExcludeRoles []string `json:"exclude_roles,omitempty"`
	// ChangedSince keeps the documents whose Changed is above it: those
	// whose file changed after project generation ChangedSince. 0 does
	// not filter (every indexed file changed after the empty generation 0).
	ChangedSince int64 `json:"changed_since,omitempty"`
	// Parsers keeps the documents extracted by one of these parsers, each
	// a parser's name: Document.Parser equal to it or starting with it
	// and "/" (ParserName). Empty does not filter.
	Parsers []string `json:"parsers,omitempty"`
}

// ParserName is the name part of a Document.Parser "name/version":
// "tree-sitter" for "tree-sitter/0.25.0"; the whole string if it has no
// "/".
func ParserName(parser string) string {
	if i := strings.IndexByte(parser, '/'); i >= 0 {
		return parser[:i]
	}
	return parser
}

// Request asks one strategy for hits.
type Request struct {
	Strategy Strategy `json:"strategy"`
	// Text is free text for lexical, vector and hybrid strategies.
	Text string `json:"text,omitempty"`
	// Name is a symbol name for exact and graph strategies. Exact also
	// matches "Recv.Name" qualified names.
	Name string `json:"name,omitempty"`
	// CaseInsensitive lets exact fall back to case-insensitive matching.
	CaseInsensitive bool `json:"case_insensitive,omitempty"`
	// Near lets exact fall back, when no name matches in either case, to
	// the names nearest to Name within NearEdits(Name) edits (a
	// misspelling: "findHandlr" for findHandler), all the definitions of
	// those names and of no farther one. Exact only (other strategies
	// ignore it); a backend that cannot answers as without it.
	Near     bool     `json:"near,omitempty"`
	Relation Relation `json:"relation,omitempty"` // graph only
	// Resolved keeps, for graph Callers only, the calls that resolve to
	// the name's definitions (or, for a name the tree does not define,
	// to a module outside it): none matched by name alone (Hit.Match
	// MatchName). Any other request with it is an ErrBadRequest.
	Resolved bool `json:"resolved,omitempty"`
	// Emphasis says which part of a document a lexical ranking weighs
	// more than its default ("" or EmphasisDoc); it applies to the BM25
	// of lexical and hybrid requests and of an exact request ranked by its
	// text, and other strategies ignore it. Any other value is an
	// ErrBadRequest.
	Emphasis Emphasis `json:"emphasis,omitempty"`
	Limit    int      `json:"limit"` // 1..MaxLimit; 0 means DefaultLimit
	Filter   Filter   `json:"filter"`
}

// NearEdits is the most edits a near name (Request.Near) may be from
// name: the optimal string alignment distance (Damerau–Levenshtein
// without editing a substring twice: an insertion, deletion or
// substitution of one character, or a swap of two adjacent ones, is one
// edit), compared without case. A name of fewer than 4 characters has
// no near names (too many are an edit apart), one of 4 to 7 allows 1
// edit, a longer one 2 — the bounds spelling correctors commonly use.
func NearEdits(name string) int {
	switch n := utf8.RuneCountInString(name); {
	case n < 4:
		return 0
	case n < 8:
		return 1
	default:
		return 2
	}
}

// Emphasis is the closed vocabulary of Request.Emphasis.
type Emphasis string

// EmphasisDoc: the text describes what a definition does (a description
// of it), so a definition's doc comment weighs more in the ranking than
// by default, against its name.
const EmphasisDoc Emphasis = "doc"

// Limits of the contract.
const (
	DefaultLimit = 10
	MaxLimit     = 1000
	// MaxQueryBytes bounds Request.Text and Request.Name.
	MaxQueryBytes = 64 << 10
)

// NormalizeLimit is the contract's one result-limit policy: 0 means
// DefaultLimit, 1..MaxLimit is kept, anything else is an error wrapping
// ErrBadRequest. Every entry point that takes a number of results (Request
// Limit, QueryVector's n, the planner's and the CLI's limit) applies it.
func NormalizeLimit(n int) (int, error) {
	if n == 0 {
		return DefaultLimit, nil
	}
	if n < 0 || n > MaxLimit {
		return n, fmt.Errorf("%w: limit %d outside 1..%d", ErrBadRequest, n, MaxLimit)
	}
	return n, nil
}

// Hit is one ranked result. Its Document is the stored document without
// its Refs (nil in every backend: a hit's references are not read, as no
// ranking or answer needs them; Fetch returns the whole document).
type Hit struct {
	Document  Document  `json:"document"`
	Score     float64   `json:"score"`
	ScoreKind ScoreKind `json:"score_kind"`
	Strategy  Strategy  `json:"strategy"`
	Rank      int       `json:"rank"` // 1-based position in its own result list
	// Lines are 1-based lines inside Document that made it match (for graph:
	// the call sites), if the strategy knows them.
	Lines []int `json:"lines,omitempty"`
	// Match says how a graph hit's edges were matched to the name asked
	// about (Match* constants); "" for other strategies.
	Match string `json:"match,omitempty"`
}

// How a graph hit's calls were matched (Hit.Match).
const (
	// MatchResolved: a call in the document resolves (through an
	// import, a declared receiver type or the caller's own scope) to a
	// definition the name denotes.
	MatchResolved = "resolved"
	// MatchExternal: the name has no definition in the indexed tree; the
	// calls resolve to a module outside it.
	MatchExternal = "external"
	// MatchName: the calls only have the name; the syntax does not say
	// whose it is.
	MatchName = "name"
)

// Capabilities says what a backend can do.
type Capabilities struct {
	Strategies []Strategy `json:"strategies"`
	Filters    bool       `json:"filters"`
	MaxLimit   int        `json:"max_limit"`
	// Embedder is the nature of the embedder that scores the vector and
	// hybrid strategies (EmbedderNature): EmbedderLexical or
	// EmbedderLearned; "" when the backend has no vector strategy. The
	// retrieval rules read it to decide when vector evidence is trusted.
	Embedder string `json:"embedder,omitempty"`
}

// Embedder natures, the closed vocabulary of Capabilities.Embedder.
const (
	// EmbedderLexical: the vectors are computed from the text's own words
	// and character n-grams (a hashing embedder such as providers'
	// LocalEmbedder), so similarity is word overlap, the evidence BM25
	// already has.
	EmbedderLexical = "lexical"
	// EmbedderLearned: a trained model (a remote embedding endpoint), so
	// similarity can relate texts that share no word.
	EmbedderLearned = "learned"
)

// NatureReporter is implemented by an embedder that says what its vectors
// are made of: Nature returns EmbedderLexical or EmbedderLearned.
type NatureReporter interface {
	Nature() string
}

// EmbedderNature is e's nature for Capabilities.Embedder: "" for a nil
// embedder, the value of its Nature method if it has one from the
// vocabulary (EmbedderLexical, EmbedderLearned), else EmbedderLearned (an
// embedder that does not say is taken for a trained model, the reason to
// configure one).
func EmbedderNature(e Embedder) string {
	if e == nil {
		return ""
	}
	if n, ok := e.(NatureReporter); ok && n.Nature() == EmbedderLexical {
		return EmbedderLexical
	}
	return EmbedderLearned
}

// Supports reports whether s is among c.Strategies.
func (c Capabilities) Supports(s Strategy) bool {
	for _, x := range c.Strategies {
		if x == s {
			return true
		}
	}
	return false
}

// Backend is a retrieval store. Implementations are safe for concurrent use.
// Errors wrap the sentinel errors below where they apply.
type Backend interface {
	// Search ranks the stored documents for req; hits carry no Refs.
	Search(ctx context.Context, req Request) ([]Hit, error)
	// Fetch returns whole stored documents, Refs included.
	Fetch(ctx context.Context, ids []string) ([]Document, error)
	Upsert(ctx context.Context, docs []Document) error
	Delete(ctx context.Context, ids []string) error
	Capabilities() Capabilities
	Close() error
}

// Sentinel errors; match with errors.Is.
var (
	ErrUnsupported = errors.New("retrieval: strategy not supported by backend")
	ErrBadRequest  = errors.New("retrieval: bad request")
	ErrTooLarge    = errors.New("retrieval: input too large")
)

// Normalize validates req and fills defaults. It returns an error wrapping
// ErrBadRequest or ErrTooLarge.
func (req Request) Normalize() (Request, error) {
	var err error
	if req.Limit, err = NormalizeLimit(req.Limit); err != nil {
		return req, err
	}
	if len(req.Text) > MaxQueryBytes || len(req.Name) > MaxQueryBytes {
		return req, fmt.Errorf("%w: query over %d bytes", ErrTooLarge, MaxQueryBytes)
	}
	if req.Filter.ChangedSince < 0 {
		return req, fmt.Errorf("%w: filter ChangedSince %d is negative", ErrBadRequest, req.Filter.ChangedSince)
	}
	switch req.Strategy {
	case Exact:
		if req.Name == "" {
			return req, fmt.Errorf("%w: exact needs Name", ErrBadRequest)
		}
	case Graph:
		if req.Name == "" {
			return req, fmt.Errorf("%w: graph needs Name", ErrBadRequest)
		}
		switch req.Relation {
		case Callers, Callees, References:
		default:
			return req, fmt.Errorf("%w: unknown relation %q", ErrBadRequest, req.Relation)
		}
	case Lexical, Vector, Hybrid, Structural:
	default:
		return req, fmt.Errorf("%w: unknown strategy %q", ErrBadRequest, req.Strategy)
	}
	if req.Emphasis != "" && req.Emphasis != EmphasisDoc {
		return req, fmt.Errorf("%w: unknown emphasis %q", ErrBadRequest, req.Emphasis)
	}
	if req.Resolved && (req.Strategy != Graph || req.Relation != Callers) {
		return req, fmt.Errorf("%w: Resolved is for graph callers, not %s %s", ErrBadRequest, req.Strategy, req.Relation)
	}
	return req, nil
}

// DocumentError names the document that made a batch operation (such as
// Upsert) fail. Err wraps one of the sentinel errors above (for example
// ErrTooLarge or ErrBadRequest), so callers can match the cause with
// errors.Is and read the id with errors.As.
type DocumentError struct {
	ID  string // the offending Document.ID (may be empty when that is the fault)
	Err error
}

func (e *DocumentError) Error() string {
	return fmt.Sprintf("retrieval: document %.200q: %v", e.ID, e.Err)
}

// Unwrap returns the cause.
func (e *DocumentError) Unwrap() error { return e.Err }

// Embedder turns texts into vectors for the vector and hybrid strategies.
// It is the one embedder interface of rlm: both backends (retrieval/embedded,
// retrieval/chroma) take it, and the embedders of package providers
// (LocalEmbedder, RemoteEmbedder) satisfy it directly.
//
// Embed must return exactly one vector per text, in input order, each of
// Dimensions() finite float32 values. Model is the embedder's model id and,
// with Dimensions, keys the stored vectors: vectors of different (model,
// dimensions) pairs are never compared. Dimensions is 0 while the output
// size is unknown (a remote embedder with none configured); backends refuse
// such an embedder (see CheckEmbedder).
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Model() string
	Dimensions() int
}

// MaxDimensions bounds the vector length a backend accepts.
const MaxDimensions = 1 << 16

// CheckEmbedder reports whether a backend can key vectors by e: Model()
// must be non-empty and Dimensions() in 1..MaxDimensions. A remote embedder
// whose dimensions are not configured reports 0 and is refused here, since
// a backend must know the vector length before the first vector arrives.
// The error wraps ErrBadRequest and names the model.
func CheckEmbedder(e Embedder) error {
	m, d := e.Model(), e.Dimensions()
	switch {
	case m == "":
		return fmt.Errorf("%w: embedder has an empty model id", ErrBadRequest)
	case d <= 0:
		return fmt.Errorf("%w: embedder %q: dimensions unknown (it reports %d); configure its output size", ErrBadRequest, m, d)
	case d > MaxDimensions:
		return fmt.Errorf("%w: embedder %q: %d dimensions, over %d", ErrBadRequest, m, d, MaxDimensions)
	}
	return nil
}

// FuncEmbedder adapts a function to Embedder. ModelID and Dims are returned
// by Model and Dimensions as given; Func is called by Embed.
type FuncEmbedder struct {
	ModelID string
	Dims    int
	Func    func(ctx context.Context, texts []string) ([][]float32, error)
}

var _ Embedder = FuncEmbedder{}

// Embed calls f.Func.
func (f FuncEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return f.Func(ctx, texts)
}

// Model returns f.ModelID.
func (f FuncEmbedder) Model() string { return f.ModelID }

// Dimensions returns f.Dims.
func (f FuncEmbedder) Dimensions() int { return f.Dims }

// MaxEmbeddingTextBytes bounds EmbeddingText: the UTF-8 bytes of one text
// an embedder is given. It is the per-text cap of rlm's embedders by
// default (providers.DefaultMaxTextBytes), which refuse a longer text —
// and one refused text would leave a whole search index without vectors.
const MaxEmbeddingTextBytes = 32 * 1024

// EmbeddingText is the text a backend embeds for d: d.Text when it is not
// empty (Text already holds the split name, doc, signature and path);
// otherwise the non-empty ones of the qualified name (else the symbol), the
// signature, the doc comment and the path, one per line. It may be "" for a
// document with none of these. A longer text is cut to its first
// MaxEmbeddingTextBytes (never inside a UTF-8 sequence): a definition
// that calls thousands of names, such as a generated rewrite table, is
// embedded by its name, doc and first neighbours. Both backends embed
// this text, so they hold comparable vectors for one document.
func EmbeddingText(d Document) string {
	if d.Text != "" {
		return textclip.Prefix(d.Text, MaxEmbeddingTextBytes)
	}
	name := d.Qualified
	if name == "" {
		name = d.Symbol
	}
	var parts []string
	for _, s := range []string{name, d.Signature, d.Doc, d.Path} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return textclip.Prefix(strings.Join(parts, "\n"), MaxEmbeddingTextBytes)
}
