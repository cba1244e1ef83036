package engine

import (
	"fmt"
	"strings"

	pl "github.com/ichiban/prolog/engine"

	"github.com/rlm-dev/rlm/internal/plsyntax"
)

// LoadError reports a rule file that cannot be loaded.
type LoadError struct {
	File   string // display path, e.g. "rules/retrieval/classify.pl"
	Line   int    // 1-based, 0 if unknown
	Column int    // 1-based byte column in the line, 0 if unknown
	Clause string // the offending clause head or directive, if known
	Reason string // plain words; "" when Err says it all
	// Err is the underlying error, if any: a *plsyntax.SyntaxError for a
	// clause that cannot be read, a *RulesDirError for a rules directory
	// without rule files, or a file system error.
	Err error
}

// Error formats the error as "engine: file:line:col: clause: reason: err",
// leaving out what is unknown. A LoadError that only wraps another error
// (no reason, position or clause) reads as that error.
func (e *LoadError) Error() string {
	msg := e.Reason
	switch {
	case e.Err != nil && msg == "":
		msg = e.Err.Error()
	case e.Err != nil:
		msg += ": " + e.Err.Error()
	}
	if e.Reason == "" && e.Line == 0 && e.Clause == "" && e.Err != nil {
		return "engine: " + msg
	}
	if e.Clause != "" {
		msg = e.Clause + ": " + msg
	}
	loc := e.File
	switch {
	case e.Line > 0 && e.Column > 0:
		loc = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Column)
	case e.Line > 0:
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	return fmt.Sprintf("engine: %s: %s", loc, msg)
}

func (e *LoadError) Unwrap() error { return e.Err }

// clauseInfo is what the loader learns about one clause of a rule file
// without running anything.
type clauseInfo struct {
	indicator string // "name/arity" of the head; "" for directives
	name      string
	arity     int
	term      pl.Term // the clause as read
	head      pl.Term
	body      pl.Term // nil for facts
	dcg       bool    // a grammar rule (-->); arity counts the two list arguments
	directive string  // e.g. "dynamic/1" for a directive
	declKind  string  // dynamic, discontiguous or multifile, for a declaration
	declares  []string
	offset    int // where to report the clause: its head's functor, else its start
	clause    *plsyntax.Clause
}

// parsedFile is a rule file read clause by clause.
type parsedFile struct {
	src     Source
	lines   *plsyntax.Lines
	clauses []clauseInfo
}

// errorAt returns a LoadError at byte offset of the file.
func (f *parsedFile) errorAt(offset int, clause, reason string) *LoadError {
	line, col := f.lines.Pos(offset)
	return &LoadError{File: f.src.Path, Line: line, Column: col + 1, Clause: clause, Reason: reason}
}

// allowedDirectives are the only directives a rule file may contain. They
// are declarations handled by the compiler itself; none runs a goal.
var allowedDirectives = map[string]bool{"dynamic/1": true, "discontiguous/1": true, "multifile/1": true}

// parseSource reads a rule file clause by clause and applies the directive
// policy. A clause that cannot be read is a *LoadError at the offending
// token, wrapping a *plsyntax.SyntaxError.
func parseSource(src Source) (*parsedFile, error) {
	vm, err := plsyntax.NewParserVM()
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	f := &parsedFile{src: src, lines: plsyntax.NewLines(src.Text)}
	sc := plsyntax.NewScanner(src.Text)
	for {
		c, ok := sc.Next()
		if !ok {
			return f, nil
		}
		terms, err := plsyntax.ReadClause(vm, src.Text, &c)
		if se, ok := err.(*plsyntax.SyntaxError); ok {
			le := f.errorAt(se.Offset, "", "")
			le.Err = se
			return nil, le
		}
		for _, t := range terms {
			ci, err := f.clauseOf(t, &c)
			if err != nil {
				return nil, err
			}
			f.clauses = append(f.clauses, ci)
		}
	}
}

func (f *parsedFile) clauseOf(t pl.Term, c *plsyntax.Clause) (clauseInfo, error) {
	ci := clauseInfo{term: t, head: t, offset: c.Start, clause: c}
	if cp, ok := t.(pl.Compound); ok && cp.Arity() <= 2 {
		switch fn, a := cp.Functor().String(), cp.Arity(); {
		case fn == ":-" && a == 1:
			d := cp.Arg(0)
			name, arity, _ := plsyntax.Callable(d)
			ci.directive = fmt.Sprintf("%s/%d", name, arity)
			if !allowedDirectives[ci.directive] {
				return ci, f.errorAt(c.Start, directiveText(ci),
					"directive not allowed in rule files (only dynamic/1, discontiguous/1, multifile/1)")
			}
			ci.declKind = name
			ci.declares = piList(d.(pl.Compound).Arg(0))
			return ci, nil
		case fn == "?-" && a == 1:
			return ci, f.errorAt(c.Start, "?- ...", "a query in a rule file is never run; rule files hold clauses and the directives dynamic/1, discontiguous/1, multifile/1")
		case fn == ":-" && a == 2:
			ci.head, ci.body = cp.Arg(0), cp.Arg(1)
		case fn == "-->" && a == 2:
			ci.head, ci.body, ci.dcg = cp.Arg(0), cp.Arg(1), true
		}
	}
	name, arity, ok := plsyntax.Callable(ci.head)
	if !ok {
		return ci, f.errorAt(c.Start, "", "clause head is not callable")
	}
	if ci.dcg {
		arity += 2
	}
	ci.name, ci.arity = name, arity
	ci.indicator = fmt.Sprintf("%s/%d", name, arity)
	if i := plsyntax.NewLocator(c).HeadToken(name); i >= 0 {
		ci.offset = c.Tokens[i].Start
	}
	return ci, nil
}

// piList reads Name/Arity, a list of them, or a conjunction of them.
func piList(t pl.Term) []string {
	if c, ok := t.(pl.Compound); ok && (c.Functor() == pl.NewAtom(",") || c.Functor() == pl.NewAtom(".")) && c.Arity() == 2 {
		return append(piList(c.Arg(0)), piList(c.Arg(1))...)
	}
	if n, a := piOf(t); n != "" {
		return []string{fmt.Sprintf("%s/%d", n, a)}
	}
	return nil
}

// piOf reads Name/Arity.
func piOf(t pl.Term) (string, int) {
	c, ok := t.(pl.Compound)
	if !ok || c.Functor() != pl.NewAtom("/") || c.Arity() != 2 {
		return "", 0
	}
	n, ok1 := c.Arg(0).(pl.Atom)
	a, ok2 := c.Arg(1).(pl.Integer)
	if !ok1 || !ok2 {
		return "", 0
	}
	return n.String(), int(a)
}

// directiveText shows a directive in messages, e.g. ":- dynamic/1".
func directiveText(c clauseInfo) string { return ":- " + c.directive }

// isTestFile reports whether a source holds rule tests.
func isTestFile(src Source) bool { return strings.HasSuffix(src.Name, "_test.pl") }
