package sourcefacts

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// ErrClosed is returned by Extract after Close.
var ErrClosed = errors.New("sourcefacts: extractor closed")

// Limits applied by Extract. Text limits are in bytes of UTF-8 and cut on a
// rune boundary, with "…" appended when something was cut.
const (
	// MaxSignatureBytes caps Symbol.Signature.
	MaxSignatureBytes = 200
	// MaxDocBytes caps Symbol.Doc.
	MaxDocBytes = 8 << 10
	// MaxReceiverBytes caps Reference.Receiver.
	MaxReceiverBytes = 64
	// BinarySniffBytes is how much of a file is searched for a NUL byte;
	// a NUL there makes the file "binary file" (StatusError, no facts).
	BinarySniffBytes = 8 << 10
	// MaxParseBytes is the largest input Extract parses (tree-sitter
	// addresses bytes with 32 bits); larger input is StatusError "too large".
	MaxParseBytes = math.MaxInt32
)

const (
	// readChunk bounds each slice handed to tree-sitter's input callback:
	// the Go binding copies every slice it is given into C memory that it
	// frees only when the parse ends, so handing it src[i:] would cost
	// O(len(src)) per callback.
	readChunk = 64 << 10
	// progressMinBytes is the input size from which a parse installs a
	// progress callback to honour ctx cancellation mid-parse. The binding
	// keeps one small registry entry per parse that uses a callback and
	// never frees it, so small files (which parse in microseconds) only
	// check ctx before and after parsing.
	progressMinBytes = 1 << 20
	// ctxCheckEvery is how many query matches pass between ctx checks.
	ctxCheckEvery = 1024
	// Default parse budget: defaultParseBase plus defaultParsePerMiB for
	// each MiB of input. Clean Go parses at a few MB/s per core; inputs
	// that drive tree-sitter's error recovery into superlinear time (a
	// long run of "(" for one) would otherwise hold a worker for minutes.
	defaultParseBase   = 10 * time.Second
	defaultParsePerMiB = 5 * time.Second

	fallbackParserVersion = "0.25.0"
	treeSitterModule      = "github.com/tree-sitter/go-tree-sitter"
)

// Extractor turns source bytes into FileFacts: tree-sitter for Go, Python,
// JavaScript, TypeScript/TSX, Rust, Java, C, C++ and Ruby, the Prolog term
// reader (package prologsrc) for Prolog. Queries are compiled once per
// Extractor; parsers (which are not goroutine-safe) are pooled per grammar,
// so one Extractor may be used from many goroutines at once. Close it when
// done to free the C memory it holds.
type Extractor struct {
	grammars      map[string]*grammar // by grammar name
	prolog        bool                // Prolog files are read
	goOnly        bool                // NewGoExtractor: every path is Go
	parserVersion string              // e.g. "tree-sitter/0.25.0"
	maxIdle       int
	parseTimeout  atomic.Int64 // time.Duration; 0 default, <0 none

	// life is held for reading by every Extract and for writing by Close,
	// so that Close waits for extractions in flight before freeing.
	life   sync.RWMutex
	closed bool
}

// grammar is one Extractor's use of a tree-sitter grammar: the compiled
// grammar (loaded on first use) and the Extractor's own parser pool.
type grammar struct {
	name string
	load func() (*compiledGrammar, error) // loadGrammar(name), or a test double

	mu   sync.Mutex // guards idle
	idle []*worker
}

// compiledGrammar is a grammar with its queries compiled. It is immutable,
// safe for concurrent use (each worker has its own query cursor), and
// shared by every Extractor of the process: compiling the queries of all
// grammars takes about a second (tree-sitter analyses each pattern), so
// each is compiled once per process, on first use, and kept.
type compiledGrammar struct {
	spec    *grammarSpec
	lang    *ts.Language
	query   *compiledQuery
	kinds   kindIDs  // Go's node kinds (zero for other grammars)
	fields  fieldIDs // field ids; 0 where the grammar lacks the field
	version string   // Provenance.GrammarVersion, e.g. "v0.25.0"
	// docStrip is the grammar's default #strip! regex for line comments
	// (nil: `^//\s*`).
	docStrip *regexp.Regexp
}

var grammarCache struct {
	mu sync.Mutex
	m  map[string]*grammarOnce
}

type grammarOnce struct {
	once sync.Once
	g    *compiledGrammar
	err  error
}

// loadGrammar returns the named grammar compiled, compiling it on the first
// call in the process. A failure is remembered too (the queries are
// embedded, so it cannot change).
func loadGrammar(name string) (*compiledGrammar, error) {
	grammarCache.mu.Lock()
	if grammarCache.m == nil {
		grammarCache.m = map[string]*grammarOnce{}
	}
	o := grammarCache.m[name]
	if o == nil {
		o = &grammarOnce{}
		grammarCache.m[name] = o
	}
	grammarCache.mu.Unlock()
	o.once.Do(func() {
		spec := grammarSpecs[name]
		if spec == nil {
			o.err = fmt.Errorf("sourcefacts: no grammar %q", name)
			return
		}
		o.g, o.err = compileGrammar(spec)
	})
	return o.g, o.err
}

// worker is one goroutine's private tree-sitter state.
type worker struct {
	parser *ts.Parser
	cursor *ts.QueryCursor
}

func (w *worker) close() {
	w.cursor.Close()
	w.parser.Close()
}

// kindIDs and fieldIDs are the grammar's numeric ids for the node kinds and
// field names the extractor inspects, looked up once.
type kindIDs struct {
	comment, functionDecl, methodDecl, typeSpec, typeAlias, constSpec, varSpec,
	structType, interfaceType, pointerType, parenType, genericType, typeIdent,
	qualifiedType uint16
}

type fieldIDs struct {
	name, typ, body, receiver uint16
}

// NewGoExtractor returns an Extractor for Go only, using tree-sitter-go and
// the queries in queries/ (the grammar's tags.scm plus go-extra.scm). It
// reads every path as Go, whatever its extension. It fails if the grammar
// or its queries cannot be loaded.
func NewGoExtractor() (*Extractor, error) {
	if _, err := loadGrammar("go"); err != nil {
		return nil, err
	}
	e := newExtractor([]string{"go"}, false)
	e.goOnly = true
	return e, nil
}

// NewExtractor returns an Extractor for the given languages (the Lang*
// constants; all of Languages() when none are given). Its Extract picks the
// language by the path's extension (LanguageForPath); a path of another
// language gets StatusError "unsupported language". An unknown language
// name is an error.
//
// Each grammar's queries are compiled on the first file of its language in
// the process (tens to hundreds of milliseconds) and shared from then on
// (see LoadGrammars to compile them up front).
func NewExtractor(languages ...string) (*Extractor, error) {
	for _, l := range languages {
		if !slices.Contains(Languages(), l) {
			return nil, fmt.Errorf("sourcefacts: unknown language %q (known: %s)", l, strings.Join(Languages(), ", "))
		}
	}
	names, prolog := grammarNames(languages)
	return newExtractor(names, prolog), nil
}

// LoadGrammars compiles the tree-sitter grammars and queries of the given
// languages (all when none are given) now rather than on first use, and
// reports the first that fails. They stay loaded for the life of the
// process.
func LoadGrammars(languages ...string) error {
	names, _ := grammarNames(languages)
	for _, n := range names {
		if _, err := loadGrammar(n); err != nil {
			return err
		}
	}
	return nil
}

func newExtractor(names []string, prolog bool) *Extractor {
	e := &Extractor{
		grammars:      map[string]*grammar{},
		prolog:        prolog,
		parserVersion: "tree-sitter/" + strings.TrimPrefix(moduleVersion(treeSitterModule, "v"+fallbackParserVersion), "v"),
		maxIdle:       2 * runtime.GOMAXPROCS(0),
	}
	for _, name := range names {
		e.grammars[name] = &grammar{name: name, load: func() (*compiledGrammar, error) { return loadGrammar(name) }}
	}
	return e
}

// compileGrammar loads a grammar and compiles its queries.
func compileGrammar(spec *grammarSpec) (*compiledGrammar, error) {
	lang := ts.NewLanguage(spec.ptr())
	if v := lang.AbiVersion(); v < ts.MIN_COMPATIBLE_LANGUAGE_VERSION || v > ts.LANGUAGE_VERSION {
		return nil, fmt.Errorf("sourcefacts: tree-sitter-%s ABI %d not supported by this tree-sitter (%d..%d)",
			spec.name, v, ts.MIN_COMPATIBLE_LANGUAGE_VERSION, ts.LANGUAGE_VERSION)
	}
	q, err := compileQueries(lang, spec, spec.queries...)
	if err != nil {
		return nil, err
	}
	var strip *regexp.Regexp
	if spec.docStrip != "" {
		strip = regexp.MustCompile(spec.docStrip)
	}
	g := &compiledGrammar{
		docStrip: strip,
		spec:     spec,
		lang:     lang,
		query:    q,
		version:  moduleVersion(spec.module, spec.fallbackVersion),
		fields: fieldIDs{
			name: lang.FieldIdForName("name"), typ: lang.FieldIdForName("type"),
			body: lang.FieldIdForName("body"), receiver: lang.FieldIdForName("receiver"),
		},
	}
	if spec.name != "go" {
		return g, nil
	}
	var missing []string // kinds or fields this grammar version lacks
	id := func(kind string) uint16 {
		v := lang.IdForNodeKind(kind, true)
		if v == 0 {
			missing = append(missing, kind)
		}
		return v
	}
	g.kinds = kindIDs{
		comment: id("comment"), functionDecl: id("function_declaration"),
		methodDecl: id("method_declaration"), typeSpec: id("type_spec"),
		typeAlias: id("type_alias"), constSpec: id("const_spec"), varSpec: id("var_spec"),
		structType: id("struct_type"), interfaceType: id("interface_type"),
		pointerType: id("pointer_type"), parenType: id("parenthesized_type"),
		genericType: id("generic_type"), typeIdent: id("type_identifier"),
		qualifiedType: id("qualified_type"),
	}
	for _, f := range []struct {
		name string
		id   uint16
	}{{"name", g.fields.name}, {"type", g.fields.typ}, {"body", g.fields.body}, {"receiver", g.fields.receiver}} {
		if f.id == 0 {
			missing = append(missing, "field "+f.name)
		}
	}
	if len(missing) > 0 {
		q.q.Close()
		return nil, fmt.Errorf("sourcefacts: tree-sitter-go lacks %s", strings.Join(missing, ", "))
	}
	return g, nil
}

// moduleVersion reports the version of module path linked into this binary,
// or fallback when the build carries no module information.
func moduleVersion(path, fallback string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return fallback
	}
	for _, d := range bi.Deps {
		if d.Path != path {
			continue
		}
		if d.Replace != nil && d.Replace.Version != "" {
			return d.Replace.Version
		}
		if d.Version != "" && d.Version != "(devel)" {
			return d.Version
		}
	}
	return fallback
}

// ParserVersion is the Provenance.Parser this Extractor stamps on
// tree-sitter facts, e.g. "tree-sitter/0.25.0".
func (e *Extractor) ParserVersion() string { return e.parserVersion }

// GrammarVersion is the Provenance.GrammarVersion this Extractor stamps on
// Go facts, e.g. "v0.25.0" ("" without Go). See GrammarVersionFor.
func (e *Extractor) GrammarVersion() string { return e.GrammarVersionFor(LangGo) }

// GrammarVersionFor is the Provenance.GrammarVersion this Extractor stamps
// on facts of the named grammar (a Provenance.Grammar value: a language
// name, or "tsx"), e.g. "v0.24.0"; "" if it does not read that grammar.
func (e *Extractor) GrammarVersionFor(grammar string) string {
	if grammar == LangProlog && e.prolog {
		return prologVersion()
	}
	if e.grammars[grammar] != nil {
		return moduleVersion(grammarSpecs[grammar].module, grammarSpecs[grammar].fallbackVersion)
	}
	return ""
}

// Supports reports whether Extract reads files with path p's extension
// (for an Extractor from NewGoExtractor: always). A file without an
// extension is decided by its content (see Detect), and so is whether a
// .pl file is Prolog.
func (e *Extractor) Supports(p string) bool {
	if e.goOnly {
		return true
	}
	g := grammarForPath(p)
	return g == LangProlog && e.prolog || e.grammars[g] != nil || g == "c" && e.grammars["cpp"] != nil
}

// SetParseTimeout sets the wall-clock budget for parsing one input, and,
// separately, for running the queries over its tree. When the parse runs
// out of budget Extract reports StatusError "parse timeout"; when the
// queries do, StatusPartial with Error "query timeout: facts incomplete".
// 0 restores the default (10 s plus 5 s per MiB of input); a negative value
// means no budget. A ctx deadline, when sooner, always applies. Prolog
// files are bounded by size instead (see prologsrc). Safe for concurrent
// use.
func (e *Extractor) SetParseTimeout(d time.Duration) { e.parseTimeout.Store(int64(d)) }

// parseBudget is the parse budget for n bytes of input, 0 for none.
func (e *Extractor) parseBudget(n int) time.Duration {
	switch d := time.Duration(e.parseTimeout.Load()); {
	case d > 0:
		return d
	case d < 0:
		return 0
	}
	return defaultParseBase + time.Duration(float64(defaultParsePerMiB)*float64(n)/(1<<20))
}

// budget is the time allowed for one phase (parse, then query) of one
// input of n bytes: the parse budget, or ctx's deadline if sooner; 0 for
// none.
func (e *Extractor) budget(ctx context.Context, n int) time.Duration {
	b := e.parseBudget(n)
	if dl, ok := ctx.Deadline(); ok {
		if rem := time.Until(dl); b == 0 || rem < b {
			b = max(rem, time.Microsecond)
		}
	}
	return b
}

// Close frees the pooled parsers (the compiled grammars are shared by the
// process; see NewExtractor). It waits for extractions in flight; later
// calls to Extract return ErrClosed. Close is idempotent.
func (e *Extractor) Close() {
	e.life.Lock()
	defer e.life.Unlock()
	if e.closed {
		return
	}
	e.closed = true
	for _, g := range e.grammars {
		g.mu.Lock()
		for _, w := range g.idle {
			w.close()
		}
		g.idle = nil
		g.mu.Unlock()
	}
}

func (g *grammar) getWorker(cg *compiledGrammar) (*worker, error) {
	g.mu.Lock()
	if n := len(g.idle); n > 0 {
		w := g.idle[n-1]
		g.idle = g.idle[:n-1]
		g.mu.Unlock()
		return w, nil
	}
	g.mu.Unlock()
	p := ts.NewParser()
	if err := p.SetLanguage(cg.lang); err != nil {
		p.Close()
		return nil, fmt.Errorf("sourcefacts: set language: %w", err)
	}
	return &worker{parser: p, cursor: ts.NewQueryCursor()}, nil
}

func (g *grammar) putWorker(w *worker, maxIdle int) {
	g.mu.Lock()
	if len(g.idle) < maxIdle {
		g.idle = append(g.idle, w)
		w = nil
	}
	g.mu.Unlock()
	if w != nil {
		w.close()
	}
}

// route decides the file at p with bytes src (see Detect): its grammar
// name ("" if this Extractor does not read it), its tree-sitter grammar
// (nil for Prolog) and the detection.
func (e *Extractor) route(p string, src []byte) (string, *grammar, Detection) {
	if e.goOnly {
		return "go", e.grammars["go"], detected("go", "go-only extractor")
	}
	d := Detect(p, src)
	switch {
	case d.Skip != "" || d.Grammar == "":
		return "", nil, d
	case d.Grammar == LangProlog:
		if e.prolog {
			return d.Grammar, nil, d
		}
	case e.grammars[d.Grammar] != nil:
		return d.Grammar, e.grammars[d.Grammar], d
	}
	return "", nil, d
}

// newFacts returns the empty, current facts of the file at p for the named
// grammar ("" for an unsupported file), with Provenance filled in except
// Project.
func (e *Extractor) newFacts(p, grammarName string, hash ContentHash) *FileFacts {
	ff := &FileFacts{
		Provenance: Provenance{
			Path:       p,
			Hash:       hash,
			Generation: 1,
			Grammar:    grammarName,
			Extractor:  ExtractorVersion,
		},
		Language:   grammarLanguage[grammarName],
		Status:     StatusCurrent,
		Symbols:    []Symbol{},
		References: []Reference{},
		Imports:    []Import{},
	}
	switch {
	case grammarName == LangProlog:
		ff.Provenance.Parser = prologParserVersion()
		ff.Provenance.GrammarVersion = prologVersion()
	case grammarName != "":
		ff.Provenance.Parser = e.parserVersion
		ff.Provenance.GrammarVersion = e.GrammarVersionFor(grammarName)
	}
	// The role follows the language the file is read in (a Go-only
	// extractor reads everything as Go), else the one its extension names.
	lang := cmp.Or(ff.Language, LanguageForPath(p))
	if e.goOnly {
		lang = LangGo
	}
	ff.Role = FileRole(lang, p)
	ff.Test = ff.Role == RoleTest
	return ff
}

// Extract parses src, the exact bytes of the file at path (relative to the
// project root, slash-separated), and returns its facts. The language is
// decided by Detect (the extension, and for scripts without one, .h
// headers and .pl files, the content), except that an Extractor from
// NewGoExtractor reads everything as Go; Provenance.LanguageBy records how.
//
// The result always carries Provenance (Hash = HashBytes(src), Generation 1,
// Project left empty for the caller; Parser, Grammar and GrammarVersion
// name the parser and grammar used), Language, Role (FileRole) and Test. Status
// is StatusCurrent for a clean parse, StatusPartial when the file holds
// syntax errors (facts may be incomplete; Error says where the first one
// is), StatusSkipped without facts for a file Detect skips (Error is its
// reason: "not ours: a Perl script", "no language: a bash script"; a .h
// header that is C, given to an Extractor that reads C++ but not C: "not
// ours: c, not among the languages read"), or
// StatusError with Error set and no facts when the input cannot be
// read: "unsupported language" (Language and Grammar empty), "binary file"
// (a NUL byte in the first BinarySniffBytes), "too large" (over
// MaxParseBytes), "parse timeout" (see SetParseTimeout), "parse failed", or
// for Prolog the reader's message when not one clause could be read.
// Invalid UTF-8 is parsed (tree-sitter marks it as errors); text in facts
// is made valid UTF-8 (U+FFFD for bad bytes) and capped (see the Max*Bytes
// constants); ranges always refer to the exact bytes. Lines end at "\n",
// "\r\n" or a lone "\r", in any mix; a byte-order mark is part of line 1.
//
// Extract returns a non-nil error only when ctx is done (ctx.Err()) or the
// Extractor is closed. It never panics on any input, never runs any of it
// (Prolog directives included), and is safe for concurrent use.
func (e *Extractor) Extract(ctx context.Context, path string, src []byte) (ff *FileFacts, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e.life.RLock()
	defer e.life.RUnlock()
	if e.closed {
		return nil, ErrClosed
	}
	name, g, det := e.route(path, src)
	ff = e.newFacts(path, name, HashBytes(src))
	ff.Provenance.LanguageBy = det.By
	switch {
	case det.Skip != "":
		return ff.skip(det.Skip), nil
	case name == "" && det.Language == LangC && e.grammars["cpp"] != nil:
		// A .h header that is C, given to an Extractor that reads C++
		// but not C (Supports says it reads .h).
		return ff.skip(fmt.Sprintf("%s: %s, not among the languages read", SkipNotOurs, det.Language)), nil
	case name == "":
		return ff.fail("unsupported language"), nil
	}
	if bytes.IndexByte(src[:min(len(src), BinarySniffBytes)], 0) >= 0 {
		return ff.fail("binary file"), nil
	}
	if len(src) > MaxParseBytes {
		return ff.fail("too large"), nil
	}
	// The parsers count lines at "\n" only: a lone "\r" becomes "\n"
	// (same length, so every byte offset holds).
	src = newlinesLF(src)
	if g == nil {
		// The Prolog reader refuses a byte-order mark: blank it (same
		// length).
		if bytes.HasPrefix(src, []byte("\uFEFF")) {
			src = append([]byte("   "), src[3:]...)
		}
		return extractProlog(ctx, ff, src)
	}

	cg, err := g.load()
	if err != nil {
		return ff.fail("internal error: " + err.Error()), nil
	}
	w, err := g.getWorker(cg)
	if err != nil {
		return ff.fail(err.Error()), nil
	}
	reuse := false
	defer func() {
		if reuse {
			g.putWorker(w, e.maxIdle)
		} else {
			w.close()
		}
	}()
	defer func() {
		// A panic here would be a bug in this package or the binding; the
		// contract is to report it, not to take the caller down. The worker
		// is not reused (reuse is still false).
		if r := recover(); r != nil {
			ff, err = ff.fail(fmt.Sprintf("internal error: %v", r)), nil
		}
	}()

	tree, timedOut := e.parse(ctx, w.parser, src)
	if tree == nil {
		// A parse that stopped (budget, ctx) is not resumed, and its
		// parser is not used again: tree-sitter 0.25.0's ts_parser_reset
		// leaves canceled_balancing set when the parse stopped while
		// balancing the tree, so the next parse on that parser jumps to
		// balancing a tree Reset released and aborts the process
		// (parser.c: Assertion `self->finished_tree.ptr' failed; fixed
		// upstream in tree-sitter PR #4176, after the 0.25.0 that
		// go-tree-sitter v0.25.0 bundles). reuse stays false: the
		// deferred close frees the worker.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
			return nil, context.DeadlineExceeded
		}
		if timedOut {
			return ff.fail("parse timeout"), nil
		}
		return ff.fail("parse failed"), nil
	}
	defer tree.Close()
	if err := ctx.Err(); err != nil {
		reuse = true
		return nil, err
	}

	x := &extraction{g: cg, src: src, ff: ff}
	if err := x.run(ctx, w.cursor, tree.RootNode(), e.budget(ctx, len(src))); err != nil {
		reuse = true
		return nil, err
	}
	reuse = true
	return ff, nil
}

// fail turns ff into an error record without facts.
func (ff *FileFacts) fail(msg string) *FileFacts {
	ff.clear(StatusError, msg)
	return ff
}

// skip turns ff into a skipped record without facts; reason starts with a
// Skip* constant.
func (ff *FileFacts) skip(reason string) *FileFacts {
	ff.clear(StatusSkipped, reason)
	return ff
}

func (ff *FileFacts) clear(status, msg string) {
	ff.Status = status
	ff.Error = msg
	ff.Package = ""
	ff.Symbols = []Symbol{}
	ff.References = []Reference{}
	ff.Imports = []Import{}
}

// newlinesLF returns src with every carriage return that does not start a
// "\r\n" replaced by "\n" (a copy; src itself when it has none).
func newlinesLF(src []byte) []byte {
	i := bytes.IndexByte(src, '\r')
	for i >= 0 && i+1 < len(src) && src[i+1] == '\n' {
		j := bytes.IndexByte(src[i+2:], '\r')
		if j < 0 {
			return src
		}
		i += 2 + j
	}
	if i < 0 {
		return src
	}
	out := bytes.Clone(src)
	for ; i < len(out); i++ {
		if out[i] == '\r' && (i+1 == len(out) || out[i+1] != '\n') {
			out[i] = '\n'
		}
	}
	return out
}

// parse runs the parser over src, feeding it bounded chunks, under the
// parse budget (and ctx's deadline, if sooner). For large inputs under a
// cancellable ctx it also installs a progress callback that stops the parse
// when ctx is done. A stopped parse returns nil; timedOut says whether the
// budget ran out.
func (e *Extractor) parse(ctx context.Context, p *ts.Parser, src []byte) (tree *ts.Tree, timedOut bool) {
	read := func(i int, _ ts.Point) []byte {
		if i < 0 || i >= len(src) {
			return nil
		}
		return src[i:min(i+readChunk, len(src))]
	}
	budget := e.budget(ctx, len(src))
	// SetTimeoutMicros is deprecated in go-tree-sitter 0.25 in favour of
	// the progress callback, but the binding never releases the registry
	// entry it makes for a callback, so a callback on every parse would leak
	// a little per file. Revisit when moving to 0.26.
	p.SetTimeoutMicros(uint64(budget / time.Microsecond)) //nolint:staticcheck
	var opts *ts.ParseOptions
	if done := ctx.Done(); done != nil && len(src) >= progressMinBytes {
		opts = &ts.ParseOptions{ProgressCallback: func(ts.ParseState) bool {
			select {
			case <-done:
				return true
			default:
				return false
			}
		}}
	}
	start := time.Now()
	tree = p.ParseWithOptions(read, nil, opts)
	return tree, tree == nil && budget > 0 && time.Since(start) >= budget
}
