package engine

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	pl "github.com/ichiban/prolog/engine"
)

// Term is a Prolog term. Build data terms with Atom, String, Int, Float,
// Compound, List and NewVar; never by formatting text into a goal.
type Term = pl.Term

// Atom returns the atom named name.
//
// ichiban/prolog interns atoms in a process-wide table that is never freed,
// so Atom is for a closed vocabulary (class names, strategy names, feature
// names). Text that comes from users, models or files must use String.
func Atom(name string) Term { return pl.NewAtom(name) }

// String returns s as a Prolog string, represented as a list of
// one-character atoms (the engine runs with double_quotes set to chars, so
// "abc" in rule text unifies with String("abc")). The list is backed by the
// Go string and costs O(1) to build, whatever its length.
func String(s string) Term { return pl.CharList(s) }

// Int returns an integer term.
func Int(i int64) Term { return pl.Integer(i) }

// Float returns a float term. NaN and infinities are not Prolog numbers; they
// are mapped to the atoms nan, inf and neg_inf.
func Float(f float64) Term {
	switch {
	case math.IsNaN(f):
		return pl.NewAtom("nan")
	case math.IsInf(f, 1):
		return pl.NewAtom("inf")
	case math.IsInf(f, -1):
		return pl.NewAtom("neg_inf")
	}
	return pl.Float(f)
}

// Compound returns the compound term name(args...). With no args it is the
// atom name.
func Compound(name string, args ...Term) Term {
	if len(args) == 0 {
		return pl.NewAtom(name)
	}
	return pl.NewAtom(name).Apply(args...)
}

// List returns the proper list [ts...].
func List(ts ...Term) Term { return pl.List(ts...) }

// Strings returns a list of String terms.
func Strings(ss []string) Term {
	ts := make([]Term, len(ss))
	for i, s := range ss {
		ts[i] = String(s)
	}
	return pl.List(ts...)
}

// NewVar returns a fresh variable, e.g. for the output argument of a goal.
func NewVar() Term { return pl.NewVariable() }

// Values decoded from Prolog terms. A decoded term is one of:
//
//	AtomValue          an atom
//	StringValue        a string passed in with String (or a list of chars, see Text)
//	int64, float64     numbers
//	[]any              a proper list of decoded terms
//	CompoundValue      any other compound
//	VarValue           an unbound variable
type (
	// AtomValue is a decoded atom.
	AtomValue string
	// StringValue is a decoded string.
	StringValue string
	// VarValue is an unbound variable, named by its internal number.
	VarValue string
	// CompoundValue is a decoded compound term Functor(Args...).
	CompoundValue struct {
		Functor string
		Args    []any
	}
)

// maxDecodeDepth bounds decoding of deeply nested terms.
const maxDecodeDepth = 10000

// Decode converts t, resolved under env, to Go values (see AtomValue).
func Decode(t Term, env *pl.Env) (any, error) {
	return decode(t, env, 0)
}

func decode(t Term, env *pl.Env, depth int) (any, error) {
	if depth > maxDecodeDepth {
		return nil, fmt.Errorf("%w: term nested deeper than %d", ErrDecode, maxDecodeDepth)
	}
	t = env.Resolve(t)
	switch v := t.(type) {
	case pl.Variable:
		return VarValue(fmt.Sprintf("_G%d", int64(v))), nil
	case pl.Atom:
		if v == pl.NewAtom("[]") {
			return []any{}, nil
		}
		return AtomValue(v.String()), nil
	case pl.Integer:
		return int64(v), nil
	case pl.Float:
		return float64(v), nil
	case pl.Compound:
		if s, ok := backedText(v); ok {
			return StringValue(s), nil
		}
		if v.Functor() == pl.NewAtom(".") && v.Arity() == 2 {
			var out []any
			iter := pl.ListIterator{List: v, Env: env}
			for iter.Next() {
				e, err := decode(iter.Current(), env, depth+1)
				if err != nil {
					return nil, err
				}
				out = append(out, e)
			}
			if err := iter.Err(); err == nil {
				return out, nil
			}
			// A partial or improper list: fall through to a compound.
		}
		c := CompoundValue{Functor: v.Functor().String(), Args: make([]any, v.Arity())}
		for i := range c.Args {
			a, err := decode(v.Arg(i), env, depth+1)
			if err != nil {
				return nil, err
			}
			c.Args[i] = a
		}
		return c, nil
	default:
		return nil, fmt.Errorf("%w: unsupported term type %T", ErrDecode, t)
	}
}

// backedText recognises the engine's string-backed char and code lists,
// which is what String builds, without walking them.
func backedText(c pl.Compound) (string, bool) {
	switch reflect.TypeOf(c).Name() {
	case "charList", "codeList":
		if s, ok := c.(fmt.Stringer); ok {
			return s.String(), true
		}
	}
	return "", false
}

// Text returns the text of a decoded value: a StringValue, an AtomValue, or
// a list of one-character atoms (a string built by rules in chars mode).
func Text(v any) (string, bool) {
	switch x := v.(type) {
	case StringValue:
		return string(x), true
	case AtomValue:
		return string(x), true
	case []any:
		var b bytes.Buffer
		for _, e := range x {
			a, ok := e.(AtomValue)
			if !ok {
				return "", false
			}
			b.WriteString(string(a))
		}
		return b.String(), true
	}
	return "", false
}

// FormatTerm writes t under env in quoted, operator-aware form, as writeq/1
// would, except that strings (lists of one-character atoms, which is what
// double_quotes=chars makes of "abc") are shown as "abc".
func FormatTerm(vm *pl.VM, t Term, env *pl.Env) string {
	var b bytes.Buffer
	s := pl.NewOutputTextStream(&b)
	opts := pl.List(pl.NewAtom("quoted").Apply(pl.NewAtom("true")), pl.NewAtom("numbervars").Apply(pl.NewAtom("true")))
	_, _ = pl.WriteTerm(vm, s, displayTerm(t, env, 0), opts, pl.Success, env).Force(contextBackground)
	return b.String()
}

// displayString is a term that writes itself as a double-quoted string; it
// exists only for display.
type displayString string

func (d displayString) WriteTerm(w io.Writer, _ *pl.WriteOptions, _ *pl.Env) error {
	_, err := io.WriteString(w, strconv.Quote(string(d)))
	return err
}

func (d displayString) Compare(t Term, env *pl.Env) int {
	if o, ok := t.(displayString); ok {
		return strings.Compare(string(d), string(o))
	}
	return 1
}

// displayTerm rebuilds t with every string shown as displayString.
func displayTerm(t Term, env *pl.Env, depth int) Term {
	t = env.Resolve(t)
	c, ok := t.(pl.Compound)
	if !ok || depth > 1000 {
		return t
	}
	if s, ok := backedText(c); ok {
		return displayString(s)
	}
	if c.Functor() == pl.NewAtom(".") && c.Arity() == 2 {
		if s, ok := charsText(c, env); ok {
			return displayString(s)
		}
	}
	args := make([]Term, c.Arity())
	for i := range args {
		args[i] = displayTerm(c.Arg(i), env, depth+1)
	}
	return c.Functor().Apply(args...)
}

// charsText returns the text of a proper list of one-character atoms of at
// least two elements.
func charsText(c pl.Compound, env *pl.Env) (string, bool) {
	var b strings.Builder
	n := 0
	iter := pl.ListIterator{List: c, Env: env}
	for iter.Next() {
		a, ok := env.Resolve(iter.Current()).(pl.Atom)
		if !ok {
			return "", false
		}
		s := a.String()
		if utf8.RuneCountInString(s) != 1 {
			return "", false
		}
		b.WriteString(s)
		n++
	}
	if iter.Err() != nil || n < 2 {
		return "", false
	}
	return b.String(), true
}

// Encode converts a decoded value (see Decode) back to a term, so that data
// Prolog returned can be handed back to it. AtomValue becomes an atom again:
// pass only values that came out of Prolog, never user text, as AtomValue.
func Encode(v any) Term {
	switch x := v.(type) {
	case AtomValue:
		return pl.NewAtom(string(x))
	case StringValue:
		return String(string(x))
	case string:
		return String(x)
	case int64:
		return pl.Integer(x)
	case int:
		return pl.Integer(int64(x))
	case float64:
		return Float(x)
	case []any:
		ts := make([]Term, len(x))
		for i, e := range x {
			ts[i] = Encode(e)
		}
		return pl.List(ts...)
	case CompoundValue:
		ts := make([]Term, len(x.Args))
		for i, e := range x.Args {
			ts[i] = Encode(e)
		}
		return Compound(x.Functor, ts...)
	case VarValue:
		return pl.NewVariable()
	case Term:
		return x
	}
	return pl.NewAtom(fmt.Sprintf("unencodable(%T)", v))
}

// FormatValue renders a decoded value compactly for people and JSON:
// atoms bare, strings double-quoted, compounds as f(a, b), lists as [a, b].
func FormatValue(v any) string {
	var b bytes.Buffer
	formatValue(&b, v)
	return b.String()
}

func formatValue(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case AtomValue:
		b.WriteString(string(x))
	case StringValue:
		fmt.Fprintf(b, "%q", string(x))
	case int64:
		fmt.Fprintf(b, "%d", x)
	case float64:
		fmt.Fprintf(b, "%g", x)
	case VarValue:
		b.WriteString("_")
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			formatValue(b, e)
		}
		b.WriteByte(']')
	case CompoundValue:
		b.WriteString(x.Functor)
		b.WriteByte('(')
		for i, e := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			formatValue(b, e)
		}
		b.WriteByte(')')
	default:
		fmt.Fprintf(b, "%v", x)
	}
}

// Describe names the Prolog type of a decoded value for an error message
// a rule author reads: "the integer 123", "an unbound variable", "the
// compound foo/2", "a list of 3 elements". Values are shown only for
// numbers and atoms, cut to 40 bytes.
func Describe(v any) string {
	switch x := v.(type) {
	case int64:
		return fmt.Sprintf("the integer %d", x)
	case float64:
		return fmt.Sprintf("the float %g", x)
	case AtomValue:
		return "the atom " + quoteShort(string(x))
	case StringValue:
		return "the string " + quoteShort(string(x))
	case VarValue:
		return "an unbound variable"
	case []any:
		return fmt.Sprintf("a list of %d elements", len(x))
	case CompoundValue:
		return fmt.Sprintf("the compound %s/%d", quoteShort(x.Functor), len(x.Args))
	}
	return fmt.Sprintf("a value of Go type %T", v)
}

func quoteShort(s string) string {
	if len(s) > 40 {
		n := 40
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return strconv.Quote(s)
}
