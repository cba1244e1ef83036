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
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
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

	fallbackParserVersion  = "0.25.0"
	fallbackGrammarVersion = "v0.25.0"
	treeSitterModule       = "github.com/tree-sitter/go-tree-sitter"
	treeSitterGoModule     = "github.com/tree-sitter/tree-sitter-go"
)

// Extractor turns Go source bytes into FileFacts with tree-sitter. Queries
// are compiled once per Extractor; parsers (which are not goroutine-safe)
// are pooled, so one Extractor may be used from many goroutines at once.
// Close it when done to free the C memory it holds.
type Extractor struct {
	lang           *ts.Language
	query          *compiledQuery
	kinds          kindIDs
	fields         fieldIDs
	parserVersion  string // e.g. "tree-sitter/0.25.0"
	grammar        string // "go"
	grammarVersion string // e.g. "v0.25.0"
	maxIdle        int
	parseTimeout   atomic.Int64 // time.Duration; 0 default, <0 none

	// life is held for reading by every Extract and for writing by Close,
	// so that Close waits for extractions in flight before freeing.
	life   sync.RWMutex
	closed bool

	mu   sync.Mutex // guards idle
	idle []*worker
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

// NewGoExtractor returns an Extractor for Go using tree-sitter-go and the
// queries in queries/ (the grammar's tags.scm plus go-extra.scm).
func NewGoExtractor() (*Extractor, error) {
	lang := ts.NewLanguage(tsgo.Language())
	if v := lang.AbiVersion(); v < ts.MIN_COMPATIBLE_LANGUAGE_VERSION || v > ts.LANGUAGE_VERSION {
		return nil, fmt.Errorf("sourcefacts: tree-sitter-go ABI %d not supported by this tree-sitter (%d..%d)",
			v, ts.MIN_COMPATIBLE_LANGUAGE_VERSION, ts.LANGUAGE_VERSION)
	}
	q, err := compileQueries(lang, "go-tags.scm", "go-extra.scm")
	if err != nil {
		return nil, err
	}
	var missing []string // kinds or fields this grammar version lacks
	id := func(kind string) uint16 {
		v := lang.IdForNodeKind(kind, true)
		if v == 0 {
			missing = append(missing, kind)
		}
		return v
	}
	fid := func(name string) uint16 {
		v := lang.FieldIdForName(name)
		if v == 0 {
			missing = append(missing, "field "+name)
		}
		return v
	}
	e := &Extractor{
		lang:  lang,
		query: q,
		kinds: kindIDs{
			comment: id("comment"), functionDecl: id("function_declaration"),
			methodDecl: id("method_declaration"), typeSpec: id("type_spec"),
			typeAlias: id("type_alias"), constSpec: id("const_spec"), varSpec: id("var_spec"),
			structType: id("struct_type"), interfaceType: id("interface_type"),
			pointerType: id("pointer_type"), parenType: id("parenthesized_type"),
			genericType: id("generic_type"), typeIdent: id("type_identifier"),
			qualifiedType: id("qualified_type"),
		},
		fields:         fieldIDs{name: fid("name"), typ: fid("type"), body: fid("body"), receiver: fid("receiver")},
		parserVersion:  "tree-sitter/" + strings.TrimPrefix(moduleVersion(treeSitterModule, "v"+fallbackParserVersion), "v"),
		grammar:        "go",
		grammarVersion: grammarVersion(lang),
		maxIdle:        2 * runtime.GOMAXPROCS(0),
	}
	if len(missing) > 0 {
		q.q.Close()
		return nil, fmt.Errorf("sourcefacts: tree-sitter-go lacks %s", strings.Join(missing, ", "))
	}
	return e, nil
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

// grammarVersion is the version the grammar declares in its own metadata
// (tree-sitter ABI 15), else the linked module's version.
func grammarVersion(lang *ts.Language) string {
	if md := lang.Metadata(); md != nil && (md.MajorVersion|md.MinorVersion|md.PatchVersion) != 0 {
		return fmt.Sprintf("v%d.%d.%d", md.MajorVersion, md.MinorVersion, md.PatchVersion)
	}
	return moduleVersion(treeSitterGoModule, fallbackGrammarVersion)
}

// ParserVersion is the Provenance.Parser this Extractor stamps, e.g.
// "tree-sitter/0.25.0".
func (e *Extractor) ParserVersion() string { return e.parserVersion }

// GrammarVersion is the Provenance.GrammarVersion this Extractor stamps,
// e.g. "v0.25.0".
func (e *Extractor) GrammarVersion() string { return e.grammarVersion }

// SetParseTimeout sets the wall-clock budget for parsing one input, and,
// separately, for running the queries over its tree. When the parse runs
// out of budget Extract reports StatusError "parse timeout"; when the
// queries do, StatusPartial with Error "query timeout: facts incomplete".
// 0 restores the default (10 s plus 5 s per MiB of input); a negative value
// means no budget. A ctx deadline, when sooner, always applies. Safe for
// concurrent use.
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

// Close frees the compiled queries and pooled parsers. It waits for
// extractions in flight; later calls to Extract return ErrClosed. Close is
// idempotent.
func (e *Extractor) Close() {
	e.life.Lock()
	defer e.life.Unlock()
	if e.closed {
		return
	}
	e.closed = true
	e.mu.Lock()
	for _, w := range e.idle {
		w.close()
	}
	e.idle = nil
	e.mu.Unlock()
	e.query.q.Close()
}

func (e *Extractor) getWorker() (*worker, error) {
	e.mu.Lock()
	if n := len(e.idle); n > 0 {
		w := e.idle[n-1]
		e.idle = e.idle[:n-1]
		e.mu.Unlock()
		return w, nil
	}
	e.mu.Unlock()
	p := ts.NewParser()
	if err := p.SetLanguage(e.lang); err != nil {
		p.Close()
		return nil, fmt.Errorf("sourcefacts: set language: %w", err)
	}
	return &worker{parser: p, cursor: ts.NewQueryCursor()}, nil
}

func (e *Extractor) putWorker(w *worker) {
	e.mu.Lock()
	if len(e.idle) < e.maxIdle {
		e.idle = append(e.idle, w)
		w = nil
	}
	e.mu.Unlock()
	if w != nil {
		w.close()
	}
}

// Extract parses src, the exact bytes of the file at path (relative to the
// project root, slash-separated), and returns its facts.
//
// The result always carries Provenance (Hash = HashBytes(src), Generation 1,
// Project left empty for the caller), Language "go" and Test (path ends in
// "_test.go"). Status is StatusCurrent for a clean parse, StatusPartial when
// the tree holds syntax errors (facts may be incomplete; Error says where the
// first one is), or StatusError with Error set and no facts when the input
// cannot be parsed: "binary file" (a NUL byte in the first BinarySniffBytes),
// "too large" (over MaxParseBytes), "parse timeout" (see SetParseTimeout) or
// "parse failed". Invalid UTF-8 is parsed (tree-sitter marks it as errors);
// text in facts is made valid UTF-8 (U+FFFD for bad bytes) and capped (see
// the Max*Bytes constants); ranges always refer to the exact bytes.
//
// Extract returns a non-nil error only when ctx is done (ctx.Err()) or the
// Extractor is closed. It never panics on any input and is safe for
// concurrent use.
func (e *Extractor) Extract(ctx context.Context, path string, src []byte) (ff *FileFacts, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e.life.RLock()
	defer e.life.RUnlock()
	if e.closed {
		return nil, ErrClosed
	}
	ff = &FileFacts{
		Provenance: Provenance{
			Path:           path,
			Hash:           HashBytes(src),
			Generation:     1,
			Parser:         e.parserVersion,
			Grammar:        e.grammar,
			GrammarVersion: e.grammarVersion,
			Extractor:      ExtractorVersion,
		},
		Language:   "go",
		Test:       strings.HasSuffix(path, "_test.go"),
		Status:     StatusCurrent,
		Symbols:    []Symbol{},
		References: []Reference{},
		Imports:    []Import{},
	}
	if bytes.IndexByte(src[:min(len(src), BinarySniffBytes)], 0) >= 0 {
		return ff.fail("binary file"), nil
	}
	if len(src) > MaxParseBytes {
		return ff.fail("too large"), nil
	}

	w, err := e.getWorker()
	if err != nil {
		return ff.fail(err.Error()), nil
	}
	reuse := false
	defer func() {
		if reuse {
			e.putWorker(w)
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
		w.parser.Reset()
		reuse = true
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

	x := &extraction{e: e, src: src, ff: ff}
	if err := x.run(ctx, w.cursor, tree.RootNode(), e.budget(ctx, len(src))); err != nil {
		reuse = true
		return nil, err
	}
	reuse = true
	return ff, nil
}

// fail turns ff into an error record without facts.
func (ff *FileFacts) fail(msg string) *FileFacts {
	ff.Status = StatusError
	ff.Error = msg
	ff.Package = ""
	ff.Symbols = []Symbol{}
	ff.References = []Reference{}
	ff.Imports = []Import{}
	return ff
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

// extraction is the state of one Extract call after parsing.
type extraction struct {
	e        *Extractor
	src      []byte
	ff       *FileFacts
	comments []span // every comment, sorted by start
}

// span is a node's extent: bytes 0-based end exclusive, rows 0-based.
type span struct {
	start, end       int
	startRow, endRow int
}

func spanOf(n *ts.Node) span {
	r := n.Range()
	return span{start: int(r.StartByte), end: int(r.EndByte), startRow: int(r.StartPoint.Row), endRow: int(r.EndPoint.Row)}
}

type defCand struct {
	kind    string
	node    ts.Node
	name    ts.Node
	pattern uint
}

type refCand struct {
	kind string
	name ts.Node
}

type importCand struct {
	node, path ts.Node
	alias      *ts.Node
}

// run walks the query matches over root and fills x.ff. The walk stops
// early, leaving StatusPartial, if it outlasts budget (0: none).
func (x *extraction) run(ctx context.Context, qc *ts.QueryCursor, root *ts.Node, budget time.Duration) error {
	cq := x.e.query
	var (
		defs      []defCand
		defSeen   = map[uint]int{} // name start byte -> index in defs
		refs      []refCand
		receivers = map[uint]ts.Node{} // selected name start byte -> operand
		imports   []importCand
		pkg       *ts.Node
		count     int
	)
	qc.SetTimeoutMicros(uint64(budget / time.Microsecond))
	start := time.Now()
	matches := qc.Matches(cq.q, root, x.src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		if count++; count%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var (
			name, def, ref, imp, impPath, impAlias, recv, recvName *ts.Node
			defKind, refKind                                       string
		)
		for i := range m.Captures {
			c := &m.Captures[i]
			n := c.Node // copy: the match's memory is reused by Next
			switch ci := cq.captures[c.Index]; ci.role {
			case capName:
				name = &n
			case capDefinition:
				def, defKind = &n, ci.kind
			case capReference:
				ref, refKind = &n, ci.kind
			case capPackageName:
				if pkg == nil {
					pkg = &n
				}
			case capImport:
				imp = &n
			case capImportPath:
				impPath = &n
			case capImportAlias:
				impAlias = &n
			case capReceiver:
				recv = &n
			case capReceiverName:
				recvName = &n
			case capComment:
				x.comments = append(x.comments, spanOf(&n))
			}
		}
		switch {
		case def != nil && name != nil:
			key := name.StartByte()
			if _, ok := defSeen[key]; ok {
				continue
			}
			defSeen[key] = len(defs)
			defs = append(defs, defCand{kind: defKind, node: *def, name: *name, pattern: m.PatternIndex})
		case ref != nil && name != nil:
			refs = append(refs, refCand{kind: refKind, name: *name})
		case imp != nil && impPath != nil:
			imports = append(imports, importCand{node: *imp, path: *impPath, alias: impAlias})
		case recv != nil && recvName != nil:
			receivers[recvName.StartByte()] = *recv
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return context.DeadlineExceeded
	}

	ff := x.ff
	if pkg != nil {
		ff.Package = x.text(pkg, 256)
	}
	if root.HasError() {
		ff.Status = StatusPartial
		ff.Error = x.firstError(root)
	}
	incomplete := ""
	switch {
	case budget > 0 && time.Since(start) >= budget:
		incomplete = "query timeout: facts incomplete"
	case qc.DidExceedMatchLimit():
		incomplete = "query match limit exceeded: facts incomplete"
	}
	if incomplete != "" {
		ff.Status = StatusPartial
		ff.Error = strings.TrimPrefix(ff.Error+"; "+incomplete, "; ")
	}
	slices.SortFunc(x.comments, func(a, b span) int { return cmp.Compare(a.start, b.start) })

	// Symbols.
	for i := range defs {
		ff.Symbols = append(ff.Symbols, x.symbol(&defs[i]))
	}
	slices.SortStableFunc(ff.Symbols, func(a, b Symbol) int {
		return cmp.Or(
			cmp.Compare(a.Range.StartByte, b.Range.StartByte),
			cmp.Compare(b.Range.EndByte, a.Range.EndByte),
			cmp.Compare(a.NameRange.StartByte, b.NameRange.StartByte),
		)
	})
	x.setContainers()

	// References: a name that is a definition's name is not also a
	// reference to itself (the tags convention keeps one tag per node).
	seen := make(map[uint]bool, len(refs))
	for _, r := range refs {
		k := r.name.StartByte()
		if _, isDef := defSeen[k]; isDef || seen[k] {
			continue
		}
		seen[k] = true
		ref := Reference{
			Name:      x.text(&r.name, 1024),
			Kind:      r.kind,
			Enclosing: -1,
			Range:     x.rangeOf(&r.name),
		}
		if op, ok := receivers[k]; ok {
			ref.Receiver = collapse(x.src[op.StartByte():op.EndByte()], MaxReceiverBytes)
		}
		ff.References = append(ff.References, ref)
	}
	slices.SortStableFunc(ff.References, func(a, b Reference) int {
		return cmp.Compare(a.Range.StartByte, b.Range.StartByte)
	})
	x.setEnclosing()

	// Imports.
	for _, im := range imports {
		ff.Imports = append(ff.Imports, x.importFact(&im))
	}
	slices.SortStableFunc(ff.Imports, func(a, b Import) int {
		return cmp.Compare(a.Range.StartByte, b.Range.StartByte)
	})
	return nil
}

func (x *extraction) symbol(d *defCand) Symbol {
	k := &x.e.kinds
	s := Symbol{
		Name:      x.text(&d.name, 1024),
		Kind:      d.kind,
		Range:     x.rangeOf(&d.node),
		NameRange: x.rangeOf(&d.name),
	}
	id := d.node.KindId()
	switch {
	case d.kind == KindType && id == k.typeSpec:
		if t := d.node.ChildByFieldId(x.e.fields.typ); t != nil {
			switch t.KindId() {
			case k.interfaceType:
				s.Kind = KindInterface
			case k.structType:
				s.Kind = KindStruct
			}
		}
	case id == k.methodDecl:
		s.Receiver = x.receiverType(&d.node)
	}
	anchor := span{start: s.Range.StartByte, startRow: s.Range.StartLine - 1}
	switch id {
	case k.typeSpec, k.typeAlias, k.constSpec, k.varSpec:
		if kw, ok := x.declKeyword(s.Range.StartByte); ok && x.followsKeyword(&d.node) {
			// `type T struct{...}`, `var v = 1`: an ungrouped declaration,
			// whose whole text (keyword included) is the definition and
			// whose doc comment sits above the keyword.
			s.Range.StartByte = kw
			s.Range.StartLine -= bytes.Count(x.src[kw:anchor.start], []byte("\n"))
			s.Range.StartCol = kw - (bytes.LastIndexByte(x.src[:kw], '\n') + 1)
			anchor = span{start: kw, startRow: s.Range.StartLine - 1}
		}
	}
	s.Signature = x.signature(&d.node)
	s.Doc = x.docText(x.docComments(anchor), x.e.query.patterns[d.pattern].strip)
	return s
}

// declKeyword reports whether the text just before offset (skipping white
// space) is the keyword `type`, `const` or `var`, and where it starts.
func (x *extraction) declKeyword(offset int) (int, bool) {
	i := offset
	for i > 0 && isSpace(x.src[i-1]) {
		i--
	}
	for _, kw := range [...]string{"type", "const", "var"} {
		j := i - len(kw)
		if j >= 0 && string(x.src[j:i]) == kw && (j == 0 || !isIdentByte(x.src[j-1])) {
			return j, true
		}
	}
	return 0, false
}

// followsKeyword confirms from the tree what declKeyword saw in the text
// (which a comment ending in "type" could fool): n's previous sibling is
// the declaration keyword. Only called when the text says so, because
// PrevSibling costs time linear in the number of earlier siblings.
func (x *extraction) followsKeyword(n *ts.Node) bool {
	prev := n.PrevSibling()
	if prev == nil || prev.IsNamed() {
		return false
	}
	switch prev.Kind() {
	case "type", "const", "var":
		return true
	}
	return false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// docComments returns the doc comments of a definition starting at anchor
// (its start byte and 0-based row): the run of comments directly above it,
// each on the line after (or the same line as) the one before, the last on
// the line just above, with only white space between them (the tags
// #set-adjacent! rule). A topmost comment that trails code on its line
// (`x := 1 // note`) is not part of the run, as in Go's doc comments.
func (x *extraction) docComments(anchor span) []span {
	cs := x.comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].end > anchor.start }) - 1
	if i < 0 || anchor.startRow-cs[i].endRow != 1 || !isBlank(x.src[cs[i].end:anchor.start]) {
		return nil
	}
	first := i
	for j := i - 1; j >= 0; j-- {
		gap := cs[j+1].startRow - cs[j].endRow
		if gap < 0 || gap > 1 || !isBlank(x.src[cs[j].end:cs[j+1].start]) {
			break
		}
		first = j
	}
	if c := cs[first]; !isBlank(x.src[bytes.LastIndexByte(x.src[:c.start], '\n')+1 : c.start]) {
		first++
	}
	return cs[first : i+1]
}

// receiverType returns the base type name of a method's receiver:
// "Server" for (s *Server), "List" for (l *List[T]).
func (x *extraction) receiverType(method *ts.Node) string {
	k, f := &x.e.kinds, &x.e.fields
	params := method.ChildByFieldId(f.receiver)
	if params == nil {
		return ""
	}
	var t *ts.Node
	for i := uint(0); i < params.NamedChildCount(); i++ {
		if c := params.NamedChild(i); c != nil && c.KindId() != k.comment {
			t = c.ChildByFieldId(f.typ)
			break
		}
	}
	for depth := 0; t != nil && depth < 16; depth++ {
		switch t.KindId() {
		case k.typeIdent:
			return x.text(t, 1024)
		case k.pointerType, k.parenType:
			t = t.NamedChild(0)
		case k.genericType:
			t = t.ChildByFieldId(f.typ)
		case k.qualifiedType:
			t = t.ChildByFieldId(f.name)
		default:
			return ""
		}
	}
	return ""
}

// signature is the declaration's text up to its body (the "{" of a function
// body, struct or interface), whitespace collapsed, capped at
// MaxSignatureBytes.
func (x *extraction) signature(n *ts.Node) string {
	k, f := &x.e.kinds, &x.e.fields
	start, end := n.StartByte(), n.EndByte()
	prefix := ""
	switch n.KindId() {
	case k.functionDecl, k.methodDecl:
		if body := n.ChildByFieldId(f.body); body != nil {
			end = body.StartByte()
		}
	case k.typeSpec, k.typeAlias:
		prefix = "type "
		if t := n.ChildByFieldId(f.typ); t != nil && (t.KindId() == k.structType || t.KindId() == k.interfaceType) {
			tStart, tEnd := t.StartByte(), t.EndByte()
			if i := bytes.IndexByte(x.src[tStart:min(tEnd, tStart+256)], '{'); i >= 0 {
				end = tStart + uint(i)
			}
		}
	case k.constSpec:
		prefix = "const "
	case k.varSpec:
		prefix = "var "
	}
	return prefix + collapse(x.src[start:end], MaxSignatureBytes-len(prefix))
}

var defaultDocStrip = regexp.MustCompile(`^//\s*`)

// docText joins doc comments into plain text: line comments lose strip
// (the pattern's #strip! regex, default `^//\s*`), block comments lose their
// /* */ markers and any leading " * " on each line. Capped at MaxDocBytes.
func (x *extraction) docText(docs []span, strip *regexp.Regexp) string {
	if len(docs) == 0 {
		return ""
	}
	if strip == nil {
		strip = defaultDocStrip
	}
	var b strings.Builder
	for _, d := range docs {
		if b.Len() > MaxDocBytes {
			break
		}
		raw := x.src[d.start:d.end]
		if len(raw) > 2*MaxDocBytes {
			raw = raw[:2*MaxDocBytes]
		}
		t := strings.ToValidUTF8(string(raw), "\uFFFD")
		if strings.HasPrefix(t, "/*") {
			t = strings.TrimSuffix(strings.TrimPrefix(t, "/*"), "*/")
			for line := range strings.SplitSeq(t, "\n") {
				line = strings.TrimSpace(line)
				line = strings.TrimSpace(strings.TrimLeft(line, "*"))
				b.WriteString(line)
				b.WriteByte('\n')
			}
			continue
		}
		if isDirective(t) {
			continue
		}
		b.WriteString(strings.TrimRight(strip.ReplaceAllString(t, ""), " \t\r"))
		b.WriteByte('\n')
	}
	return capText(strings.TrimSpace(b.String()), MaxDocBytes)
}

// isDirective reports whether line comment c is a tool directive rather
// than documentation (go/ast's rule): //line, //extern, //export, or
// //name:arg such as //go:noinline.
func isDirective(c string) bool {
	c, ok := strings.CutPrefix(c, "//")
	if !ok {
		return false
	}
	for _, p := range [...]string{"line ", "extern ", "export "} {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	colon := strings.IndexByte(c, ':')
	if colon <= 0 || colon+1 >= len(c) {
		return false
	}
	for i := 0; i <= colon+1; i++ {
		if i == colon {
			continue
		}
		if b := c[i]; !('a' <= b && b <= 'z' || '0' <= b && b <= '9') {
			return false
		}
	}
	return true
}

func (x *extraction) importFact(im *importCand) Import {
	raw := x.text(&im.path, 4096)
	p, err := strconv.Unquote(raw)
	if err != nil {
		p = strings.Trim(raw, "\"`")
	}
	out := Import{Path: strings.ToValidUTF8(p, "\uFFFD"), Range: x.rangeOf(&im.node)}
	if im.alias != nil {
		out.Alias = x.text(im.alias, 1024)
	}
	return out
}

// setContainers sets each symbol's Container to the qualified name of the
// innermost other symbol whose range contains it. Symbols are sorted by
// start ascending, end descending, so ranges nest like a stack.
func (x *extraction) setContainers() {
	syms := x.ff.Symbols
	var stack []int
	for i := range syms {
		for len(stack) > 0 {
			top := &syms[stack[len(stack)-1]]
			if contains(top.Range, syms[i].Range) && top.Range != syms[i].Range {
				break
			}
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			p := &syms[stack[len(stack)-1]]
			if p.Container != "" {
				syms[i].Container = p.Container + "." + p.Qualified()
			} else {
				syms[i].Container = p.Qualified()
			}
		}
		stack = append(stack, i)
	}
}

// setEnclosing sets each reference's Enclosing to the innermost function or
// method symbol containing it, else the innermost symbol, else -1.
func (x *extraction) setEnclosing() {
	syms, refs := x.ff.Symbols, x.ff.References
	var stack []int
	next := 0
	for i := range refs {
		r := refs[i].Range
		for next < len(syms) && syms[next].Range.StartByte <= r.StartByte {
			for len(stack) > 0 && !contains(syms[stack[len(stack)-1]].Range, syms[next].Range) {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, next)
			next++
		}
		for len(stack) > 0 && !contains(syms[stack[len(stack)-1]].Range, r) {
			stack = stack[:len(stack)-1]
		}
		refs[i].Enclosing = -1
		for j := len(stack) - 1; j >= 0; j-- {
			if k := syms[stack[j]].Kind; k == KindFunction || k == KindMethod {
				refs[i].Enclosing = stack[j]
				break
			}
		}
		if refs[i].Enclosing < 0 && len(stack) > 0 {
			refs[i].Enclosing = stack[len(stack)-1]
		}
	}
}

func contains(outer, inner Range) bool {
	return outer.StartByte <= inner.StartByte && inner.EndByte <= outer.EndByte
}

// firstError describes the first ERROR or MISSING node in document order.
func (x *extraction) firstError(root *ts.Node) string {
	c := root.Walk()
	defer c.Close()
	for steps := 0; steps < 1<<20; steps++ {
		n := c.Node()
		switch {
		case n.IsMissing():
			p := n.StartPosition()
			return fmt.Sprintf("syntax error: missing %s at line %d col %d", n.Kind(), p.Row+1, p.Column)
		case n.IsError():
			p := n.StartPosition()
			return fmt.Sprintf("syntax error at line %d col %d", p.Row+1, p.Column)
		case n.HasError() && c.GotoFirstChild():
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return "syntax error"
			}
		}
	}
	return "syntax error"
}

// text returns n's source text as valid UTF-8, capped at max bytes.
func (x *extraction) text(n *ts.Node, max int) string {
	return capText(strings.ToValidUTF8(string(x.src[n.StartByte():n.EndByte()]), "\uFFFD"), max)
}

// rangeOf converts a node's span to a Range: bytes 0-based end exclusive,
// lines 1-based inclusive, columns 0-based bytes.
func (x *extraction) rangeOf(n *ts.Node) Range {
	tr := n.Range()
	r := Range{
		StartByte: int(tr.StartByte), EndByte: int(tr.EndByte),
		StartLine: int(tr.StartPoint.Row) + 1, EndLine: int(tr.EndPoint.Row) + 1,
		StartCol: int(tr.StartPoint.Column), EndCol: int(tr.EndPoint.Column),
	}
	if r.EndCol == 0 && r.EndLine > r.StartLine && r.EndByte > r.StartByte && r.EndByte <= len(x.src) {
		// The span ends just after a newline: its last line is the one
		// that newline ends.
		r.EndLine--
		r.EndCol = r.EndByte - (bytes.LastIndexByte(x.src[:r.EndByte-1], '\n') + 1)
	}
	return r
}

// collapse returns b with runs of white space turned into one space,
// trimmed, as valid UTF-8, capped at max bytes. It reads only as much of b
// as it needs.
func collapse(b []byte, max int) string {
	var out []byte
	space := false
	cut := false
	for i := 0; i < len(b); {
		c := b[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
			space = len(out) > 0
			i++
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
			size = 1
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
		if len(out) > max {
			cut = true
			break
		}
	}
	s := string(out)
	if cut {
		return capText(s, max)
	}
	return s
}

// capText cuts s (valid UTF-8) to at most max bytes on a rune boundary,
// appending "…" (counted in max) when it cuts.
func capText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const ell = "…"
	n := max - len(ell)
	if n < 0 {
		n = 0
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + ell
}
