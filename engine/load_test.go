package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/plsyntax"
)

// loadErr loads files (path -> text) as the default layer and returns the
// *LoadError, failing the test if loading succeeds or fails otherwise.
func loadErr(t *testing.T, files map[string]string, opts Options) *LoadError {
	t.Helper()
	opts.Rules = mapFS(files)
	_, err := New(opts)
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("want a *LoadError, got %v", err)
	}
	return le
}

// expectLoad loads files and checks that it succeeds (want "") or fails
// with a *LoadError containing want.
func expectLoad(t *testing.T, files map[string]string, opts Options, want string) {
	t.Helper()
	opts.Rules = mapFS(files)
	_, err := New(opts)
	if want == "" {
		if err != nil {
			t.Fatalf("want it to load, got %v", err)
		}
		return
	}
	var le *LoadError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), want) {
		t.Fatalf("want a *LoadError containing %q, got %v", want, err)
	}
}

// where is a LoadError's position and message, for comparison.
type where struct {
	File         string
	Line, Column int
	Msg          string
}

func whereOf(le *LoadError) where {
	return where{le.File, le.Line, le.Column, le.Error()}
}

func TestLoadErrorsPointAtTheClauseNotAtAnEarlierMention(t *testing.T) {
	text := "/* helpers. Note:\nmember is the prelude's, do not redefine it.\n*/\n\nmember(X,[X|_]).\n"
	le := loadErr(t, map[string]string{"bad.pl": text}, Options{})
	want := where{"rules/bad.pl", 5, 1, "engine: rules/bad.pl:5:1: member/2: redefines a prelude predicate"}
	if diff := cmp.Diff(want, whereOf(le)); diff != "" {
		t.Errorf("load error (-want +got):\n%s", diff)
	}
}

func TestSyntaxErrorsAreReportedAtTheOffendingTokenInPlainWords(t *testing.T) {
	cases := []struct {
		name, text string
		want       where
	}{
		{"operator expected on line 7", "a.\nb.\n\n% c\nd :-\n    e,\n    foo(X) bar(X).\ng.\n",
			where{"rules/x.pl", 7, 12, `engine: rules/x.pl:7:12: syntax error: operator expected after "foo(X)"`}},
		{"unexpected token", "a.\np :- q c.\n", where{"rules/x.pl", 2, 8, `engine: rules/x.pl:2:8: syntax error: operator expected after "q"`}},
		{"missing end before the next clause", "a :- b\nc :- d.\n",
			where{"rules/x.pl", 1, 7, `engine: rules/x.pl:1:7: syntax error: missing "." at the end of the clause`}},
		{"missing end at the end of the file", "a.\nb :- c", where{"rules/x.pl", 2, 7, `engine: rules/x.pl:2:7: syntax error: missing "." at the end of the clause`}},
		{"unbalanced close", "a.\np(X) :- q(X)).\n", where{"rules/x.pl", 2, 13, `engine: rules/x.pl:2:13: syntax error: unbalanced ")": nothing to close`}},
		{"unclosed open", "a.\np(X) :- q((X).\n", where{"rules/x.pl", 2, 10, `engine: rules/x.pl:2:10: syntax error: unbalanced "(": not closed before the end of the clause`}},
		{"mismatched", "p :- X = f(a].\n", where{"rules/x.pl", 1, 13, `engine: rules/x.pl:1:13: syntax error: unbalanced "]": "(" is still open`}},
		{"empty body", "a.\n\nb :- .\n", where{"rules/x.pl", 3, 3, `engine: rules/x.pl:3:3: syntax error: missing term after ":-"`}},
		{"trailing comma", "p :- a, .\n", where{"rules/x.pl", 1, 7, `engine: rules/x.pl:1:7: syntax error: missing term after ","`}},
		{"unterminated atom", "a.\np :- X = 'abc.\n", where{"rules/x.pl", 2, 10, `engine: rules/x.pl:2:10: syntax error: quoted atom 'abc.… is not closed`}},
		{"big integer", "p(99999999999999999999999).\n", where{"rules/x.pl", 1, 3, `engine: rules/x.pl:1:3: syntax error: integer out of range (64 bits)`}},
		{"bad escape", "p('\\q').\n", where{"rules/x.pl", 1, 3, `engine: rules/x.pl:1:3: syntax error: invalid escape sequence or character in quoted atom "'\q'"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			le := loadErr(t, map[string]string{"x.pl": c.text}, Options{})
			if diff := cmp.Diff(c.want, whereOf(le)); diff != "" {
				t.Errorf("load error (-want +got):\n%s", diff)
			}
			var se *plsyntax.SyntaxError
			if !errors.As(le, &se) {
				t.Errorf("want a *plsyntax.SyntaxError inside, got %#v", le.Err)
			}
			for _, internal := range []string{"unexpected token:", "letter digit", "close list", "(.)"} {
				if strings.Contains(le.Error(), internal) {
					t.Errorf("message leaks the parser's internals (%q): %s", internal, le.Error())
				}
			}
		})
	}
}

func TestUndefinedPredicatesAreRefusedAtTheGoal(t *testing.T) {
	host := []Predicate{{Name: "lookup", Arity: 2, Fn: func(context.Context, []any) (Term, error) { return Atom("x"), nil }}}
	cases := []struct {
		name, text, want string // want "" means it loads
	}{
		{"plain", "p(X) :-\n    q(X),\n    foo(X, 1).\nq(1).\n", "x.pl:3:5: calls undefined predicate foo/2"},
		{"other arity", "p(X) :- q(X, 2).\nq(1).\n", "x.pl:1:9: calls undefined predicate q/2 (did you mean q/1?)"},
		{"misspelled", "p(X) :- lokup(X, Y), Y == 1.\n", "x.pl:1:9: calls undefined predicate lokup/2 (did you mean lookup/2?)"},
		{"in findall", "p(L) :- findall(X, gen(X), L).\n", "x.pl:1:20: calls undefined predicate gen/1"},
		{"in negation", "p :- \\+ nope.\n", "x.pl:1:9: calls undefined predicate nope/0"},
		{"in if-then-else", "p :- ( true -> nope(1) ; true ).\n", "x.pl:1:16: calls undefined predicate nope/1"},
		{"in forall", "p :- forall(member(X, [1]), chk(X)).\n", "x.pl:1:29: calls undefined predicate chk/1"},
		{"in aggregate_all", "p(N) :- aggregate_all(count, hit(_), N).\n", "x.pl:1:30: calls undefined predicate hit/1"},
		{"in catch recovery", "p :- catch(true, _, recover).\n", "x.pl:1:21: calls undefined predicate recover/0"},
		{"closure of maplist", "p(L, M) :- maplist(add(1), L, M).\n", "x.pl:1:20: calls undefined predicate add/3"},
		{"closure of foldl", "p(L, S) :- foldl(plus, L, 0, S).\n", "x.pl:1:18: calls undefined predicate plus/3"},
		{"closure of include", "p(L, M) :- include(ok, L, M).\n", "x.pl:1:20: calls undefined predicate ok/1"},
		{"closure of call/3", "p(X) :- call(g, X, 1).\n", "x.pl:1:14: calls undefined predicate g/2"},
		{"soft cut is not in the sandbox", "p :- '*->'(true, true).\n", "x.pl:1:6: calls undefined predicate *->/2"},
		{"call/6 is not in the sandbox", "p(G) :- call(G, 1, 2, 3, 4, 5).\n", "x.pl:1:9: calls undefined predicate call/6"},
		{"module-qualified", "p :- lists:append([], [], _).\n", "calls lists:append/3, but rule files have no modules"},
		{"variable goal", "p(G) :- call(G), G, call(G, 1).\n", ""},
		{"builtin prelude and host", "p(X) :- length([a], N), member(X, [N]), lookup(X, _), forall(true, true).\n", ""},
		{"defined in another file", "p :- r(1).\n", ""},
		{"declared dynamic", ":- dynamic(d/1).\np :- d(1).\n", ""},
		{"declared multifile", ":- multifile(m/1).\np :- m(1).\n", ""},
		{"grammar rule", "s --> [a], t.\nt --> [].\n", ""},
		{"grammar rule calling nothing", "s --> [a], u.\n", "x.pl:1:12: calls undefined predicate u/2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectLoad(t, map[string]string{"x.pl": c.text, "other.pl": "r(1).\n"}, Options{Predicates: host}, c.want)
		})
	}
}

func TestUndefinedPredicatesInTestFilesAreRefusedButTheirHelpersCount(t *testing.T) {
	e := newTestEngine(t, map[string]string{
		"a.pl":      "p(1).\n",
		"a_test.pl": "fixture(1).\n\ntest(uses_helper) :- fixture(X), p(X).\n",
		"b_test.pl": "test(typo) :-\n    fixtur(X),\n    p(X).\n",
	}, Options{})
	var got []string
	for _, src := range e.TestSources() {
		res, err := e.RunTests(context.Background(), src)
		switch {
		case err != nil:
			got = append(got, err.Error())
		default:
			for _, r := range res {
				got = append(got, r.String())
			}
		}
	}
	want := []string{
		"rules/a_test.pl:3: test uses_helper: ok",
		"engine: rules/b_test.pl:2:5: calls undefined predicate fixtur/1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("test runs (-want +got):\n%s", diff)
	}
}

// TestDeclaredPredicateWithoutClausesFailsQuietly: ichiban/prolog makes a
// dynamic/1 or multifile/1 declaration an empty procedure (text.go
// forEachUserDefined), which fails when called instead of raising
// existence_error like an unknown predicate does.
func TestDeclaredPredicateWithoutClausesFailsQuietly(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.pl": ":- dynamic(d/1).\n:- multifile(m/1).\nviad(X) :- d(X).\nviam(X) :- m(X).\n"}, Options{})
	for _, g := range []string{"d", "m", "viad", "viam"} {
		_, err := e.Once(context.Background(), g, NewVar())
		if !errors.Is(err, ErrNoSolution) {
			t.Errorf("%s/1: want ErrNoSolution (a quiet failure), got %v", g, err)
		}
	}
	_, err := e.QueryText(context.Background(), "undeclared(1)", func([]Binding) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "existence_error") {
		t.Errorf("an undeclared predicate: want existence_error, got %v", err)
	}
}

func TestDiscontiguousClausesAreRefusedAtTheirLine(t *testing.T) {
	le := loadErr(t, map[string]string{"x.pl": "p(1).\nq.\np(2).\n"}, Options{})
	if le.Line != 3 || le.Column != 1 || !strings.Contains(le.Error(), "p/1: clauses are not together (the first ones are at line 1)") {
		t.Errorf("got %v (line %d col %d)", le, le.Line, le.Column)
	}
	newTestEngine(t, map[string]string{"x.pl": ":- discontiguous(p/1).\np(1).\nq.\np(2).\n"}, Options{})
}

// stepVocabulary is a closed vocabulary like the one retrieval steps use.
var stepVocabulary = []TermShape{{Functor: "step", Arity: 3, Args: []ArgShape{
	{Name: "strategy", Atoms: []string{"exact", "lexical"}},
	{Name: "args", Members: []string{"name/1", "case/1", "text/1"}},
	{Name: "role", Atoms: []string{"evidence", "check"}},
}}}

func TestVocabularyRefusesMisspelledDataAtItsToken(t *testing.T) {
	cases := []struct {
		name, text, want string // want "" means it loads
	}{
		{"role", "plan(T, [step(exact, [name(T)], evidnce)]).\n",
			`x.pl:1:33: step/3 role "evidnce" is not one of evidence, check`},
		{"strategy in a body", "a.\nplan(T, S) :-\n    S = step(exakt, [name(T)], check).\n",
			`x.pl:3:14: step/3 strategy "exakt" is not one of exact, lexical`},
		{"list member", "plan(T, step(exact, [name(T), nmae(T)], check)).\n",
			"x.pl:1:31: step/3 args holds nmae/1, which is not one of name/1, case/1, text/1"},
		{"atom member", "plan(step(exact, [insensitive], check)).\n",
			"x.pl:1:19: step/3 args holds insensitive/0, which is not one of name/1, case/1, text/1"},
		{"deep inside another term", "p(because(r, [x(y(step(lexical, [text(_)], chek)))])).\n",
			`x.pl:1:44: step/3 role "chek" is not one of evidence, check`},
		{"variables and open lists", "p(step(S, [name(_)|_], R), S, R).\nq(step(exact, [_, case(insensitive)], _)).\n", ""},
		{"other arities", "p(step(evidnce), step(a, b, c, d)).\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectLoad(t, map[string]string{"x.pl": c.text}, Options{Vocabulary: stepVocabulary}, c.want)
		})
	}
}

func TestVocabularyShapesAreChecked(t *testing.T) {
	for _, shapes := range [][]TermShape{
		{{Functor: "", Arity: 1}},
		{{Functor: "s", Arity: 1, Args: []ArgShape{{}, {}}}},
		{{Functor: "s", Arity: 1, Args: []ArgShape{{Members: []string{"name"}}}}},
		{{Functor: "s", Arity: 1}, {Functor: "s", Arity: 1}},
	} {
		if _, err := New(Options{Vocabulary: shapes}); err == nil {
			t.Errorf("%+v: want an error", shapes)
		}
	}
}

func ExampleLoadError() {
	m := fstest.MapFS{"retrieval/plan.pl": {Data: []byte("plan(X) :-\n    clasify(X, _).\nclassify(_, _).\n")}}
	_, err := New(Options{Rules: m})
	fmt.Println(err)
	// Output: engine: rules/retrieval/plan.pl:2:5: calls undefined predicate clasify/2 (did you mean classify/2?)
}
