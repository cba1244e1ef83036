// Package prologsrc reads Prolog source text into facts — predicate
// definitions, the goals their bodies call, imported files and the module
// name — without running any of it.
//
// Terms are read with ichiban/prolog's own term reader (engine.NewParser)
// over a VM that has only the ISO operator table (internal/plsyntax, the one
// rlm's engine installs) plus the operators the text itself declares with
// op/3 directives. Nothing is ever compiled, consulted or executed: directives
// such as `:- initialization(halt).` are read as terms and reported as
// references (initialization/1, halt/0), never run.
//
// The reader reports no positions, so the text is also scanned
// (plsyntax.Scanner), following the same lexical rules, for the clause
// boundaries (an end token: a '.' followed by layout, '%' or the end of the
// text, outside quotes, comments and 0'c character codes) and the tokens of
// each clause; each clause is then read on its own and its facts get its
// span. Goals are located by their functor's token in the clause when it
// can be found (else they get the whole clause's span). Goals are walked
// through control constructs and meta-predicates with plsyntax.WalkGoals.
package prologsrc

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/rlm-dev/rlm/internal/textclip"

	pl "github.com/ichiban/prolog/engine"

	"github.com/rlm-dev/rlm/internal/plsyntax"
)

// Limits. A clause over a limit stops the reading like a syntax error: the
// term reader recurses once per nesting level and operator, and a Go stack
// overflow cannot be recovered from.
const (
	// MaxClauseTokens is the most tokens one clause may have.
	MaxClauseTokens = plsyntax.MaxClauseTokens
	// MaxClauseDepth is the deepest bracket nesting a clause may have.
	MaxClauseDepth = plsyntax.MaxClauseDepth
	// MaxTextBytes is the largest text Parse reads. ichiban/prolog interns
	// every atom it reads in a process-wide table that is never freed, so
	// the text read is bounded.
	MaxTextBytes = 4 << 20
	// maxText caps heads, file specs and other copied text, in bytes.
	maxText = 1024
)

// Span is a stretch of the text: bytes 0-based, end exclusive; lines
// 1-based and inclusive; columns 0-based byte offsets within the line.
type Span = plsyntax.Span

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

// SyntaxError is a clause that could not be read.
type SyntaxError struct {
	Line, Col int    // 1-based line and column (in bytes) of the offending token
	Msg       string // what is wrong, in plain words (plsyntax.SyntaxError.Msg)
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("syntax error at line %d col %d: %s", e.Line, e.Col, e.Msg)
}

// Result is what Parse read.
type Result struct {
	Module      string   // from `:- module(M, Exports)`
	Exports     []string // its exports as written, e.g. "foo/2", "op(700,xfx,===)"
	Definitions []Definition
	Calls       []Call // in text order
	Imports     []Import
	Clauses     int // clauses and directives read
	// Skipped counts the clauses that could not be read (a syntax error,
	// a limit); the clause scanner knows where each one ends, so reading
	// goes on with the next clause, and the facts above hold every clause
	// that could be read.
	Skipped int
	// Err is the first clause that could not be read, nil when every
	// clause was read, or the text that was not read at all (over
	// MaxTextBytes).
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
	vm, err := plsyntax.NewParserVM()
	if err != nil {
		return nil, fmt.Errorf("prologsrc: %w", err)
	}
	declVM, err := plsyntax.NewParserVM()
	if err != nil {
		return nil, fmt.Errorf("prologsrc: %w", err)
	}
	if err := installDirectiveOps(declVM); err != nil {
		return nil, fmt.Errorf("prologsrc: %w", err)
	}
	sc := plsyntax.NewScanner(text)
	r := &reader{src: text, res: res, lines: plsyntax.NewLines(text), vm: vm, declVM: declVM, sc: sc}
	for i := 0; ; i++ {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		c, ok := sc.Next()
		if !ok || !r.clause(&c) {
			break
		}
	}
	return res, nil
}

type reader struct {
	src   string
	res   *Result
	lines *plsyntax.Lines
	sc    *plsyntax.Scanner // its comments so far precede the current clause
	vm    *pl.VM
	// declVM is vm's table plus directiveOps: a clause vm cannot read is
	// read again with it (":- dynamic foo/1."), so that the declaration
	// words stay plain atoms everywhere else ("X = table").
	declVM  *pl.VM
	last    int // index of the definition the previous clause extended, -1 if none
	hasLast bool
}

// clause reads one clause; a clause that cannot be read is counted in
// Skipped (the first one is Err) and reading goes on with the next.
func (r *reader) clause(c *plsyntax.Clause) bool {
	terms, err := plsyntax.ReadClause(r.vm, r.src, c)
	if _, bad := err.(*plsyntax.SyntaxError); bad {
		if t2, err2 := plsyntax.ReadClause(r.declVM, r.src, c); err2 == nil {
			terms, err = t2, nil
		}
	}
	for _, t := range terms {
		r.res.Clauses++
		r.term(t, c)
	}
	if se, ok := err.(*plsyntax.SyntaxError); ok {
		// The definition the clauses before it extended goes on: a
		// predicate's clauses around one that cannot be read are still
		// one definition ("count/2", not "count/2" and "count/2~1").
		r.res.Skipped++
		if r.res.Err == nil {
			line, col := r.lines.Pos(se.Offset)
			r.res.Err = &SyntaxError{Line: line, Col: col + 1, Msg: textclip.Clean(se.Msg, 256)}
		}
	}
	return true
}

// directiveOps are the prefix operators that declare predicates in
// directives (":- dynamic foo/1."), priority 1150, type fx, as
// SWI-Prolog's operator table has them (SWI-Prolog manual, section 4.25,
// "Operators"; YAP and SICStus have the same): not ISO's, but the way
// nearly every Prolog text in use is written. Only a clause the ISO table
// cannot read is read with them (reader.declVM): as operators they would
// make "X = table" or ":- module(db, [table/2])" unreadable. The rule
// engine's table stays ISO.
var directiveOps = []string{"dynamic", "discontiguous", "initialization", "meta_predicate", "module_transparent",
	"multifile", "public", "thread_local", "thread_initialization", "volatile", "table"}

func installDirectiveOps(vm *pl.VM) error {
	names := make([]pl.Term, len(directiveOps))
	for i, n := range directiveOps {
		names[i] = pl.NewAtom(n)
	}
	if _, err := pl.Op(vm, pl.Integer(1150), pl.NewAtom("fx"), pl.List(names...), pl.Success, nil).Force(context.Background()); err != nil {
		return fmt.Errorf("directive operators: %w", err)
	}
	return nil
}

var (
	atomNeck  = pl.NewAtom(":-")
	atomQuery = pl.NewAtom("?-")
	atomArrow = pl.NewAtom("-->")
	atomComma = pl.NewAtom(",")
	atomColon = pl.NewAtom(":")
	atomDot   = pl.NewAtom(".")
)

// locator finds the tokens of one clause's head and goals (see
// plsyntax.Locator) and knows the definition the clause belongs to.
type locator struct {
	*plsyntax.Locator
	lines     *plsyntax.Lines
	fallback  Span // the clause
	enclosing int  // the definition the clause belongs to, -1 for none
}

// spanOf is the span of token i, or the clause's if i < 0.
func (l *locator) spanOf(i int) Span {
	if i < 0 {
		return l.fallback
	}
	t := l.Tokens()[i]
	return l.lines.Span(t.Start, t.End)
}

// term records the facts of one term read from clause c.
func (r *reader) term(t pl.Term, c *plsyntax.Clause) {
	span := r.lines.Span(c.Start, c.End)
	loc := &locator{Locator: plsyntax.NewLocator(c), lines: r.lines, fallback: span}
	if cp, ok := t.(pl.Compound); ok {
		switch f, a := cp.Functor(), cp.Arity(); {
		case (f == atomNeck || f == atomQuery) && a == 1:
			r.hasLast = false
			loc.SkipPast(f.String())
			r.directive(cp.Arg(0), span, loc)
			return
		case f == atomNeck && a == 2:
			r.define(cp.Arg(0), false, c, span, loc)
			loc.SkipPast(":-")
			r.goals(cp.Arg(1), loc)
			return
		case f == atomArrow && a == 2:
			r.define(cp.Arg(0), true, c, span, loc)
			loc.SkipPast("-->")
			r.dcgBody(cp.Arg(1), loc)
			return
		}
	}
	r.define(t, false, c, span, loc)
}

// define records the head of a clause, extending the previous definition
// when it is the same predicate.
func (r *reader) define(head pl.Term, dcg bool, c *plsyntax.Clause, span Span, loc *locator) {
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
	name, arity, ok := plsyntax.Callable(head)
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
	nameTok := loc.HeadToken(name)
	d := Definition{
		Name: name, Arity: arity, DCG: dcg, Clauses: 1, Span: span,
		NameSpan: span, Doc: r.doc(c.Start), Head: collapse(name, maxText),
	}
	if nameTok >= 0 {
		t := c.Tokens[nameTok]
		d.NameSpan = r.lines.Span(t.Start, t.End)
		end := t.End
		if t.Open {
			if j := plsyntax.MatchClose(c.Tokens, nameTok+1); j >= 0 {
				end = c.Tokens[j].End
			}
		}
		d.Head = collapse(r.src[t.Start:end], maxText)
	}
	r.res.Definitions = append(r.res.Definitions, d)
	r.last, r.hasLast = len(r.res.Definitions)-1, true
	loc.enclosing = r.last
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
	name, arity, ok := plsyntax.Callable(body)
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
		r.goals(body, loc)
	}
}

// op applies an op/3 declaration to the reader's private operator table
// (the only directive whose effect is honoured: it changes how the rest
// of the text reads). Invalid declarations are ignored.
func (r *reader) op(cp pl.Compound) {
	ctx := context.Background()
	_, _ = pl.Op(r.vm, cp.Arg(0), cp.Arg(1), cp.Arg(2), pl.Success, nil).Force(ctx)
	_, _ = pl.Op(r.declVM, cp.Arg(0), cp.Arg(1), cp.Arg(2), pl.Success, nil).Force(ctx)
}

// goals records the calls of a clause body or directive (control
// constructs are walked into, not recorded).
func (r *reader) goals(t pl.Term, loc *locator) {
	plsyntax.WalkGoals(t, 0, loc.Locator, func(g plsyntax.Goal) { r.call(g, loc) })
}

// dcgBody records the nonterminals a grammar rule body calls (each with 2
// more arguments) and the goals of its {}/1 parts.
func (r *reader) dcgBody(t pl.Term, loc *locator) {
	plsyntax.WalkDCGBody(t, loc.Locator, func(g plsyntax.Goal) { r.call(g, loc) })
}

func (r *reader) call(g plsyntax.Goal, loc *locator) {
	if g.Control {
		return
	}
	r.res.Calls = append(r.res.Calls, Call{Name: g.Name, Arity: g.Arity, Module: g.Module,
		Enclosing: loc.enclosing, Span: loc.spanOf(g.Token)})
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
	return textclip.Fit(strings.ToValidUTF8(b.String(), "\uFFFD"), max)
}

// doc returns the comment directly above offset: the run of % line
// comments ending on the line before it, or one /* */ block ending there.
func (r *reader) doc(offset int) string {
	cs := r.sc.Comments()
	i := sort.Search(len(cs), func(i int) bool { return cs[i].End > offset }) - 1
	if i < 0 {
		return ""
	}
	line, _ := r.lines.Pos(offset)
	if endLine, _ := r.lines.Pos(cs[i].End); line-endLine != 1 || strings.TrimSpace(r.src[cs[i].End:offset]) != "" {
		return ""
	}
	if cs[i].Block {
		return blockText(r.src[cs[i].Start:cs[i].End])
	}
	first := i
	for j := i - 1; j >= 0 && !cs[j].Block; j-- {
		l1, _ := r.lines.Pos(cs[j].Start)
		l2, _ := r.lines.Pos(cs[j+1].Start)
		if l2-l1 != 1 || strings.TrimSpace(r.src[cs[j].End:cs[j+1].Start]) != "" {
			break
		}
		first = j
	}
	if c := cs[first]; strings.TrimSpace(r.src[strings.LastIndexByte(r.src[:c.Start], '\n')+1:c.Start]) != "" {
		first++ // trails code on its line
	}
	var b strings.Builder
	for _, c := range cs[first : i+1] {
		t := strings.TrimLeft(r.src[c.Start:c.End], "%")
		t = strings.TrimPrefix(t, "!")
		b.WriteString(strings.TrimSpace(t))
		b.WriteByte('\n')
	}
	return textclip.Fit(strings.ToValidUTF8(strings.TrimSpace(b.String()), "\uFFFD"), 8<<10)
}

func blockText(s string) string {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "/*"), "*/")
	var b strings.Builder
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "*"))
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return textclip.Fit(strings.ToValidUTF8(strings.TrimSpace(b.String()), "\uFFFD"), 8<<10)
}

// collapse returns s with runs of white space turned into one space, as
// valid UTF-8, capped at max bytes.
func collapse(s string, max int) string {
	if len(s) > 4*max {
		s = s[:4*max]
	}
	return textclip.Fit(strings.ToValidUTF8(strings.Join(strings.Fields(s), " "), "\uFFFD"), max)
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
