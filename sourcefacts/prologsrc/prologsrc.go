// Package prologsrc reads Prolog source text into facts — predicate
// definitions, the goals their bodies call, imported files and the module
// name — without running any of it.
//
// Terms are read with ichiban/prolog's own term reader (engine.NewParser)
// over a VM that has only the ISO operator table (the one rlm's engine
// installs) plus the operators the text itself declares with op/3
// directives. Nothing is ever compiled, consulted or executed: directives
// such as `:- initialization(halt).` are read as terms and reported as
// references (initialization/1, halt/0), never run.
//
// The reader reports no positions, so the text is also scanned, following
// the same lexical rules, for the clause boundaries (an end token: a '.'
// followed by layout, '%' or the end of the text, outside quotes, comments
// and 0'c character codes) and the tokens of each clause; each clause is
// then read on its own and its facts get its span. Goals are located by
// their functor's token in the clause when it can be found (else they get
// the whole clause's span).
package prologsrc

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	pl "github.com/ichiban/prolog/engine"
)

// Limits. A clause over a limit stops the reading like a syntax error: the
// term reader recurses once per nesting level and operator, and a Go stack
// overflow cannot be recovered from.
const (
	// MaxClauseTokens is the most tokens one clause may have.
	MaxClauseTokens = 100000
	// MaxClauseDepth is the deepest bracket nesting a clause may have.
	MaxClauseDepth = 10000
	// MaxTextBytes is the largest text Parse reads. ichiban/prolog interns
	// every atom it reads in a process-wide table that is never freed, so
	// the text read is bounded.
	MaxTextBytes = 4 << 20
	// maxText caps heads, file specs and other copied text, in bytes.
	maxText = 1024
)

// Span is a stretch of the text: bytes 0-based, end exclusive; lines
// 1-based and inclusive; columns 0-based byte offsets within the line.
type Span struct {
	StartByte, EndByte int
	StartLine, EndLine int
	StartCol, EndCol   int
}

// Definition is a run of consecutive clauses of one predicate.
type Definition struct {
	Name  string // the functor's name, e.g. "append"
	Arity int    // for grammar rules (-->), the predicate's arity (+2)
	DCG   bool   // defined by grammar rules
	// Head is the first clause's head as written, white space collapsed
	// (at most 1 KiB).
	Head string
	// Doc is the comment directly above the first clause: a run of % line
	// comments or one /* */ block, without the comment markers (PlDoc's
	// "%!" and "/**" included).
	Doc      string
	Clauses  int
	Span     Span // first clause's start to last clause's end
	NameSpan Span // the first clause head's functor
}

// Indicator is "name/arity".
func (d Definition) Indicator() string { return fmt.Sprintf("%s/%d", d.Name, d.Arity) }

// Call is a goal in a clause body or directive.
type Call struct {
	Name   string
	Arity  int
	Module string // the qualifier of Module:Goal, if any
	// Enclosing is the index into Result.Definitions of the definition
	// whose clause holds the goal, -1 for a directive.
	Enclosing int
	// Span is the goal's functor token when found, else its clause.
	Span Span
}

// Import is a file loaded by a directive.
type Import struct {
	// Spec is the file spec as written, e.g. "library(lists)",
	// "foo/bar", "rules".
	Spec string
	// Directive is the loading directive: use_module, ensure_loaded,
	// reexport, include, consult, load_files, or "[]" for a list.
	Directive string
	Span      Span // the directive
}

// SyntaxError is where reading stopped.
type SyntaxError struct {
	Line, Col int    // start of the clause that could not be read
	Msg       string // the reader's message, or which limit was hit
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("syntax error in clause at line %d col %d: %s", e.Line, e.Col, e.Msg)
}

// Result is what Parse read.
type Result struct {
	Module      string   // from `:- module(M, Exports)`
	Exports     []string // its exports as written, e.g. "foo/2", "op(700,xfx,===)"
	Definitions []Definition
	Calls       []Call // in text order
	Imports     []Import
	Clauses     int // clauses and directives read
	// Err is the first clause that could not be read (a syntax error, a
	// limit); reading stopped there and the facts above hold what came
	// before it. nil when the whole text was read.
	Err *SyntaxError
}

// Parse reads src. It returns an error only when ctx is done; problems
// with the text are reported in Result.Err. It never executes anything.
func Parse(ctx context.Context, src []byte) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &Result{}
	if len(src) > MaxTextBytes {
		res.Err = &SyntaxError{Line: 1, Msg: fmt.Sprintf("text over %d bytes", MaxTextBytes)}
		return res, nil
	}
	text := string(src)
	if strings.HasPrefix(text, "#!") {
		// A script's #! line is not Prolog text: blank it, keeping offsets.
		nl := strings.IndexByte(text, '\n')
		if nl < 0 {
			nl = len(text)
		}
		text = strings.Repeat(" ", nl) + text[nl:]
	}
	vm, err := parserVM()
	if err != nil {
		return nil, err
	}
	sc := &scanner{src: text, maxTokens: MaxClauseTokens}
	r := &reader{src: text, res: res, lines: newLines(text), vm: vm, sc: sc}
	for i := 0; ; i++ {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		c, ok := sc.nextClause()
		if !ok || !r.clause(&c) {
			break
		}
	}
	return res, nil
}

// parserVM returns a VM with the ISO operator table only, for reading.
func parserVM() (*pl.VM, error) {
	vm := &pl.VM{}
	for _, o := range isoOps {
		names := make([]pl.Term, len(o.ops))
		for i, n := range o.ops {
			names[i] = pl.NewAtom(n)
		}
		if _, err := pl.Op(vm, pl.Integer(o.prio), pl.NewAtom(o.spec), pl.List(names...), pl.Success, nil).Force(context.Background()); err != nil {
			return nil, fmt.Errorf("prologsrc: operator table: %w", err)
		}
	}
	return vm, nil
}

// isoOps is the ISO operator table, as ichiban/prolog's bootstrap.pl sets
// it up (copied from rlm's engine, which installs the same table).
var isoOps = []struct {
	prio int64
	spec string
	ops  []string
}{
	{1200, "xfx", []string{":-", "-->"}},
	{1200, "fx", []string{":-", "?-"}},
	{1105, "xfy", []string{"|"}},
	{1100, "xfy", []string{";"}},
	{1050, "xfy", []string{"->"}},
	{1000, "xfy", []string{","}},
	{900, "fy", []string{`\+`}},
	{700, "xfx", []string{"=", `\=`, "==", `\==`, "@<", "@=<", "@>", "@>=", "=..", "is", "=:=", `=\=`, "<", "=<", ">", ">="}},
	{600, "xfy", []string{":"}},
	{500, "yfx", []string{"+", "-", `/\`, `\/`}},
	{400, "yfx", []string{"*", "/", "//", "div", "rem", "mod", "<<", ">>"}},
	{200, "xfx", []string{"**"}},
	{200, "xfy", []string{"^"}},
	{200, "fy", []string{"+", "-", `\`}},
}

type reader struct {
	src     string
	res     *Result
	lines   lines
	sc      *scanner // its comments so far precede the current clause
	vm      *pl.VM
	last    int // index of the definition the previous clause extended, -1 if none
	hasLast bool
}

// clause reads one clause; false stops the reading.
func (r *reader) clause(c *clauseText) bool {
	fail := func(msg string) bool {
		line, col := r.lines.pos(c.start)
		r.res.Err = &SyntaxError{Line: line, Col: col, Msg: cleanMessage(msg)}
		return false
	}
	switch {
	case c.tooLong:
		return fail(fmt.Sprintf("clause has over %d tokens", MaxClauseTokens))
	case c.depth > MaxClauseDepth:
		return fail(fmt.Sprintf("clause nests deeper than %d", MaxClauseDepth))
	case !c.ended:
		// Text after the last end token: a clause without its end, unless
		// it is only layout (which the scanner never makes a token).
	}
	text := r.src[c.start:c.end]
	p := pl.NewParser(r.vm, strings.NewReader(text))
	n := 0
	for p.More() {
		t, err := readTerm(p)
		if err != nil {
			return fail(err.Error())
		}
		n++
		r.res.Clauses++
		r.term(t, c)
	}
	if n == 0 {
		return fail("no term")
	}
	if !c.ended {
		return fail("missing end of clause")
	}
	return true
}

// readTerm reads one term, turning a panic of the reader into an error.
func readTerm(p *pl.Parser) (t pl.Term, err error) {
	defer func() {
		if v := recover(); v != nil {
			t, err = nil, fmt.Errorf("reader failed: %v", v)
		}
	}()
	return p.Term()
}

var (
	atomNeck      = pl.NewAtom(":-")
	atomQuery     = pl.NewAtom("?-")
	atomArrow     = pl.NewAtom("-->")
	atomComma     = pl.NewAtom(",")
	atomColon     = pl.NewAtom(":")
	atomEmptyList = pl.NewAtom("[]")
	atomDot       = pl.NewAtom(".")
	atomCurly     = pl.NewAtom("{}")
)

// term records the facts of one term read from clause c.
func (r *reader) term(t pl.Term, c *clauseText) {
	span := r.lines.span(c.start, c.end)
	loc := &locator{toks: c.toks, lines: &r.lines, fallback: span}
	if cp, ok := t.(pl.Compound); ok {
		switch f, a := cp.Functor(), cp.Arity(); {
		case (f == atomNeck || f == atomQuery) && a == 1:
			r.hasLast = false
			loc.skipPast(f.String())
			r.directive(cp.Arg(0), span, loc)
			return
		case f == atomNeck && a == 2:
			r.define(cp.Arg(0), false, c, span, loc)
			loc.skipPast(":-")
			r.goals(cp.Arg(1), 0, -1, loc)
			return
		case f == atomArrow && a == 2:
			r.define(cp.Arg(0), true, c, span, loc)
			loc.skipPast("-->")
			r.dcgBody(cp.Arg(1), loc)
			return
		}
	}
	r.define(t, false, c, span, loc)
}

// define records the head of a clause, extending the previous definition
// when it is the same predicate.
func (r *reader) define(head pl.Term, dcg bool, c *clauseText, span Span, loc *locator) {
	for range 8 {
		// Module:Head
		cp, ok := head.(pl.Compound)
		if !ok || cp.Functor() != atomColon || cp.Arity() != 2 {
			break
		}
		head = cp.Arg(1)
	}
	if dcg {
		// Head, Pushback --> Body
		if cp, ok := head.(pl.Compound); ok && cp.Functor() == atomComma && cp.Arity() == 2 {
			head = cp.Arg(0)
		}
	}
	name, arity, ok := callable(head)
	if !ok {
		r.hasLast = false
		loc.enclosing = -1
		return
	}
	if dcg {
		arity += 2
	}
	defs := r.res.Definitions
	if r.hasLast && r.last < len(defs) && defs[r.last].Name == name && defs[r.last].Arity == arity && defs[r.last].DCG == dcg {
		d := &r.res.Definitions[r.last]
		d.Clauses++
		d.Span = joinSpans(d.Span, span)
		loc.enclosing = r.last
		return
	}
	nameTok := loc.headToken(name)
	d := Definition{
		Name: name, Arity: arity, DCG: dcg, Clauses: 1, Span: span,
		NameSpan: span, Doc: r.doc(c.start), Head: collapse(name, maxText),
	}
	if nameTok >= 0 {
		t := c.toks[nameTok]
		d.NameSpan = r.lines.span(t.start, t.end)
		end := t.end
		if t.open {
			if j := matchClose(c.toks, nameTok+1); j >= 0 {
				end = c.toks[j].end
			}
		}
		d.Head = collapse(r.src[t.start:end], maxText)
	}
	r.res.Definitions = append(r.res.Definitions, d)
	r.last, r.hasLast = len(r.res.Definitions)-1, true
	loc.enclosing = r.last
}

// callable returns the name and arity of an atom or compound term.
func callable(t pl.Term) (string, int, bool) {
	switch v := t.(type) {
	case pl.Atom:
		return v.String(), 0, true
	case pl.Compound:
		return v.Functor().String(), v.Arity(), true
	}
	return "", 0, false
}

// loaders are the directives that load files, and the argument holding
// the file spec.
var loaders = map[string]bool{
	"use_module/1": true, "use_module/2": true, "ensure_loaded/1": true,
	"reexport/1": true, "reexport/2": true, "include/1": true,
	"consult/1": true, "load_files/1": true, "load_files/2": true,
}

// declarations are directives that declare rather than call; they are not
// references.
var declarations = map[string]bool{
	"dynamic": true, "discontiguous": true, "multifile": true, "table": true,
	"meta_predicate": true, "module_transparent": true, "public": true,
	"det": true, "thread_local": true,
}

// directive records the facts of `:- Body`.
func (r *reader) directive(body pl.Term, span Span, loc *locator) {
	loc.enclosing = -1
	name, arity, ok := callable(body)
	if !ok {
		return
	}
	cp, _ := body.(pl.Compound)
	switch key := fmt.Sprintf("%s/%d", name, arity); {
	case key == "module/2":
		if m, ok := cp.Arg(0).(pl.Atom); ok && r.res.Module == "" {
			r.res.Module = m.String()
		}
		for _, e := range listItems(cp.Arg(1), 4096) {
			r.res.Exports = append(r.res.Exports, formatTerm(e, 256))
			if ec, ok := e.(pl.Compound); ok && ec.Functor() == pl.NewAtom("op") && ec.Arity() == 3 {
				r.op(ec)
			}
		}
	case loaders[key]:
		items := listItems(cp.Arg(0), 4096)
		if items == nil {
			items = []pl.Term{cp.Arg(0)}
		}
		for _, it := range items {
			r.res.Imports = append(r.res.Imports, Import{Spec: formatTerm(it, maxText), Directive: name, Span: span})
		}
	case name == "." && arity == 2 || name == "[|]" && arity == 2:
		for _, it := range listItems(body, 4096) {
			r.res.Imports = append(r.res.Imports, Import{Spec: formatTerm(it, maxText), Directive: "[]", Span: span})
		}
	case key == "op/3":
		r.op(cp)
	case declarations[name]:
	default:
		r.goals(body, 0, -1, loc)
	}
}

// op applies an op/3 declaration to the reader's private operator table
// (the only directive whose effect is honoured: it changes how the rest
// of the text reads). Invalid declarations are ignored.
func (r *reader) op(cp pl.Compound) {
	ctx := context.Background()
	_, _ = pl.Op(r.vm, cp.Arg(0), cp.Arg(1), cp.Arg(2), pl.Success, nil).Force(ctx)
}

// control constructs are walked into and not recorded; the value says
// which arguments are goals.
var control = map[string][]int{
	",/2": {0, 1}, ";/2": {0, 1}, "->/2": {0, 1}, "*->/2": {0, 1}, "|/2": {0, 1},
}

// metaGoals are predicates with goal arguments: the argument index and
// how many arguments the call adds to that goal. They are recorded as
// calls too.
var metaGoals = map[string][][2]int{
	`\+/1`: {{0, 0}}, "not/1": {{0, 0}}, "once/1": {{0, 0}}, "ignore/1": {{0, 0}},
	"forall/2": {{0, 0}, {1, 0}}, "findall/3": {{1, 0}}, "findall/4": {{1, 0}},
	"bagof/3": {{1, 0}}, "setof/3": {{1, 0}}, "aggregate_all/3": {{1, 0}}, "aggregate_all/4": {{2, 0}},
	"catch/3": {{0, 0}, {2, 0}}, "call_cleanup/2": {{0, 0}, {1, 0}},
	"setup_call_cleanup/3": {{0, 0}, {1, 0}, {2, 0}}, "time/1": {{0, 0}},
	"with_output_to/2": {{1, 0}}, "initialization/1": {{0, 0}}, "initialization/2": {{0, 0}},
	"call_with_depth_limit/3": {{0, 0}}, "call_with_time_limit/2": {{1, 0}},
	"limit/2": {{1, 0}}, "offset/2": {{1, 0}}, "order_by/2": {{1, 0}},
	"distinct/1": {{0, 0}}, "distinct/2": {{1, 0}}, "snapshot/1": {{0, 0}},
	"transaction/1": {{0, 0}}, "thread_create/2": {{0, 0}}, "thread_create/3": {{0, 0}},
	"include/3": {{0, 1}}, "exclude/3": {{0, 1}}, "partition/4": {{0, 1}},
	"foldl/4": {{0, 3}}, "foldl/5": {{0, 4}}, "foldl/6": {{0, 5}},
	"maplist/2": {{0, 1}}, "maplist/3": {{0, 2}}, "maplist/4": {{0, 3}},
	"maplist/5": {{0, 4}}, "maplist/6": {{0, 5}}, "maplist/7": {{0, 6}},
	"call/1": {{0, 0}}, "call/2": {{0, 1}}, "call/3": {{0, 2}}, "call/4": {{0, 3}},
	"call/5": {{0, 4}}, "call/6": {{0, 5}}, "call/7": {{0, 6}}, "call/8": {{0, 7}},
}

// maxGoalDepth bounds the nesting of goals walked.
const maxGoalDepth = 256

// goals records the calls of a goal term; extra is the number of
// arguments a meta-call adds to it, module its qualifier.
func (r *reader) goals(t pl.Term, extra, depth int, loc *locator) {
	r.goal(t, extra, "", depth+1, loc)
}

func (r *reader) goal(t pl.Term, extra int, module string, depth int, loc *locator) {
	if depth > maxGoalDepth {
		return
	}
	// Control constructs are right-nested (a, (b, (c, ...))): walk the
	// right spine in a loop so long bodies do not count as deep.
	for extra == 0 {
		cp, ok := t.(pl.Compound)
		if !ok || cp.Arity() != 2 {
			break
		}
		if _, ok := control[fmt.Sprintf("%s/2", cp.Functor())]; !ok {
			break
		}
		r.goal(cp.Arg(0), 0, module, depth+1, loc)
		t = cp.Arg(1)
	}
	name, arity, ok := callable(t)
	if !ok || name == "!" && arity == 0 {
		return
	}
	cp, _ := t.(pl.Compound)
	key := fmt.Sprintf("%s/%d", name, arity)
	if key == ":/2" && extra >= 0 {
		mod := module
		if m, ok := cp.Arg(0).(pl.Atom); ok {
			mod = m.String()
		}
		r.goal(cp.Arg(1), extra, mod, depth+1, loc)
		return
	}
	if key == "^/2" && extra == 0 {
		// V^Goal (bagof/setof): the goal.
		r.goal(cp.Arg(1), 0, module, depth+1, loc)
		return
	}
	meta := metaGoals[key]
	if extra > 0 {
		meta = nil // a closure: its arguments are data
	}
	tok := loc.goalToken(name, arity > 0, len(meta) > 0)
	r.res.Calls = append(r.res.Calls, Call{Name: name, Arity: arity + extra, Module: module,
		Enclosing: loc.enclosing, Span: loc.spanOf(tok)})
	for _, m := range meta {
		r.goal(cp.Arg(m[0]), m[1], module, depth+1, loc)
	}
}

// dcgBody records the nonterminals a grammar rule body calls (each with 2
// more arguments) and the goals of its {}/1 parts.
func (r *reader) dcgBody(t pl.Term, loc *locator) { r.dcg(t, 0, loc) }

func (r *reader) dcg(t pl.Term, depth int, loc *locator) {
	if depth > maxGoalDepth {
		return
	}
	for {
		// The right spine of a body, in a loop (see goal).
		cp, ok := t.(pl.Compound)
		if !ok || cp.Arity() != 2 {
			break
		}
		if f := cp.Functor().String(); f != "," && f != ";" && f != "|" && f != "->" {
			break
		}
		r.dcg(cp.Arg(0), depth+1, loc)
		t = cp.Arg(1)
	}
	switch v := t.(type) {
	case pl.Atom:
		if v == atomEmptyList || v.String() == "!" {
			return
		}
	case pl.Compound:
		key := fmt.Sprintf("%s/%d", v.Functor(), v.Arity())
		switch {
		case v.Functor() == atomDot && v.Arity() == 2, v.Functor().String() == "[|]" && v.Arity() == 2:
			return // a terminal list
		case v.Functor() == atomCurly && v.Arity() == 1:
			r.goal(v.Arg(0), 0, "", depth+1, loc)
			return
		case key == `\+/1`:
			r.dcg(v.Arg(0), depth+1, loc)
			return
		case strings.HasPrefix(key, "call/"):
			// call//N: the closure gets N-1 arguments and the two lists.
			r.goal(v.Arg(0), v.Arity()-1+2, "", depth+1, loc)
			return
		}
	default:
		return // a variable, a number, a string (terminals)
	}
	name, arity, ok := callable(t)
	if !ok {
		return
	}
	tok := loc.goalToken(name, arity > 0, false)
	r.res.Calls = append(r.res.Calls, Call{Name: name, Arity: arity + 2, Enclosing: loc.enclosing, Span: loc.spanOf(tok)})
}

// listItems returns the elements of a proper list (at most max), or nil
// if t is not a non-empty list.
func listItems(t pl.Term, max int) []pl.Term {
	var out []pl.Term
	for range max {
		cp, ok := t.(pl.Compound)
		if !ok || cp.Arity() != 2 || (cp.Functor() != atomDot && cp.Functor().String() != "[|]") {
			break
		}
		out = append(out, cp.Arg(0))
		t = cp.Arg(1)
	}
	return out
}

// formatTerm writes a file spec or export as plain text: atoms unquoted,
// compounds in functional notation except the infix operators / and :.
func formatTerm(t pl.Term, max int) string {
	var b strings.Builder
	var w func(t pl.Term, depth int)
	w = func(t pl.Term, depth int) {
		if b.Len() > max || depth > 32 {
			return
		}
		switch v := t.(type) {
		case pl.Atom:
			b.WriteString(v.String())
		case pl.Integer:
			fmt.Fprint(&b, int64(v))
		case pl.Float:
			fmt.Fprint(&b, float64(v))
		case pl.Variable:
			b.WriteString("_")
		case pl.Compound:
			f := v.Functor().String()
			if items := listItems(v, 256); items != nil {
				b.WriteByte('[')
				for i, it := range items {
					if i > 0 {
						b.WriteByte(',')
					}
					w(it, depth+1)
				}
				b.WriteByte(']')
				return
			}
			if v.Arity() == 2 && (f == "/" || f == ":" || f == "//") {
				w(v.Arg(0), depth+1)
				b.WriteString(f)
				w(v.Arg(1), depth+1)
				return
			}
			b.WriteString(f)
			b.WriteByte('(')
			for i := 0; i < v.Arity(); i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				w(v.Arg(i), depth+1)
			}
			b.WriteByte(')')
		default:
			b.WriteString("?")
		}
	}
	w(t, 0)
	return capText(strings.ToValidUTF8(b.String(), "\uFFFD"), max)
}

// doc returns the comment directly above offset: the run of % line
// comments ending on the line before it, or one /* */ block ending there.
func (r *reader) doc(offset int) string {
	cs := r.sc.comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].end > offset }) - 1
	if i < 0 {
		return ""
	}
	line, _ := r.lines.pos(offset)
	if endLine, _ := r.lines.pos(cs[i].end); line-endLine != 1 || strings.TrimSpace(r.src[cs[i].end:offset]) != "" {
		return ""
	}
	if cs[i].block {
		return blockText(r.src[cs[i].start:cs[i].end])
	}
	first := i
	for j := i - 1; j >= 0 && !cs[j].block; j-- {
		l1, _ := r.lines.pos(cs[j].start)
		l2, _ := r.lines.pos(cs[j+1].start)
		if l2-l1 != 1 || strings.TrimSpace(r.src[cs[j].end:cs[j+1].start]) != "" {
			break
		}
		first = j
	}
	if c := cs[first]; strings.TrimSpace(r.src[strings.LastIndexByte(r.src[:c.start], '\n')+1:c.start]) != "" {
		first++ // trails code on its line
	}
	var b strings.Builder
	for _, c := range cs[first : i+1] {
		t := strings.TrimLeft(r.src[c.start:c.end], "%")
		t = strings.TrimPrefix(t, "!")
		b.WriteString(strings.TrimSpace(t))
		b.WriteByte('\n')
	}
	return capText(strings.ToValidUTF8(strings.TrimSpace(b.String()), "\uFFFD"), 8<<10)
}

func blockText(s string) string {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "/*"), "*/")
	var b strings.Builder
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "*"))
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return capText(strings.ToValidUTF8(strings.TrimSpace(b.String()), "\uFFFD"), 8<<10)
}

// collapse returns s with runs of white space turned into one space, as
// valid UTF-8, capped at max bytes.
func collapse(s string, max int) string {
	if len(s) > 4*max {
		s = s[:4*max]
	}
	return capText(strings.ToValidUTF8(strings.Join(strings.Fields(s), " "), "\uFFFD"), max)
}

// capText cuts s to at most max bytes on a rune boundary, with "…".
func capText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max - len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// cleanMessage makes a reader message printable: valid UTF-8, control
// characters replaced, at most 256 bytes.
func cleanMessage(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return capText(s, 256)
}

func joinSpans(a, b Span) Span {
	if b.StartByte < a.StartByte {
		a.StartByte, a.StartLine, a.StartCol = b.StartByte, b.StartLine, b.StartCol
	}
	if b.EndByte > a.EndByte {
		a.EndByte, a.EndLine, a.EndCol = b.EndByte, b.EndLine, b.EndCol
	}
	return a
}
