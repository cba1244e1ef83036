package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	pl "github.com/ichiban/prolog/engine"

	"github.com/rlm-dev/rlm/internal/plsyntax"
)

// TermShape constrains every compound Functor/Arity written in a rule file
// (clause heads and bodies, at any depth): at each position i with a
// non-empty Args[i], a bound value must satisfy it. Variables are always
// allowed. Test files (*_test.pl) are not checked.
type TermShape struct {
	Functor string
	Arity   int
	Args    []ArgShape // len Arity; zero ArgShape = unconstrained
}

// ArgShape constrains one argument position of a TermShape.
type ArgShape struct {
	Name  string   // the position's name for messages, e.g. "role"
	Atoms []string // if set: an atom here must be one of these (other values are not checked)
	// Members, if set: the argument, when a list, holds only compounds or
	// atoms whose name/arity is one of these, e.g. "name/1", "case/1"
	// (an atom is name/0). Elements that are variables are allowed;
	// numbers and other lists are not.
	Members []string
}

func (a ArgShape) empty() bool { return len(a.Atoms) == 0 && len(a.Members) == 0 }

// vocabulary indexes Options.Vocabulary by "functor/arity".
type vocabulary map[string]TermShape

// newVocabulary checks the shapes and indexes them.
func newVocabulary(shapes []TermShape) (vocabulary, error) {
	v := vocabulary{}
	for _, s := range shapes {
		pi := fmt.Sprintf("%s/%d", s.Functor, s.Arity)
		switch {
		case s.Functor == "" || s.Arity <= 0:
			return nil, fmt.Errorf("engine: Vocabulary: %q is not a compound name/arity", pi)
		case len(s.Args) > s.Arity:
			return nil, fmt.Errorf("engine: Vocabulary: %s has %d Args", pi, len(s.Args))
		}
		if _, dup := v[pi]; dup {
			return nil, fmt.Errorf("engine: Vocabulary: %s twice", pi)
		}
		for _, a := range s.Args {
			for _, m := range a.Members {
				if i := strings.LastIndexByte(m, '/'); i <= 0 || !isDigits(m[i+1:]) {
					return nil, fmt.Errorf("engine: Vocabulary: %s: member %q is not name/arity", pi, m)
				}
			}
		}
		v[pi] = s
	}
	return v, nil
}

func isDigits(s string) bool {
	_, err := strconv.ParseUint(s, 10, 16)
	return err == nil
}

// checkVocabulary refuses a clause that writes a data term outside its
// TermShape, at the offending token.
func (e *Engine) checkVocabulary(f *parsedFile) error {
	if len(e.vocab) == 0 {
		return nil
	}
	for _, c := range f.clauses {
		w := vocabWalker{vocab: e.vocab, toks: c.clause.Tokens}
		if w.term(c.term, 0); w.msg != "" {
			at := c.clause.Start
			if w.at >= 0 {
				at = c.clause.Tokens[w.at].Start
			}
			return f.errorAt(at, "", w.msg)
		}
	}
	return nil
}

// vocabWalker walks a clause term in pre-order, which visits the compounds
// written in functional notation in the order of their "name(" tokens; the
// cursor follows those tokens so that a violation can name its line and
// column.
type vocabWalker struct {
	vocab  vocabulary
	toks   []plsyntax.Token
	cursor int    // next token to consider as a compound's functor
	msg    string // the first violation
	at     int    // its token, -1 if unknown
}

const maxVocabDepth = 100_000

func (w *vocabWalker) term(t pl.Term, depth int) {
	for w.msg == "" && depth < maxVocabDepth {
		c, ok := t.(pl.Compound)
		if !ok || c.Arity() == 0 {
			return
		}
		name := c.Functor().String()
		tok := -1
		if j := w.nextOpen(); j >= 0 && w.toks[j].Name == name {
			tok, w.cursor = j, j+1
		}
		if s, ok := w.vocab[fmt.Sprintf("%s/%d", name, c.Arity())]; ok {
			w.check(s, c, tok)
		}
		for i := 0; i < c.Arity()-1; i++ {
			w.term(c.Arg(i), depth+1)
		}
		t, depth = c.Arg(c.Arity()-1), depth+1 // the last argument in the loop: long lists are not deep
	}
}

// nextOpen returns the next name token in functional notation at or after
// the cursor, -1 if none.
func (w *vocabWalker) nextOpen() int {
	for j := w.cursor; j < len(w.toks); j++ {
		if w.toks[j].Kind == plsyntax.TokName && w.toks[j].Open {
			return j
		}
	}
	return -1
}

func (w *vocabWalker) check(s TermShape, c pl.Compound, tok int) {
	pi := fmt.Sprintf("%s/%d", s.Functor, s.Arity)
	for i, a := range s.Args {
		if a.empty() {
			continue
		}
		pos := a.Name
		if pos == "" {
			pos = fmt.Sprintf("argument %d", i+1)
		}
		v := c.Arg(i)
		if at, ok := v.(pl.Atom); ok && len(a.Atoms) > 0 && !slices.Contains(a.Atoms, at.String()) {
			w.fail(tok, at.String(), false, fmt.Sprintf("%s %s %q is not one of %s", pi, pos, at.String(), strings.Join(a.Atoms, ", ")))
			return
		}
		if len(a.Members) == 0 {
			continue
		}
		for l := v; ; {
			cell, ok := l.(pl.Compound)
			if !ok || cell.Arity() != 2 || cell.Functor().String() != "." {
				break
			}
			el := cell.Arg(0)
			if _, isVar := el.(pl.Variable); !isVar {
				name, arity, ok := plsyntax.Callable(el)
				got := fmt.Sprintf("%s/%d", name, arity)
				if !ok || !slices.Contains(a.Members, got) {
					if !ok {
						got = "a non-callable element"
					}
					w.fail(tok, name, arity > 0, fmt.Sprintf("%s %s holds %s, which is not one of %s", pi, pos, got, strings.Join(a.Members, ", ")))
					return
				}
			}
			l = cell.Arg(1)
		}
	}
}

// fail records a violation at the token of name inside the compound whose
// functor token is tok (else at tok).
func (w *vocabWalker) fail(tok int, name string, open bool, msg string) {
	w.msg, w.at = msg, tok
	if tok < 0 || name == "" {
		return
	}
	end := plsyntax.MatchClose(w.toks, tok+1)
	if end < 0 {
		end = len(w.toks)
	}
	if j := plsyntax.FindName(w.toks, tok+1, end, name, open); j >= 0 {
		w.at = j
	}
}
