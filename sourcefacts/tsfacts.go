package sourcefacts

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// extraction is the state of one tree-sitter Extract call after parsing.
type extraction struct {
	g        *compiledGrammar
	src      []byte
	ff       *FileFacts
	comments []commentSpan // every comment, sorted by start
	owners   []owner       // method owners without a symbol (Rust impl blocks)
	lines    []int         // byte offset of each line's start; built on first use
}

// lineStart returns the offset of the start of the line holding offset
// off. The first call indexes the lines (one pass over src), so that no
// lookup scans a long line again: on a minified file a backwards scan per
// fact would cost time quadratic in its length.
func (x *extraction) lineStart(off int) int {
	if x.lines == nil {
		x.lines = append(make([]int, 0, 1+bytes.Count(x.src, []byte("\n"))), 0)
		for i, c := range x.src {
			if c == '\n' {
				x.lines = append(x.lines, i+1)
			}
		}
	}
	return x.lines[sort.SearchInts(x.lines, off+1)-1]
}

// span is a node's extent: bytes 0-based end exclusive, rows 0-based,
// startCol the byte column of start.
type span struct {
	start, end       int
	startRow, endRow int
	startCol         int
}

func spanOf(n *ts.Node) span {
	r := n.Range()
	return span{start: int(r.StartByte), end: int(r.EndByte), startRow: int(r.StartPoint.Row), endRow: int(r.EndPoint.Row),
		startCol: int(r.StartPoint.Column)}
}

// commentSpan is a comment, or (skip) something that may sit inside a run
// of doc comments without adding text, such as a Rust attribute.
type commentSpan struct {
	span
	skip bool
}

// commentOf is n's span without a trailing newline (Rust's line comments
// include theirs), so that its last row is the row its text is on.
func commentOf(n *ts.Node, src []byte) span {
	s := spanOf(n)
	if n.EndPosition().Column == 0 && s.endRow > s.startRow {
		s.endRow--
	}
	for s.end > s.start && (src[s.end-1] == '\n' || src[s.end-1] == '\r') {
		s.end--
	}
	return s
}

// owner is a region whose functions are methods of name (Rust's impl).
type owner struct {
	span
	name string
}

type defCand struct {
	kind     string
	node     ts.Node
	name     ts.Node
	receiver *ts.Node // C++: the class of an out-of-class method definition
	pattern  uint
}

type refCand struct {
	kind     string
	name     ts.Node
	notLocal bool // drop if the name is a local variable (#is-not? local)
}

type importCand struct {
	node   ts.Node
	path   *ts.Node
	alias  *ts.Node
	module *ts.Node // Python: the `from` module
	kind   *ts.Node // Ruby: require, require_relative or load
}

// localScope and localDef are locals.scm's @local.scope and
// @local.definition.
type localScope struct {
	span
	inherits bool
}

type localDef struct {
	name  string
	start int
}

// run walks the query matches over root and fills x.ff. The walk stops
// early, leaving StatusPartial, if it outlasts budget (0: none).
func (x *extraction) run(ctx context.Context, qc *ts.QueryCursor, root *ts.Node, budget time.Duration) error {
	cq := x.g.query
	var (
		defs      []defCand
		defSeen   = map[uint]int{} // name start byte -> index in defs
		refs      []refCand
		receivers = map[uint]ts.Node{} // selected name start byte -> operand
		imports   []importCand
		pkg       *ts.Node
		scopes    []localScope
		locals    []localDef
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
			name, def, ref, imp, impPath, impAlias, impModule, impKind *ts.Node
			recv, recvName, defRecv, own, ownName                      *ts.Node
			defKind, refKind                                           string
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
			case capImportModule:
				impModule = &n
			case capImportKind:
				impKind = &n
			case capReceiver:
				recv = &n
			case capReceiverName:
				recvName = &n
			case capDefReceiver:
				defRecv = &n
			case capOwner:
				own = &n
			case capOwnerName:
				ownName = &n
			case capComment:
				x.comments = append(x.comments, commentSpan{span: commentOf(&n, x.src)})
			case capCommentSkip:
				x.comments = append(x.comments, commentSpan{span: commentOf(&n, x.src), skip: true})
			case capLocalScope:
				scopes = append(scopes, localScope{span: spanOf(&n), inherits: !cq.patterns[m.PatternIndex].noInherit})
			case capLocalDef:
				locals = append(locals, localDef{name: string(x.src[n.StartByte():n.EndByte()]), start: int(n.StartByte())})
			}
		}
		switch {
		case def != nil && name != nil:
			key := name.StartByte()
			if i, ok := defSeen[key]; ok {
				// The same name captured by two patterns (C's tags.scm
				// captures a function's declarator, c-extra.scm the whole
				// definition): keep the widest node, and any receiver.
				d := &defs[i]
				if def.StartByte() <= d.node.StartByte() && def.EndByte() >= d.node.EndByte() &&
					(def.StartByte() < d.node.StartByte() || def.EndByte() > d.node.EndByte()) {
					d.node, d.kind, d.pattern = *def, defKind, m.PatternIndex
				}
				if d.receiver == nil && defRecv != nil {
					r := *defRecv
					d.receiver = &r
				}
				continue
			}
			defSeen[key] = len(defs)
			defs = append(defs, defCand{kind: defKind, node: *def, name: *name, receiver: defRecv, pattern: m.PatternIndex})
		case ref != nil && name != nil:
			refs = append(refs, refCand{kind: refKind, name: *name, notLocal: cq.patterns[m.PatternIndex].notLocal})
			if recv != nil {
				receivers[name.StartByte()] = *recv
			}
		case imp != nil:
			imports = append(imports, importCand{node: *imp, path: impPath, alias: impAlias, module: impModule, kind: impKind})
		case recv != nil && recvName != nil:
			receivers[recvName.StartByte()] = *recv
		case own != nil && ownName != nil:
			x.owners = append(x.owners, owner{span: spanOf(own), name: ownerName(x.text(ownName, 1024))})
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
		if x.g.spec.name == "go" {
			ff.Package = x.text(pkg, 256)
		} else {
			ff.Package = strings.Join(strings.Fields(x.text(pkg, 1024)), "")
		}
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
	slices.SortFunc(x.comments, func(a, b commentSpan) int { return cmp.Compare(a.start, b.start) })

	// Symbols.
	for i := range defs {
		if s, ok := x.symbol(&defs[i]); ok {
			ff.Symbols = append(ff.Symbols, s)
		}
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
	local := x.localNames(refs, scopes, locals)
	seen := make(map[uint]bool, len(refs))
	for i, r := range refs {
		k := r.name.StartByte()
		if _, isDef := defSeen[k]; isDef || seen[k] || local[i] {
			continue
		}
		seen[k] = true
		kind := refKindOf(r.kind)
		if x.g.spec.refKind != nil {
			kind = x.g.spec.refKind(x, &refs[i])
		}
		ref := Reference{
			Name:      x.text(&r.name, 1024),
			Kind:      kind,
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

	// Imports: one candidate per path node, preferring one with an alias
	// (`const x = require('m')` matches both require patterns).
	byPath := map[uint]int{}
	var cands []importCand
	for _, im := range imports {
		key := im.node.StartByte()
		if im.path != nil {
			key = im.path.StartByte()
		}
		if i, ok := byPath[key]; ok {
			if cands[i].alias == nil && im.alias != nil {
				cands[i] = im
			}
			continue
		}
		byPath[key] = len(cands)
		cands = append(cands, im)
	}
	for i := range cands {
		ff.Imports = append(ff.Imports, x.g.spec.imports(x, &cands[i])...)
	}
	slices.SortStableFunc(ff.Imports, func(a, b Import) int {
		return cmp.Compare(a.Range.StartByte, b.Range.StartByte)
	})
	return nil
}

// defKindOf maps a tags definition.<kind> suffix to a Kind constant.
func defKindOf(kind string) string {
	switch kind {
	case "function":
		return KindFunction
	case "method":
		return KindMethod
	case "class":
		return KindClass
	case "interface":
		return KindInterface
	case "module":
		return KindModule
	case "macro":
		return KindMacro
	case "constant":
		return KindConstant
	case "type":
		return KindType
	case "enum":
		return KindEnum
	}
	return kind
}

// refKindOf maps a tags reference.<kind> suffix to a Ref constant.
func refKindOf(kind string) string {
	switch kind {
	case "call":
		return RefCall
	case "type":
		return RefType
	case "class":
		return RefClass
	case "implementation":
		return RefImplementation
	}
	return kind
}

// localNames reports which references are local variables by locals.scm's
// rules, for references from patterns with `#is-not? local`: a name
// defined (@local.definition) at or before the reference in its innermost
// @local.scope, or in an enclosing scope while scopes inherit, is local.
// The whole file is the outermost scope.
func (x *extraction) localNames(refs []refCand, scopes []localScope, locals []localDef) []bool {
	out := make([]bool, len(refs))
	need := false
	for _, r := range refs {
		need = need || r.notLocal
	}
	if !need {
		return out
	}
	scopes = append(scopes, localScope{span: span{start: 0, end: len(x.src) + 1}})
	slices.SortFunc(scopes, func(a, b localScope) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end))
	})
	type event struct {
		pos, order int // order: 0 scope, 1 definition, 2 reference
		i          int
	}
	var events []event
	for i, s := range scopes {
		events = append(events, event{s.start, 0, i})
	}
	for i, d := range locals {
		events = append(events, event{d.start, 1, i})
	}
	for i, r := range refs {
		if r.notLocal {
			events = append(events, event{int(r.name.StartByte()), 2, i})
		}
	}
	slices.SortStableFunc(events, func(a, b event) int {
		return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.order, b.order))
	})
	names := make([]map[string]bool, len(scopes))
	var stack []int
	for _, ev := range events {
		for len(stack) > 0 && scopes[stack[len(stack)-1]].end <= ev.pos {
			stack = stack[:len(stack)-1]
		}
		switch ev.order {
		case 0:
			stack = append(stack, ev.i)
		case 1:
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				if names[top] == nil {
					names[top] = map[string]bool{}
				}
				names[top][locals[ev.i].name] = true
			}
		case 2:
			n := refs[ev.i].name
			name := string(x.src[n.StartByte():n.EndByte()])
			for j := len(stack) - 1; j >= 0; j-- {
				if names[stack[j]][name] {
					out[ev.i] = true
					break
				}
				if !scopes[stack[j]].inherits {
					break
				}
			}
		}
	}
	return out
}

// symbol turns a definition candidate into a Symbol; false drops it.
func (x *extraction) symbol(d *defCand) (Symbol, bool) {
	spec := x.g.spec
	s := Symbol{
		Name:      x.text(&d.name, 1024),
		Kind:      defKindOf(d.kind),
		Range:     x.rangeOf(&d.node),
		NameRange: x.rangeOf(&d.name),
	}
	if spec.name == "go" {
		x.goSymbol(d, &s)
		return s, true
	}
	if spec.defKind != nil {
		k, keep := spec.defKind(x, d)
		if !keep {
			return s, false
		}
		s.Kind = k
	}
	if d.receiver != nil {
		s.Receiver = ownerName(x.text(d.receiver, 1024))
	}
	s.Signature = x.signature(&d.node)
	if spec.docstrings {
		s.Doc = x.docstring(&d.node)
		return s, true
	}
	// Doc comments sit above the definition, or above the line it starts
	// on when only words precede it there (`export`, `export default`).
	anchor := span{start: s.Range.StartByte, startRow: s.Range.StartLine - 1}
	if lineStart := s.Range.StartByte - s.Range.StartCol; s.Range.StartCol <= 64 && wordsOnly(x.src[lineStart:s.Range.StartByte]) {
		anchor.start = lineStart
	}
	strip := x.g.query.patterns[d.pattern].strip
	if strip == nil {
		strip = x.g.docStrip
	}
	s.Doc = x.docText(x.docComments(anchor), strip)
	return s, true
}

// goSymbol fills in what Go's declarations say beyond the captures.
func (x *extraction) goSymbol(d *defCand, s *Symbol) {
	k := &x.g.kinds
	id := d.node.KindId()
	switch {
	case s.Kind == KindType && id == k.typeSpec:
		if t := d.node.ChildByFieldId(x.g.fields.typ); t != nil {
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
			s.Range.StartCol = kw - x.lineStart(kw)
			anchor = span{start: kw, startRow: s.Range.StartLine - 1}
		}
	}
	s.Signature = x.goSignature(&d.node)
	s.Doc = x.docText(x.docComments(anchor), x.g.query.patterns[d.pattern].strip)
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

// wordsOnly reports whether b holds only letters, digits, underscores and
// white space.
func wordsOnly(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) && !isIdentByte(c) {
			return false
		}
	}
	return true
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
// Skip entries (Rust attributes) may sit in the run; they never start or
// end it.
func (x *extraction) docComments(anchor span) []commentSpan {
	cs := x.comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].end > anchor.start }) - 1
	if i < 0 || anchor.startRow-cs[i].endRow != 1 || !isBlank(x.src[cs[i].end:anchor.start]) {
		return nil
	}
	first := i
	for j := i - 1; j >= 0; j-- {
		gap := cs[j+1].startRow - cs[j].endRow
		if gap < 0 || gap > 1 || cs[j].end > cs[j+1].start || !isBlank(x.src[cs[j].end:cs[j+1].start]) {
			break
		}
		first = j
	}
	if c := cs[first]; !isBlank(x.src[c.start-c.startCol : c.start]) {
		first++
	}
	for first <= i && cs[first].skip {
		first++
	}
	return cs[first : i+1]
}

// receiverType returns the base type name of a Go method's receiver:
// "Server" for (s *Server), "List" for (l *List[T]).
func (x *extraction) receiverType(method *ts.Node) string {
	k, f := &x.g.kinds, &x.g.fields
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

// goSignature is a Go declaration's text up to its body (the "{" of a
// function body, struct or interface), whitespace collapsed, capped at
// MaxSignatureBytes.
func (x *extraction) goSignature(n *ts.Node) string {
	k, f := &x.g.kinds, &x.g.fields
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

// signature is a definition's text up to its body (the node's `body`
// field) or else its first line, whitespace collapsed, without the
// grammar's sigTrim suffix, capped at MaxSignatureBytes.
func (x *extraction) signature(n *ts.Node) string {
	start, end := n.StartByte(), n.EndByte()
	var body *ts.Node
	if x.g.fields.body != 0 {
		body = n.ChildByFieldId(x.g.fields.body)
	}
	if body != nil && body.StartByte() > start {
		end = body.StartByte()
	} else if i := bytes.IndexByte(x.src[start:min(end, start+4*MaxSignatureBytes)], '\n'); i >= 0 {
		end = start + uint(i)
	}
	// A comment before the body (Ruby's `module M # note`) is not part
	// of the signature.
	cs := x.comments
	if i := sort.Search(len(cs), func(i int) bool { return cs[i].start >= int(start) }); i < len(cs) && cs[i].start < int(end) {
		end = uint(cs[i].start)
	}
	s := collapse(x.src[start:end], MaxSignatureBytes)
	if t := x.g.spec.sigTrim; t != "" && !strings.HasSuffix(s, "…") {
		s = strings.TrimSpace(strings.TrimSuffix(s, t))
	}
	return s
}

// docstring is a Python definition's docstring: its body's first
// statement when that is a string literal, with the quotes removed and
// indentation cleaned as inspect.cleandoc does. Capped at MaxDocBytes.
func (x *extraction) docstring(n *ts.Node) string {
	if x.g.fields.body == 0 {
		return ""
	}
	body := n.ChildByFieldId(x.g.fields.body)
	if body == nil {
		return ""
	}
	stmt := body.NamedChild(0)
	if stmt == nil || stmt.Kind() != "expression_statement" {
		return ""
	}
	str := stmt.NamedChild(0)
	if str == nil || str.Kind() != "string" || str.NextNamedSibling() != nil {
		return ""
	}
	raw := x.src[str.StartByte():min(str.EndByte(), str.StartByte()+4*MaxDocBytes)]
	i := bytes.IndexAny(raw, `"'`)
	if i < 0 || i > 3 {
		return ""
	}
	q := raw[i : i+1]
	if bytes.HasPrefix(raw[i:], bytes.Repeat(q, 3)) {
		q = bytes.Repeat(q, 3)
	}
	body2 := bytes.TrimSuffix(raw[i+len(q):], q)
	return capText(cleandoc(strings.ToValidUTF8(string(body2), "\uFFFD")), MaxDocBytes)
}

// cleandoc removes a docstring's indentation as Python's inspect.cleandoc
// does: the first line is trimmed, the common leading white space of the
// others removed, and blank lines at either end dropped.
func cleandoc(s string) string {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\t", "        "), "\n")
	indent := -1
	for _, l := range lines[1:] {
		t := strings.TrimLeft(l, " ")
		if t == "" {
			continue
		}
		if n := len(l) - len(t); indent < 0 || n < indent {
			indent = n
		}
	}
	lines[0] = strings.TrimSpace(lines[0])
	for i := 1; i < len(lines); i++ {
		if indent > 0 && len(lines[i]) >= indent {
			lines[i] = lines[i][indent:]
		}
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

var defaultDocStrip = regexp.MustCompile(`^//\s*`)

// docText joins doc comments into plain text: line comments lose strip
// (the pattern's #strip! regex, else the grammar's, else `^//\s*`), block
// comments lose their /* */ markers and any leading " * " on each line.
// Capped at MaxDocBytes.
func (x *extraction) docText(docs []commentSpan, strip *regexp.Regexp) string {
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
		if d.skip {
			continue
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
		if x.g.spec.name == "go" && isDirective(t) {
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

// setContainers sets each symbol's Container to the qualified name of the
// innermost other symbol whose range contains it. Symbols are sorted by
// start ascending, end descending, so ranges nest like a stack.
//
// For grammars with owner kinds, a function or method whose innermost
// enclosing definition is an owner (a class, say) becomes a method with
// the owner's name as Receiver and the owner's Container as its own; the
// same holds inside an owner region without a symbol (a Rust impl block).
func (x *extraction) setContainers() {
	syms := x.ff.Symbols
	spec := x.g.spec
	owners := x.owners
	slices.SortFunc(owners, func(a, b owner) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end))
	})
	// A frame is a symbol index, or -1-i for owners[i].
	var stack []int
	frameRange := func(f int) (start, end int) {
		if f < 0 {
			o := owners[-1-f]
			return o.start, o.end
		}
		return syms[f].Range.StartByte, syms[f].Range.EndByte
	}
	encloses := func(f int, r Range) bool {
		if f < 0 {
			s, e := frameRange(f)
			return s <= r.StartByte && r.EndByte <= e
		}
		return contains(syms[f].Range, r) && syms[f].Range != r
	}
	// outer is the Container-qualified name of the innermost symbol frame
	// of frames, "" if none.
	outer := func(frames []int) string {
		for j := len(frames) - 1; j >= 0; j-- {
			if frames[j] >= 0 {
				return fullName(syms[frames[j]])
			}
		}
		return ""
	}
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		return a + "." + b
	}
	nextOwner := 0
	for i := range syms {
		s := &syms[i]
		for nextOwner < len(owners) && owners[nextOwner].start <= s.Range.StartByte {
			o := owners[nextOwner]
			for len(stack) > 0 && !encloses(stack[len(stack)-1], Range{StartByte: o.start, EndByte: o.end}) {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, -1-nextOwner)
			nextOwner++
		}
		for len(stack) > 0 && !encloses(stack[len(stack)-1], s.Range) {
			stack = stack[:len(stack)-1]
		}
		isFunc := s.Kind == KindFunction || s.Kind == KindMethod
		if len(stack) == 0 {
			if spec.demoteMethods && s.Kind == KindMethod {
				s.Kind = KindFunction
			}
			stack = append(stack, i)
			continue
		}
		top := stack[len(stack)-1]
		switch {
		case top < 0 && isFunc:
			s.Kind = KindMethod
			s.Receiver = owners[-1-top].name
			s.Container = outer(stack[:len(stack)-1])
		case top < 0:
			s.Container = join(outer(stack[:len(stack)-1]), owners[-1-top].name)
		case isFunc && spec.ownerKinds[syms[top].Kind]:
			s.Kind = KindMethod
			s.Receiver = syms[top].Name
			s.Container = syms[top].Container
		default:
			s.Container = fullName(syms[top])
			if spec.demoteMethods && s.Kind == KindMethod {
				s.Kind = KindFunction
			}
		}
		stack = append(stack, i)
	}
}

// fullName is a symbol's Container-qualified name, e.g. "Server.Addr".
func fullName(s Symbol) string {
	if s.Container != "" {
		return s.Container + "." + s.Qualified()
	}
	return s.Qualified()
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
	end := min(n.EndByte(), n.StartByte()+uint(4*max))
	return capText(strings.ToValidUTF8(string(x.src[n.StartByte():end]), "\uFFFD"), max)
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
		r.EndCol = r.EndByte - x.lineStart(r.EndByte-1)
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

// unquote strips one layer of quotes from a string literal's text: Go and
// C escapes via strconv.Unquote when they parse, else the delimiters
// ("", ”, “, <>) only.
func unquote(s string) string {
	if len(s) < 2 {
		return s
	}
	switch f, l := s[0], s[len(s)-1]; {
	case f == '"' && l == '"', f == '`' && l == '`':
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
		return s[1 : len(s)-1]
	case f == '\'' && l == '\'', f == '<' && l == '>':
		return s[1 : len(s)-1]
	}
	return s
}
