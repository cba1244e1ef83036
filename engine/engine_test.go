package engine

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rlm-dev/rlm/internal/plsyntax"
)

func newTestEngine(t *testing.T, files map[string]string, opts Options) *Engine {
	t.Helper()
	opts.Rules = mapFS(files)
	e, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return e
}

func TestOnceDecodesData(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.pl": `
greet(Name, hello(Name, N)) :- length(Name, N).
`}, Options{})
	sol, err := e.Once(context.Background(), "greet", String("abc"), NewVar())
	if err != nil {
		t.Fatal(err)
	}
	got := sol[1].(CompoundValue)
	if got.Functor != "hello" || got.Args[0] != StringValue("abc") || got.Args[1] != int64(3) {
		t.Fatalf("got %#v", got)
	}
}

// ticker is a host predicate tick/0 that counts its calls: work measured
// outside the budget's own count.
type ticker struct{ n atomic.Int64 }

func (tk *ticker) predicate() Predicate {
	return Predicate{Name: "tick", Arity: 0, Fn: func(context.Context, []any) (Term, error) {
		tk.n.Add(1)
		return Atom("true"), nil
	}}
}

// budgetGuard bounds a query that a working budget ends in well under a
// second here (the default budget's 250,000 steps took 1.6 s on this
// project's loaded 2-core machine): a broken budget fails the test at the
// deadline instead of hanging until the package timeout.
const budgetGuard = 20 * time.Second

// TestInferenceBudgetStopsEveryQueryAtItsLimit: an endless loop, written
// plainly and nested inside findall/3, \+/1 and catch/3, ends with a
// *QueryError matching ErrInferenceBudget within budgetGuard, reporting
// limit+1 inferences (the step that went over); the work done (tick/0
// calls, counted in Go) is at most the limit (a call is at least one step)
// and at least a tenth of it (these bodies take 2 to 6 steps an iteration);
// the limit is per query (the same engine runs the loop three times with
// the same count and the same work); and Options.Inferences 0 means
// DefaultInferences.
func TestInferenceBudgetStopsEveryQueryAtItsLimit(t *testing.T) {
	cases := []struct {
		name, src string
		limit     int64 // Options.Inferences
		want      int64 // the limit in force
	}{
		{"plain", "loop :- tick, loop.\n", 10000, 10000},
		{"findall", "loop :- findall(x, (tick, loop), _).\n", 10000, 10000},
		{"negation", "loop :- \\+ \\+ (tick, loop).\n", 10000, 10000},
		{"catch", "loop :- catch((tick, loop), _, true).\n", 10000, 10000},
		{"default", "loop :- tick, loop.\n", 0, DefaultInferences},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tk := &ticker{}
			e := newTestEngine(t, map[string]string{"loop.pl": c.src}, Options{Inferences: c.limit, Predicates: []Predicate{tk.predicate()}})
			var work []int64
			for run := range 3 {
				ctx, cancel := context.WithTimeout(context.Background(), budgetGuard)
				before := tk.n.Load()
				_, st, err := e.AllStats(ctx, 1, "loop")
				cancel()
				if !errors.Is(err, ErrInferenceBudget) {
					t.Fatalf("run %d: want ErrInferenceBudget within %v, got %v", run, budgetGuard, err)
				}
				var qe *QueryError
				if !errors.As(err, &qe) || qe.Goal != "loop/0" {
					t.Fatalf("run %d: want *QueryError for loop/0, got %#v", run, err)
				}
				if qe.Inferences != c.want+1 || st.Inferences != c.want+1 {
					t.Errorf("run %d: stopped after %d inferences (stats %d), want the limit %d + 1", run, qe.Inferences, st.Inferences, c.want)
				}
				w := tk.n.Load() - before
				if w > c.want || w < c.want/10 {
					t.Errorf("run %d: %d tick/0 calls under a limit of %d steps, want between a tenth of it and all of it", run, w, c.want)
				}
				work = append(work, w)
			}
			if work[1] != work[0] || work[2] != work[0] {
				t.Errorf("work per run %v: the budget is not per query", work)
			}
		})
	}
}

// TestDeadlineStopsAQueryTheBudgetAllows: with a budget too large to
// matter, the context's deadline ends the loop with its error.
func TestDeadlineStopsAQueryTheBudgetAllows(t *testing.T) {
	e := newTestEngine(t, map[string]string{"loop.pl": "loop :- loop.\n"}, Options{Inferences: 1 << 62})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := e.Once(ctx, "loop")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want deadline, got %v", err)
	}
	if d := time.Since(start); d > 50*time.Millisecond+abandonGrace+time.Second {
		t.Fatalf("answered %v after a 50ms deadline", d)
	}
}

func TestLoadPolicy(t *testing.T) {
	cases := []struct {
		name, file, text, want string
	}{
		{"builtin", "x.pl", "ok.\nlength(_, 3).\n", "x.pl:2:1: length/2: redefines a builtin"},
		{"prelude", "x.pl", "member(_, _).\n", "x.pl:1:1: member/2: redefines a prelude predicate"},
		{"host", "x.pl", "a.\nb.\nsecret(_, x).\n", "x.pl:3:1: secret/2: redefines a host (bridge) predicate"},
		{"halt", "x.pl", "halt.\n", "halt/0: redefines a builtin excluded from the sandbox"},
		{"directive", "x.pl", ":- initialization(halt).\n", "directive not allowed"},
		{"include", "x.pl", ":- include('/etc/passwd').\n", "directive not allowed"},
		{"syntax", "x.pl", "a :- .\n", "syntax error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := fstest.MapFS{c.file: &fstest.MapFile{Data: []byte(c.text)}}
			_, err := New(Options{Rules: m, Predicates: []Predicate{{Name: "secret", Arity: 2, Fn: func(context.Context, []any) (Term, error) { return Atom("x"), nil }}}})
			var le *LoadError
			if !errors.As(err, &le) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want LoadError containing %q, got %v", c.want, err)
			}
		})
	}
}

func TestDuplicateAcrossFiles(t *testing.T) {
	m := fstest.MapFS{"a.pl": {Data: []byte("p(1).\n")}, "b.pl": {Data: []byte("p(2).\n")}}
	_, err := New(Options{Rules: m})
	if err == nil || !strings.Contains(err.Error(), "already defined in rules/a.pl") {
		t.Fatalf("got %v", err)
	}
}

func TestQueryText(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.pl": "p(1).\np(2).\n"}, Options{})
	var got []string
	n, err := e.QueryText(context.Background(), "p(X), Y = \"ab\"", func(bs []Binding) bool {
		for _, b := range bs {
			got = append(got, b.Name+"="+b.Value)
		}
		return true
	})
	if err != nil || n != 2 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	want := `X=1 Y="ab" X=2 Y="ab"`
	if strings.Join(got, " ") != want {
		t.Fatalf("got %q want %q", strings.Join(got, " "), want)
	}
}

// TestQueryTextSyntaxErrorsSayWhatAndWhere: a query typed at the REPL
// that does not read gets the rule files' plain-words message and its
// column, never the reader's token names; a second clause is refused, not
// silently dropped.
func TestQueryTextSyntaxErrorsSayWhatAndWhere(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.pl": "p(1).\n"}, Options{})
	tests := []struct{ query, want string }{
		{"foo(.", `engine: syntax error: unbalanced "(": not closed before the end of the clause at column 4`},
		{"X = 1 +.", `engine: syntax error: unexpected "+." at column 7`},
		{"foo(a b)", `engine: syntax error: operator expected after "a" at column 7`},
		{"p(X). p(Y).", `engine: syntax error: more than one clause: a query is one goal ending in "." (join goals with ",") at column 7`},
		{"X = 'é", `engine: syntax error: quoted atom 'é.… is not closed at column 5`},
	}
	for _, tt := range tests {
		n := 0
		_, err := e.QueryText(context.Background(), tt.query, func([]Binding) bool { n++; return true })
		if err == nil || err.Error() != tt.want || n != 0 {
			t.Errorf("QueryText(%q): %d solutions, error %v, want %s", tt.query, n, err, tt.want)
		}
		var se *plsyntax.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("QueryText(%q): %T is not a *plsyntax.SyntaxError", tt.query, err)
		}
	}
}

func TestHostPredicate(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.pl": "twice(X, Y) :- double(X, Y).\n"}, Options{Predicates: []Predicate{{Name: "double", Arity: 2, Fn: func(_ context.Context, in []any) (Term, error) {
		return Int(in[0].(int64) * 2), nil
	}}}})
	sol, err := e.Once(context.Background(), "twice", Int(21), NewVar())
	if err != nil || sol[1] != int64(42) {
		t.Fatalf("got %v %v", sol, err)
	}
	_, err = e.Once(context.Background(), "twice", NewVar(), NewVar())
	if err == nil || !strings.Contains(err.Error(), "instantiation_error") {
		t.Fatalf("want instantiation error, got %v", err)
	}
}

func TestPreludeHelpers(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.pl": `
t1 :- msort([b,a,b], [a,b,b]).
t2 :- reverse([1,2,3], [3,2,1]).
t3 :- sum_list([1,2,3], 6).
t4 :- foldl(add, [1,2,3], 0, 6).
add(X, A0, A) :- A is A0 + X.
t5 :- forall(member(X, [1,2]), X > 0).
t6 :- atomic_list_concat([a, b, 1], '-', 'a-b-1'), atomic_list_concat(L, '-', 'x-y'), L == [x, y].
t7 :- memberchk(b, [a,b,c]).
t8 :- atomic_list_concat([a, "bc"], abc).
`}, Options{})
	for _, g := range []string{"t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"} {
		if _, err := e.Once(context.Background(), g); err != nil {
			t.Errorf("%s: %v", g, err)
		}
	}
}

func TestRuleTestRunnerReportsFailingGoal(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.pl": "p(1).\n", "a_test.pl": "test(good) :- p(1).\n\ntest(bad) :-\n    X = 1,\n    p(X),\n    p(2).\n"}, Options{})
	srcs := e.TestSources()
	if len(srcs) != 1 {
		t.Fatalf("test sources: %v", srcs)
	}
	res, err := e.RunTests(context.Background(), srcs[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || !res[0].Passed || res[1].Passed {
		t.Fatalf("results: %+v", res)
	}
	if got, want := res[1].String(), "rules/a_test.pl:3: test bad: goal failed: p(2)"; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestMultifileMustBeDeclaredByEveryFile(t *testing.T) {
	one := fstest.MapFS{"a.pl": {Data: []byte("p(1).\n")}, "b.pl": {Data: []byte(":- multifile(p/1).\np(2).\n")}}
	if _, err := New(Options{Rules: one}); err == nil || !strings.Contains(err.Error(), "rules/a.pl defines it without declaring it multifile") {
		t.Fatalf("one-sided multifile: got %v", err)
	}
	// A multifile declaration alone (no clauses) would replace a
	// predicate another file defines: refused at its line.
	declOnly := fstest.MapFS{"a.pl": {Data: []byte("p(1).\n")}, "b.pl": {Data: []byte("ok.\n:- multifile(p/1).\n")}}
	if _, err := New(Options{Rules: declOnly}); err == nil || !strings.Contains(err.Error(), "rules/b.pl:2:1") {
		t.Fatalf("multifile declaration alone: got %v", err)
	}
	both := newTestEngine(t, map[string]string{"a.pl": ":- multifile(p/1).\np(1).\n", "b.pl": ":- multifile(p/1).\np(2).\n"}, Options{})
	sols, err := both.All(context.Background(), 0, "p", NewVar())
	if err != nil || len(sols) != 2 {
		t.Fatalf("both multifile: want 2 solutions, got %v %v", sols, err)
	}
}

func TestLoadPolicyClosesExpansionAndDeclarationHoles(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"term_expansion", "term_expansion(foo, (query_features(_, x) :- true)).\nfoo.\n", "term_expansion/2: redefines a compile-time hook"},
		{"goal_expansion", "goal_expansion(_, true).\n", "goal_expansion/2: redefines a compile-time hook"},
		{"dynamic builtin", ":- dynamic(atom_length/2).\n", "declares atom_length/2, which is a builtin"},
		{"discontiguous prelude", ":- discontiguous(member/2).\n", "declares member/2, which is a prelude predicate"},
		{"dynamic host", ":- dynamic((ok/0, secret/2)).\n", "declares secret/2, which is a host (bridge) predicate"},
		{"dynamic other file", ":- dynamic(p/1).\n", "declares p/1, which rules/a.pl defines"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := fstest.MapFS{"a.pl": {Data: []byte("p(1).\n")}, "z.pl": {Data: []byte(c.text)}}
			_, err := New(Options{Rules: m, Predicates: []Predicate{{Name: "secret", Arity: 2, Fn: func(context.Context, []any) (Term, error) { return Atom("x"), nil }}}})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want %q, got %v", c.want, err)
			}
		})
	}
}

// TestDeadlineHoldsWhenABuiltinSpins: term_variables/2 on a cyclic term
// never returns inside one step; the caller still gets its answer soon
// after the deadline.
func TestDeadlineHoldsWhenABuiltinSpins(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.pl": "spin :- X = f(X), term_variables(X, _).\n"}, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := e.Once(ctx, "spin")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want deadline exceeded, got %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("answered after %v", d)
	}
}

func TestLengthIsBounded(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.pl": "ok.\n"}, Options{})
	_, err := e.QueryText(context.Background(), "length(L, 1000000000)", func([]Binding) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "resource_error(list_length)") {
		t.Fatalf("want resource_error, got %v", err)
	}
}
