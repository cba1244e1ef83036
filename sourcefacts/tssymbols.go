// Definitions: capture candidates to Symbols, with kinds, signatures,
// receivers and containers.

package sourcefacts

import (
	"bytes"
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/rlm-dev/rlm/internal/textclip"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// addSymbols turns definition candidates into x.ff.Symbols, sorted by
// start ascending, end descending, then name start, with containers set.
func (x *extraction) addSymbols(defs []defCand) {
	ff := x.ff
	if x.g.spec.prune != nil {
		defs = x.g.spec.prune(x, defs)
	}
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
	if x.g.spec.dropLocalVars {
		x.dropLocalVars()
	}
}

// dropLocalVars removes the variables whose innermost enclosing symbol is
// a function or method. Symbols are sorted by start ascending, end
// descending, so ranges nest like a stack.
func (x *extraction) dropLocalVars() {
	syms := x.ff.Symbols
	var stack []int
	keep := syms[:0:0]
	for i := range syms {
		s := &syms[i]
		for len(stack) > 0 && !(contains(syms[stack[len(stack)-1]].Range, s.Range) && syms[stack[len(stack)-1]].Range != s.Range) {
			stack = stack[:len(stack)-1]
		}
		if s.Kind == KindVariable && len(stack) > 0 {
			if k := syms[stack[len(stack)-1]].Kind; k == KindFunction || k == KindMethod {
				continue
			}
		}
		stack = append(stack, i)
		keep = append(keep, *s)
	}
	x.ff.Symbols = keep
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
	case "prototype":
		return KindPrototype
	}
	return kind
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
	if spec.refine != nil && !spec.refine(x, d, &s) {
		return s, false
	}
	if d.setter {
		s.Name += "="
	}
	if d.nameText != "" {
		s.Name = textclip.Fit(strings.ToValidUTF8(d.nameText, "\uFFFD"), 1024)
	}
	switch q := d.qualifier; {
	case len(q) > 0:
		// `int geo::Shape::area() {}`: a method of Shape in geo.
		s.Receiver = q[len(q)-1]
		s.Container = strings.Join(q[:len(q)-1], ".")
		if s.Kind == KindFunction {
			s.Kind = KindMethod
		}
	case d.receiver != nil:
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
		// A qualified definition (C++ `int geo::Shape::area()`) comes with
		// its receiver and the container its qualifier names, which
		// nesting extends.
		qualified, qualContainer := s.Receiver != "" && spec.declarator != nil, s.Container
		isFunc := s.Kind == KindFunction || s.Kind == KindMethod
		// A prototype in a class is that class's method's declaration.
		methodLike := (isFunc || s.Kind == KindPrototype) && !qualified
		if len(stack) == 0 {
			if spec.demoteMethods && s.Kind == KindMethod {
				s.Kind = KindFunction
			}
			stack = append(stack, i)
			continue
		}
		top := stack[len(stack)-1]
		switch {
		case top < 0 && methodLike:
			if isFunc {
				s.Kind = KindMethod
			}
			s.Receiver = owners[-1-top].name
			s.Container = outer(stack[:len(stack)-1])
		case top < 0:
			s.Container = join(outer(stack[:len(stack)-1]), owners[-1-top].name)
		case methodLike && spec.ownerKinds[syms[top].Kind]:
			if isFunc {
				s.Kind = KindMethod
			}
			s.Receiver = syms[top].Name
			s.Container = syms[top].Container
		default:
			s.Container = fullName(syms[top])
			if spec.demoteMethods && s.Kind == KindMethod {
				s.Kind = KindFunction
			}
		}
		if qualified && qualContainer != "" {
			s.Container = join(s.Container, qualContainer)
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
