package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	pl "github.com/ichiban/prolog/engine"
)

// TestGroundKeyIdentifiesTheTerm: equal ground terms have equal keys and
// different ones different keys -- atoms against strings, chars against
// codes, integers against floats, lists against their flattening, and
// functors and texts whose bytes could run together; a term with a
// variable has none.
func TestGroundKeyIdentifiesTheTerm(t *testing.T) {
	key := func(t Term) (string, bool) {
		b, ok := AppendGroundKey(nil, t)
		return string(b), ok
	}
	distinct := []struct {
		name string
		t    Term
	}{
		{"atom a", Atom("a")},
		{"string a", String("a")},
		{"codes a", pl.CodeList("a")},
		{"string ab", String("ab")},
		{"int 1", Int(1)},
		{"int -1", Int(-1)},
		{"float 1", Float(1)},
		{"empty list", List()},
		{"[a]", List(Atom("a"))},
		{"[a,b]", List(Atom("a"), Atom("b"))},
		{"[[a],b]", List(List(Atom("a")), Atom("b"))},
		{"f(a)", Compound("f", Atom("a"))},
		{"f(a,b)", Compound("f", Atom("a"), Atom("b"))},
		{"f(ab)", Compound("f", Atom("ab"))},
		{"fa(b)", Compound("fa", Atom("b"))},
		{"f(\"ab\")", Compound("f", String("ab"))},
		{"f(\"a\",\"b\")", Compound("f", String("a"), String("b"))},
		{"g(a)", Compound("g", Atom("a"))},
		{"unit(1, \"id\", [2,3])", Compound("unit", Int(1), String("id"), List(Int(2), Int(3)))},
		{"unit(1, \"id\", [2,4])", Compound("unit", Int(1), String("id"), List(Int(2), Int(4)))},
	}
	seen := map[string]string{}
	for _, d := range distinct {
		k, ok := key(d.t)
		if !ok {
			t.Errorf("%s: no key for a ground term", d.name)
			continue
		}
		if other, dup := seen[k]; dup {
			t.Errorf("%s and %s share a key", d.name, other)
		}
		seen[k] = d.name
		again, _ := key(d.t)
		if again != k {
			t.Errorf("%s: two keys for the same term", d.name)
		}
	}
	// The same term built twice, and a list built element by element.
	same := []struct{ a, b Term }{
		{Compound("f", String("xyz"), List(Int(1))), Compound("f", String("xyz"), List(Int(1)))},
		{List(Atom("a"), Atom("b")), Compound(".", Atom("a"), Compound(".", Atom("b"), Atom("[]")))},
	}
	for i, s := range same {
		ka, _ := key(s.a)
		kb, _ := key(s.b)
		if diff := cmp.Diff(ka, kb); diff != "" {
			t.Errorf("pair %d: equal terms, different keys", i)
		}
	}
	for _, v := range []Term{NewVar(), Compound("f", Atom("a"), NewVar()), List(Int(1), NewVar())} {
		if b, ok := AppendGroundKey([]byte("prefix"), v); ok || string(b) != "prefix" {
			t.Errorf("a term with a variable gave a key (ok %v, %q)", ok, b)
		}
	}
}

// TestOnceOutputDecodesOnlyTheOutput: OnceOutput answers the last
// argument as Once does, and reports failure and errors as Once does.
func TestOnceOutputDecodesOnlyTheOutput(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.pl": `
size(units(A, B), N) :- length(A, La), length(B, Lb), N is La + Lb.
never(_, _) :- fail.
`}, Options{})
	ctx := context.Background()
	args := []Term{Compound("units", String("abc"), List(Int(1), Int(2))), NewVar()}
	got, err := e.OnceOutput(ctx, "size", args...)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := e.Once(ctx, "size", Compound("units", String("abc"), List(Int(1), Int(2))), NewVar())
	if err != nil {
		t.Fatal(err)
	}
	if got != int64(5) || sol[1] != got {
		t.Errorf("OnceOutput %v, Once %v; want 5", got, sol[1])
	}
	if _, err := e.OnceOutput(ctx, "never", Atom("x"), NewVar()); !errors.Is(err, ErrNoSolution) {
		t.Errorf("a failing goal: %v, want ErrNoSolution", err)
	}
	if _, err := e.OnceOutput(ctx, "size"); err == nil {
		t.Error("no output argument: no error")
	}
}
