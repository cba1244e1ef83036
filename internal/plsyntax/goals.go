package plsyntax

import (
	"fmt"
	"strings"

	pl "github.com/ichiban/prolog/engine"
)

// MetaArg says that argument Index (0-based) of a predicate is a goal,
// called with Extra more arguments (a closure when Extra > 0).
type MetaArg struct{ Index, Extra int }

// Meta describes a predicate some of whose arguments are goals.
type Meta struct {
	Args []MetaArg
	// Control marks the control constructs ,/2 ;/2 ->/2 *->/2 and |/2:
	// a walk goes through them, and a source reader need not record them
	// as calls.
	Control bool
}

func goalArgs(idx ...int) []MetaArg {
	out := make([]MetaArg, len(idx))
	for i, x := range idx {
		out[i] = MetaArg{Index: x}
	}
	return out
}

func closure(extra int) []MetaArg { return []MetaArg{{Index: 0, Extra: extra}} }

// metaTable is the one table of control constructs and meta-predicates:
// ISO's and SWI-Prolog's common ones, and every meta-predicate rlm's engine
// prelude defines (maplist/2..7, foldl/4..6, include/3, exclude/3,
// forall/2, aggregate_all/3, once/1, ignore/1).
var metaTable = func() map[string]Meta {
	control := Meta{Args: goalArgs(0, 1), Control: true}
	m := map[string]Meta{
		",/2": control, ";/2": control, "->/2": control, "*->/2": control, "|/2": control,
		`\+/1`: {Args: goalArgs(0)}, "not/1": {Args: goalArgs(0)}, "once/1": {Args: goalArgs(0)},
		"ignore/1": {Args: goalArgs(0)}, "forall/2": {Args: goalArgs(0, 1)},
		"findall/3": {Args: goalArgs(1)}, "findall/4": {Args: goalArgs(1)},
		"bagof/3": {Args: goalArgs(1)}, "setof/3": {Args: goalArgs(1)},
		"aggregate_all/3": {Args: goalArgs(1)}, "aggregate_all/4": {Args: goalArgs(2)},
		"catch/3": {Args: goalArgs(0, 2)}, "call_cleanup/2": {Args: goalArgs(0, 1)},
		"setup_call_cleanup/3": {Args: goalArgs(0, 1, 2)}, "time/1": {Args: goalArgs(0)},
		"with_output_to/2": {Args: goalArgs(1)}, "initialization/1": {Args: goalArgs(0)},
		"initialization/2": {Args: goalArgs(0)}, "call_with_depth_limit/3": {Args: goalArgs(0)},
		"call_with_time_limit/2": {Args: goalArgs(1)}, "limit/2": {Args: goalArgs(1)},
		"offset/2": {Args: goalArgs(1)}, "order_by/2": {Args: goalArgs(1)},
		"distinct/1": {Args: goalArgs(0)}, "distinct/2": {Args: goalArgs(1)},
		"snapshot/1": {Args: goalArgs(0)}, "transaction/1": {Args: goalArgs(0)},
		"thread_create/2": {Args: goalArgs(0)}, "thread_create/3": {Args: goalArgs(0)},
		"include/3": {Args: closure(1)}, "exclude/3": {Args: closure(1)}, "partition/4": {Args: closure(1)},
	}
	for n := 4; n <= 6; n++ {
		m[fmt.Sprintf("foldl/%d", n)] = Meta{Args: closure(n - 1)}
	}
	for n := 2; n <= 7; n++ {
		m[fmt.Sprintf("maplist/%d", n)] = Meta{Args: closure(n - 1)}
	}
	for n := 1; n <= 8; n++ {
		m[fmt.Sprintf("call/%d", n)] = Meta{Args: closure(n - 1)}
	}
	return m
}()

// MetaOf returns which arguments of name/arity are goals, if any.
func MetaOf(name string, arity int) (Meta, bool) {
	m, ok := metaTable[fmt.Sprintf("%s/%d", name, arity)]
	if !ok {
		return Meta{}, false
	}
	m.Args = append([]MetaArg(nil), m.Args...)
	return m, true
}

// Goal is one goal a clause body calls.
type Goal struct {
	Term   pl.Term // the goal as written (for Extra > 0, the closure)
	Name   string
	Arity  int    // as called: the term's arity plus Extra
	Extra  int    // arguments a meta-call or a grammar rule adds
	Module string // the qualifier of Module:Goal, if any
	// Control: a control construct (see Meta.Control); its two sides are
	// yielded too.
	Control bool
	// Token is the index of the goal's functor token in the clause's
	// tokens, -1 when it could not be found.
	Token int
}

// Indicator is "name/arity" as called.
func (g Goal) Indicator() string { return fmt.Sprintf("%s/%d", g.Name, g.Arity) }

// maxGoalDepth bounds the nesting of goals walked.
const maxGoalDepth = 256

// WalkGoals calls yield for every goal that calling t with extra more
// arguments would call, in text order: through the control constructs
// (an infix construct is yielded between its two sides), into the goal
// arguments of meta-predicates (MetaOf; the meta-call itself is yielded
// first), through Module:Goal and V^Goal. The cut, variables and
// non-callable terms are not goals. A closure's own arguments (Extra > 0)
// are data and are not walked. loc, if not nil, is advanced over the
// clause's tokens to set each Goal.Token; it must be positioned after the
// neck (Locator.SkipPast).
func WalkGoals(t pl.Term, extra int, loc *Locator, yield func(Goal)) {
	w := walker{loc: loc, yield: yield}
	w.goal(t, extra, "", 0)
}

// WalkDCGBody calls yield for the nonterminals a grammar rule body calls
// (each with 2 more arguments) and the goals of its {}/1 parts, in text
// order. Terminal lists and strings are not goals.
func WalkDCGBody(t pl.Term, loc *Locator, yield func(Goal)) {
	w := walker{loc: loc, yield: yield}
	w.dcg(t, 0)
}

type walker struct {
	loc   *Locator
	yield func(Goal)
}

func (w *walker) token(name string, hasArgs, meta bool) int {
	if w.loc == nil {
		return -1
	}
	return w.loc.GoalToken(name, hasArgs, meta)
}

func (w *walker) goal(t pl.Term, extra int, module string, depth int) {
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
		m := metaTable[cp.Functor().String()+"/2"]
		if !m.Control {
			break
		}
		start := w.loc.position()
		w.goal(cp.Arg(0), 0, module, depth+1)
		tok := w.loc.controlToken(cp.Functor().String(), start)
		w.yield(Goal{Term: cp, Name: cp.Functor().String(), Arity: 2, Module: module, Control: true, Token: tok})
		t = cp.Arg(1)
	}
	name, arity, ok := Callable(t)
	if !ok || name == "!" && arity == 0 {
		return
	}
	cp, _ := t.(pl.Compound)
	switch {
	case name == ":" && arity == 2:
		mod := module
		if m, ok := cp.Arg(0).(pl.Atom); ok {
			mod = m.String()
		}
		w.goal(cp.Arg(1), extra, mod, depth+1)
		return
	case name == "^" && arity == 2 && extra == 0:
		// V^Goal (bagof/setof): the goal.
		w.goal(cp.Arg(1), 0, module, depth+1)
		return
	}
	var meta []MetaArg
	if extra == 0 {
		meta = metaTable[fmt.Sprintf("%s/%d", name, arity)].Args // a closure's arguments are data
	}
	tok := w.token(name, arity > 0, len(meta) > 0)
	w.yield(Goal{Term: t, Name: name, Arity: arity + extra, Extra: extra, Module: module, Token: tok})
	for _, m := range meta {
		w.goal(cp.Arg(m.Index), m.Extra, module, depth+1)
	}
}

var (
	atomEmptyList = pl.NewAtom("[]")
	atomDot       = pl.NewAtom(".")
	atomCurly     = pl.NewAtom("{}")
)

func (w *walker) dcg(t pl.Term, depth int) {
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
		w.dcg(cp.Arg(0), depth+1)
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
			w.goal(v.Arg(0), 0, "", depth+1)
			return
		case key == `\+/1`:
			w.dcg(v.Arg(0), depth+1)
			return
		case strings.HasPrefix(key, "call/"):
			// call//N: the closure gets N-1 arguments and the two lists.
			w.goal(v.Arg(0), v.Arity()-1+2, "", depth+1)
			return
		}
	default:
		return // a variable, a number, a string (terminals)
	}
	name, arity, ok := Callable(t)
	if !ok {
		return
	}
	tok := w.token(name, arity > 0, false)
	w.yield(Goal{Term: t, Name: name, Arity: arity + 2, Extra: 2, Token: tok})
}

// Callable returns the name and arity of an atom or compound term.
func Callable(t pl.Term) (string, int, bool) {
	switch v := t.(type) {
	case pl.Atom:
		return v.String(), 0, true
	case pl.Compound:
		return v.Functor().String(), v.Arity(), true
	}
	return "", 0, false
}
