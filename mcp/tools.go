package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/tools"
)

// binding is a tool and the title clients show for it.
type binding struct {
	title string
	tool  tools.Tool
}

// MaxQueryChars bounds the query (and name) arguments, in characters.
const MaxQueryChars = 4096

// A name of the typed shortcuts: an identifier, possibly qualified
// (Server.Serve, pkg::f, (*Server).Serve), never words: it is put into a
// fixed question for the planner, and must not change its meaning.
const namePattern = `^[A-Za-z0-9_$.:*()<>~-]{1,200}$`

const limitProp = `"limit":{"type":"integer","minimum":1,"maximum":1000,"description":"most hits to return (default 10)"}`

var (
	searchSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"query":{"type":"string","minLength":1,"maxLength":4096,"description":"what to find, in words: a name (where is X defined), a relation (what calls X, what does X call), or a description"},` +
		limitProp + `,` +
		`"path_prefix":{"type":"string","minLength":1,"maxLength":1024,"description":"keep only hits whose path (relative to the root, slash-separated) starts with this"},` +
		`"kinds":{"type":"array","minItems":1,"maxItems":16,"items":{"type":"string","pattern":"` + kindPattern() + `"},"description":"keep only hits of these kinds of definition, compared without case: function, method, type, interface, struct, constant, variable, field, class, module, macro, enum, predicate, prototype, declaration"},` +
		`"exclude_tests":{"type":"boolean","description":"drop hits in test files"}},` +
		`"required":["query"],"additionalProperties":false}`)
	nameSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"name":{"type":"string","pattern":"` + namePattern + `","description":"a symbol name, possibly qualified (Server.Serve)"},` +
		limitProp + `},"required":["name"],"additionalProperties":false}`)
	explainSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"query":{"type":"string","minLength":1,"maxLength":4096,"description":"the query whose plan to explain"}},` +
		`"required":["query"],"additionalProperties":false}`)
	statusSchema  = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
	compileSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"query":{"type":"string","minLength":1,"maxLength":4096,"description":"the task text"},` +
		`"mode":{"enum":["compiled","all_tools"],"description":"compiled (the rules select; default) or all_tools"},` +
		`"budget":{"type":"integer","minimum":0,"maximum":10000000,"description":"token budget of everything sent (0: none)"},` +
		`"capabilities":` + wordList + `,"signals":` + wordList + `,"needs":` + wordList + `,` +
		`"select":` + wordList + `,"deny":` + wordList + `},` +
		`"required":["query"],"additionalProperties":false}`)
)

const wordList = `{"type":"array","maxItems":64,"items":{"type":"string","minLength":1,"maxLength":128}}`

func (s *Server) bindings() []binding {
	read, none := tools.SideEffectRead, tools.SideEffectNone
	out := []binding{
		{"Search the tree", tools.Tool{Name: "search", SideEffect: read, Schema: searchSchema, Handler: s.search,
			Description: "Find definitions in the source tree. The retrieval rules pick exact, graph, BM25 or hybrid search for the query; " +
				"each hit has an id (for read), path, lines, symbol, kind, signature, doc and its file's content hash. The files are checked first."}},
		{"Find a definition", tools.Tool{Name: "definition", SideEffect: read, Schema: nameSchema, Handler: s.shortcut("where is %s defined?"),
			Description: "Where is NAME defined? (search for a definition by name)"}},
		{"Find callers", tools.Tool{Name: "callers", SideEffect: read, Schema: nameSchema, Handler: s.shortcut("what calls %s?"),
			Description: "What calls NAME? (the definitions that call it, with the call sites' lines)"}},
		{"Find callees", tools.Tool{Name: "callees", SideEffect: read, Schema: nameSchema, Handler: s.shortcut("what does %s call?"),
			Description: "What does NAME call? (the definitions it calls)"}},
		{"Explain a plan", tools.Tool{Name: "explain", SideEffect: none, Schema: explainSchema, Handler: s.explain,
			Description: "Show the plan search would run for a query, the rule behind each step, and what the rules would do on each gap, without searching."}},
		{"Read lines", tools.Tool{Name: "read", SideEffect: read, Schema: readSchema, Handler: s.read,
			Description: fmt.Sprintf("Read a hit (its id) or a file's lines (path, start_line, end_line), at most %d lines, "+
				"only if the file is exactly the bytes of its content hash (the hit's, or the current snapshot's).", MaxReadLines)}},
		{"Knowledge base status", tools.Tool{Name: "status", SideEffect: read, Schema: statusSchema, Handler: s.status,
			Description: "Check the files and report the snapshot (generation, fingerprint), counts, and every file that is not current."}},
		{"Apply a patch", tools.Tool{Name: "apply_patch", SideEffect: tools.SideEffectWrite, Schema: patchSchema, Handler: s.applyPatch,
			Description: "Edit one file with a unified diff or byte edits, only if it still hashes to expected_hash (from a hit, read or status); " +
				"returns the new hash, or a conflict with the file's actual hash. The next search sees the edit."}},
	}
	if s.opts.Catalog != nil {
		out = append(out, binding{"Compile a prompt", tools.Tool{Name: "compile", SideEffect: none, Schema: compileSchema, Handler: s.compile,
			Description: "Show the prompt compiler's projection of the server's catalog for a task: the active units, text, tool schemas, " +
				"token ledger, fingerprint, and why each unit is in or out."}})
	}
	return out
}

// decode reads arguments the executor has validated against the schema.
func decode(raw json.RawMessage, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return tools.ModelErrorf("arguments: %v", err)
	}
	return nil
}

// integer is an integer argument the schema has checked ("type":
// "integer", with bounds): JSON Schema counts 1.0 and 1e2 as integers, so
// it is decoded from any JSON number with no fractional part.
type integer int

// maxInteger bounds integer (2^53: every integer up to it is a float64).
const maxInteger = 1 << 53

func (n *integer) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > maxInteger {
		return fmt.Errorf("%s is not an integer", textclip.Clean(string(b), 40))
	}
	*n = integer(f)
	return nil
}

// Snapshot names a generation of the knowledge base.
type Snapshot struct {
	Generation  int64     `json:"generation"`
	Fingerprint string    `json:"fingerprint"` // 16 hex digits
	Published   time.Time `json:"published,omitzero"`
}

func snapshotOf(generation int64, fingerprint uint64, published time.Time) Snapshot {
	return Snapshot{Generation: generation, Fingerprint: fmt.Sprintf("%016x", fingerprint), Published: published}
}

// current is the snapshot the project's search index shows now.
func (s *Server) current() Snapshot {
	id := s.proj.Snapshot()
	return snapshotOf(id.Generation, id.Fingerprint, id.Published)
}

// Hit is one search hit (rlm.Hit: a definition, where it is, its
// signature and doc, and the content hash of the file it was read from)
// with an id for read. ID shadows rlm.Hit's id, which is DocumentID here.
type Hit struct {
	ID         string `json:"id"`          // PATH:START-END@CONTENT_HASH
	DocumentID string `json:"document_id"` // rlm.Hit.ID: the definition's stable document id
	rlm.Hit
}

// SearchResult is the answer of search and the typed shortcuts.
type SearchResult struct {
	Query    string   `json:"query"`
	Class    string   `json:"class"`
	Snapshot Snapshot `json:"snapshot"` // current when the call returned
	Hits     []Hit    `json:"hits"`
	Gap      string   `json:"gap,omitempty"`      // what the rules could not find, as a term
	Resolved string   `json:"resolved,omitempty"` // "FROM -> TO": the answer is about another name than the query's
	// Notes are the steps that could not run because a service they need
	// failed ("STEP: the embedder M failed (KIND)"); they found nothing,
	// and the rules' fallbacks ran.
	Notes []string `json:"notes,omitempty"`
	// FilteredOut counts hits the filters dropped.
	FilteredOut int `json:"filtered_out,omitempty"`
	// Because is the rule chain: the class rule, the rule of each
	// planned step, then each step's verdict.
	Because any `json:"because"`
}

// filter narrows hits (search's path_prefix, kinds, exclude_tests).
type filter struct {
	PathPrefix   string   `json:"path_prefix"`
	Kinds        []string `json:"kinds"`
	ExcludeTests bool     `json:"exclude_tests"`
}

// kindPattern is the JSON Schema pattern a kinds item must match: one of
// rlm.DefinitionKinds, in any case ("function", "FUNCTION"). A kind no
// definition has (a typo) would filter every hit out and read as
// "nothing matches"; the executor refuses it as invalid_arguments.
func kindPattern() string {
	var alts []string
	for _, k := range rlm.DefinitionKinds() {
		var b strings.Builder
		for _, r := range k {
			if u := unicode.ToUpper(r); u != r {
				b.WriteString("[" + string(r) + string(u) + "]")
			} else {
				b.WriteRune(r)
			}
		}
		alts = append(alts, b.String())
	}
	return "^(?:" + strings.Join(alts, "|") + ")$"
}

func (f filter) active() bool { return f.PathPrefix != "" || len(f.Kinds) > 0 || f.ExcludeTests }

func (f filter) keeps(h Hit) bool {
	if !strings.HasPrefix(h.Path, f.PathPrefix) || f.ExcludeTests && h.Test {
		return false
	}
	if len(f.Kinds) == 0 {
		return true
	}
	for _, k := range f.Kinds {
		if strings.EqualFold(k, h.Kind) {
			return true
		}
	}
	return false
}

// filterPool is how many hits a filtered search asks the planner for,
// per hit it returns: the filters apply to the planner's hits.
const filterPool = 10

func (s *Server) search(ctx context.Context, raw json.RawMessage) (any, error) {
	var a struct {
		Query string  `json:"query"`
		Limit integer `json:"limit"`
		filter
	}
	if err := decode(raw, &a); err != nil {
		return nil, err
	}
	return s.runSearch(ctx, a.Query, int(a.Limit), a.filter)
}

func (s *Server) shortcut(question string) tools.Handler {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var a struct {
			Name  string  `json:"name"`
			Limit integer `json:"limit"`
		}
		if err := decode(raw, &a); err != nil {
			return nil, err
		}
		return s.runSearch(ctx, fmt.Sprintf(question, a.Name), int(a.Limit), filter{})
	}
}

func (s *Server) runSearch(ctx context.Context, query string, limit int, f filter) (*SearchResult, error) {
	if limit == 0 {
		limit = rlm.DefaultLimit
	}
	n := limit
	if f.active() {
		n = min(rlm.MaxLimit, limit*filterPool)
	}
	ans, err := s.proj.Search(ctx, query, n)
	if err != nil {
		return nil, modelSafe(err, rlm.ErrQueryTooLarge)
	}
	res := &SearchResult{Query: ans.Query, Class: ans.Class, Snapshot: s.current(), Hits: []Hit{},
		Gap: ans.Gap, Notes: ans.Notes, Because: ans.Explain}
	if r := ans.Resolved; r != nil {
		res.Resolved = r.From + " -> " + r.To
	}
	for _, h := range ans.Hits {
		hit := Hit{ID: hitID(h.Path, h.StartLine, h.EndLine, h.ContentHash), DocumentID: h.ID, Hit: h}
		switch {
		case !f.keeps(hit):
			res.FilteredOut++
		case len(res.Hits) < limit:
			res.Hits = append(res.Hits, hit)
		}
	}
	return res, nil
}

func (s *Server) explain(ctx context.Context, raw json.RawMessage) (any, error) {
	var a struct {
		Query string `json:"query"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, err
	}
	ex, err := s.proj.Explain(ctx, a.Query)
	if err != nil {
		return nil, modelSafe(err, rlm.ErrQueryTooLarge)
	}
	return ex, nil
}

// Status is the knowledge base's state: status's result and the
// rlm://snapshot resource.
type Status struct {
	Snapshot   Snapshot    `json:"snapshot"`
	Files      int         `json:"files"`
	Bytes      int64       `json:"bytes"`
	Symbols    int         `json:"symbols"`
	References int         `json:"references"`
	Imports    int         `json:"imports"`
	Dirty      int         `json:"dirty"`       // files written but not yet published
	NotCurrent []FileState `json:"not_current"` // stale, partial or unparsable files
	Tools      []string    `json:"tools"`       // the tools this server offers
	// Vectors is "" or why the search index has no vectors although an
	// embedder is configured ("the embedder M failed (KIND)"): vector and
	// hybrid steps are skipped until it answers again.
	Vectors string `json:"vectors_unavailable,omitempty"`
}

// FileState is a file that is not current.
type FileState struct {
	Path   string `json:"path"`
	Status string `json:"status"` // stale, partial or error
	Error  string `json:"error,omitempty"`
}

func (s *Server) status(ctx context.Context, _ json.RawMessage) (any, error) {
	return s.readStatus(ctx)
}

func (s *Server) readStatus(ctx context.Context) (*Status, error) {
	// Move the search index too, so that what status reports is what the
	// next search and read answer from.
	if _, err := s.proj.Refresh(ctx); err != nil {
		return nil, err
	}
	st, err := s.proj.Status(ctx)
	if err != nil {
		return nil, err
	}
	out := &Status{Snapshot: snapshotOf(st.Snapshot.Generation, st.Snapshot.Fingerprint, st.Snapshot.Published), Files: st.Stats.Files, Bytes: st.Stats.SourceBytes, Symbols: st.Stats.Symbols,
		References: st.Stats.References, Imports: st.Stats.Imports, Dirty: st.Stats.Dirty, NotCurrent: []FileState{}, Tools: s.Tools(), Vectors: s.proj.VectorsUnavailable()}
	for _, f := range st.NotCurrent {
		out.NotCurrent = append(out.NotCurrent, FileState{Path: f.Path, Status: f.Status, Error: f.Error})
	}
	return out, nil
}

func (s *Server) compile(ctx context.Context, raw json.RawMessage) (any, error) {
	var a struct {
		Query        string   `json:"query"`
		Mode         string   `json:"mode"`
		Budget       integer  `json:"budget"`
		Capabilities []string `json:"capabilities"`
		Signals      []string `json:"signals"`
		Needs        []string `json:"needs"`
		Select       []string `json:"select"`
		Deny         []string `json:"deny"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, err
	}
	in := rlm.CompileInput{Text: a.Query, Capabilities: a.Capabilities, Signals: a.Signals, Needs: a.Needs, HostSelected: a.Select, HostDenied: a.Deny}
	out, err := s.opts.Compiler.Compile(ctx, s.opts.Catalog, in, rlm.CompileOptions{Mode: rlm.CompileMode(a.Mode), Budget: int(a.Budget)})
	if err != nil {
		return nil, modelSafe(err, prompt.ErrBadInput, prompt.ErrBudget)
	}
	return out, nil
}

// modelSafe shows err to the client if it matches one of the errors whose
// text is known to hold nothing but the caller's own input and limits;
// any other error is shown as "the tool failed" (and logged).
func modelSafe(err error, safe ...error) error {
	for _, s := range safe {
		if errors.Is(err, s) {
			return &tools.ModelError{Message: err.Error(), Err: err}
		}
	}
	return err
}
