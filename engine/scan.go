package engine

import (
	"fmt"
	"regexp"
	"strings"

	pl "github.com/ichiban/prolog/engine"
)

// clauseInfo is what the loader learns about one clause of a rule file
// without running anything.
type clauseInfo struct {
	indicator string // "name/arity" of the head; "" for directives
	name      string
	arity     int
	head      pl.Term
	body      pl.Term  // nil for facts
	directive string   // e.g. "dynamic/1" for a directive
	multifile string   // indicator declared multifile, if any
	declares  []string // indicators a dynamic/discontiguous/multifile directive names
	line      int      // best-effort 1-based line
}

// allowedDirectives are the only directives a rule file may contain. They
// are declarations handled by the compiler itself; none runs a goal.
var allowedDirectives = map[string]bool{"dynamic/1": true, "discontiguous/1": true, "multifile/1": true}

// parserVM returns a VM with the operator table only, for parsing.
func parserVM() (*pl.VM, error) {
	vm := &pl.VM{}
	if err := installOps(vm); err != nil {
		return nil, err
	}
	return vm, nil
}

// scanSource parses a rule file and applies the directive policy.
func scanSource(src Source) ([]clauseInfo, error) {
	vm, err := parserVM()
	if err != nil {
		return nil, err
	}
	cs, err := scanClauses(vm, src.Text, false)
	if err != nil {
		var le *LoadError
		if ok := asLoadError(err, &le); ok {
			le.File = src.Path
			return nil, le
		}
		return nil, &LoadError{File: src.Path, Reason: "syntax error", Err: err}
	}
	for _, c := range cs {
		if c.directive != "" && !allowedDirectives[c.directive] {
			return nil, &LoadError{File: src.Path, Line: c.line, Clause: ":- " + c.directive,
				Reason: "directive not allowed in rule files (only dynamic/1, discontiguous/1, multifile/1)"}
		}
	}
	return cs, nil
}

func asLoadError(err error, target **LoadError) bool {
	le, ok := err.(*LoadError)
	if ok {
		*target = le
	}
	return ok
}

// scanClauses parses text clause by clause. prelude relaxes nothing but
// is kept for clarity at call sites.
func scanClauses(vm *pl.VM, text string, prelude bool) ([]clauseInfo, error) {
	if vm.FS == nil && !prelude {
		vm.FS = emptyFS{}
	}
	if prelude {
		v, err := parserVM()
		if err != nil {
			return nil, err
		}
		vm = v
	}
	p := pl.NewParser(vm, strings.NewReader(text))
	lines := newLineFinder(text)
	var out []clauseInfo
	for p.More() {
		t, err := p.Term()
		if err != nil {
			return nil, &LoadError{Line: lines.lastLine(), Reason: "syntax error", Err: err}
		}
		c := clauseInfo{}
		head := t
		if cp, ok := t.(pl.Compound); ok && cp.Functor() == pl.NewAtom(":-") {
			switch cp.Arity() {
			case 1:
				d := cp.Arg(0)
				name, arity := indicatorOf(d)
				c.directive = fmt.Sprintf("%s/%d", name, arity)
				c.line = lines.find(":-", name)
				if arity == 1 && (name == "multifile" || name == "dynamic" || name == "discontiguous") {
					if dc, ok := d.(pl.Compound); ok {
						c.declares = piList(dc.Arg(0))
						if name == "multifile" && len(c.declares) > 0 {
							c.multifile = c.declares[0]
						}
					}
				}
				out = append(out, c)
				continue
			case 2:
				head = cp.Arg(0)
				c.body = cp.Arg(1)
			}
		} else if cp, ok := t.(pl.Compound); ok && cp.Functor() == pl.NewAtom("-->") && cp.Arity() == 2 {
			n, a := indicatorOf(cp.Arg(0))
			c.name, c.arity = n, a+2
			c.indicator = fmt.Sprintf("%s/%d", c.name, c.arity)
			c.head = cp.Arg(0)
			c.line = lines.find("", c.name)
			out = append(out, c)
			continue
		}
		c.head = head
		c.name, c.arity = indicatorOf(head)
		if c.name == "" {
			return nil, &LoadError{Line: lines.lastLine(), Reason: "clause head is not callable"}
		}
		c.indicator = fmt.Sprintf("%s/%d", c.name, c.arity)
		c.line = lines.find("", c.name)
		out = append(out, c)
	}
	return out, nil
}

func indicatorOf(t pl.Term) (string, int) {
	switch v := t.(type) {
	case pl.Atom:
		return v.String(), 0
	case pl.Compound:
		return v.Functor().String(), v.Arity()
	}
	return "", 0
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

// lineFinder gives best-effort line numbers for clauses: ichiban/prolog's
// parser does not report positions, so the loader looks for the next line,
// at or after the previous clause's, that starts with the clause's head
// name (or ":-" for directives).
type lineFinder struct {
	lines []string
	next  int
}

func newLineFinder(text string) *lineFinder {
	return &lineFinder{lines: strings.Split(text, "\n")}
}

var quotedHead = regexp.MustCompile(`^'([^']*)'`)

func (f *lineFinder) find(prefix, name string) int {
	for i := f.next; i < len(f.lines); i++ {
		l := f.lines[i]
		if prefix != "" {
			if strings.HasPrefix(strings.TrimSpace(l), prefix) {
				f.next = i + 1
				return i + 1
			}
			continue
		}
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '%' {
			continue
		}
		if strings.HasPrefix(l, name) || (quotedHead.MatchString(l) && quotedHead.FindStringSubmatch(l)[1] == name) {
			f.next = i + 1
			return i + 1
		}
	}
	return 0
}

func (f *lineFinder) lastLine() int {
	if f.next == 0 {
		return 1
	}
	return f.next
}
