package plsyntax

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	pl "github.com/ichiban/prolog/engine"
)

// readAll reads every clause of src; it returns the terms and the first
// syntax error as "line:col: message".
func readAll(t *testing.T, src string) ([]pl.Term, string) {
	t.Helper()
	vm, err := NewParserVM()
	if err != nil {
		t.Fatal(err)
	}
	lines := NewLines(src)
	sc := NewScanner(src)
	var terms []pl.Term
	for {
		c, ok := sc.Next()
		if !ok {
			return terms, ""
		}
		ts, err := ReadClause(vm, src, &c)
		terms = append(terms, ts...)
		var se *SyntaxError
		if errors.As(err, &se) {
			l, col := lines.Pos(se.Offset)
			return terms, fmt.Sprintf("%d:%d: %s", l, col+1, se.Msg)
		}
		if err != nil {
			t.Fatalf("not a SyntaxError: %v", err)
		}
	}
}

func TestReadClauseExplainsErrorsAtTheOffendingToken(t *testing.T) {
	cases := []struct{ src, want string }{
		{"a.\nfoo(X) bar.\n", `2:8: operator expected after "foo(X)"`},
		{"a :- b c.", `1:8: operator expected after "b"`},
		{"a(1 2).", `1:5: operator expected after "1"`},
		{"f(a)(b).", `1:5: operator expected after "f(a)"`},
		{"a :- b\nc :- d.", `1:7: missing "." at the end of the clause`},
		{"a.\nb :- c", `2:7: missing "." at the end of the clause`},
		{"a :- b /* no end", `1:7: missing "." at the end of the clause`},
		{"a :- (b.", `1:6: unbalanced "(": not closed before the end of the clause`},
		{"a :- X = [1,2.", `1:10: unbalanced "[": not closed before the end of the clause`},
		{"a :- b).", `1:7: unbalanced ")": nothing to close`},
		{"a :- f(x]).", `1:9: unbalanced "]": "(" is still open`},
		{"a :- .", `1:3: missing term after ":-"`},
		{"f :- a ; .", `1:8: missing term after ";"`},
		{"f(a,).", `1:5: missing term between "," and ")"`},
		{"f(,a).", `1:3: unexpected ","`},
		{"[a|b|c].", `1:5: unexpected "|"`},
		{"a(X :- .", `1:5: unexpected ":-"`},
		{"'abc", `1:1: quoted atom 'abc… is not closed`},
		{"a :- \"abc", `1:6: string "abc… is not closed`},
		{"a :- X = 'ab\ncd'.", `1:10: quoted atom 'ab… is not closed on its line`},
		{"a :- X = 'ab\r\ncd'.", `1:10: quoted atom 'ab… is not closed on its line`},
		{"a :- X = '\\q'.", `1:10: invalid escape sequence or character in quoted atom "'\q'"`},
		{"a :- X = 99999999999999999999999999999.", `1:10: integer out of range (64 bits)`},
		{"b('\xff\xfe').", "1:3: invalid escape sequence or character in quoted atom \"'\uFFFD'\""},
		{"a.\nb :- " + strings.Repeat("c, ", MaxClauseTokens) + "c.\n", fmt.Sprintf("2:1: clause has over %d tokens", MaxClauseTokens)},
		{"a.\nb(" + strings.Repeat("[", MaxClauseDepth+1) + strings.Repeat("]", MaxClauseDepth+1) + ").\n", fmt.Sprintf("2:1: clause nests deeper than %d", MaxClauseDepth)},
		{"a.\n% b.\nc :- d, e.\n", ""},
	}
	for _, c := range cases {
		name := c.src
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			_, got := readAll(t, c.src)
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestSyntaxErrorKeepsTheReadersOwnMessage(t *testing.T) {
	vm, err := NewParserVM()
	if err != nil {
		t.Fatal(err)
	}
	src := "a :- b c."
	c, _ := NewScanner(src).Next()
	_, err = ReadClause(vm, src, &c)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Reader != "unexpected token: letter digit(c)" || se.Err == nil ||
		se.Error() != `syntax error: operator expected after "b"` {
		t.Fatalf("got %#v", err)
	}
}

func TestParserVMReadsISOOperatorsAndStringsAsChars(t *testing.T) {
	terms, msg := readAll(t, `p(X) :- \+ X = "ab", Y is 1 + 2 * 3 ** 2, (a -> b ; c), Z = (d :- e), W =.. [f|Y], V^g.`)
	if msg != "" || len(terms) != 1 {
		t.Fatalf("read %d terms, error %q", len(terms), msg)
	}
	got := canonical(terms[0])
	for _, want := range []string{`\+(=(_,'.'(a,'.'(b,[]))))`, `is(_,+(1,*(2,**(3,2))))`, `;(->(a,b),c)`, `:-(d,e)`, `=..(_,'.'(f,_))`, `^(_,g)`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s does not contain %s", got, want)
		}
	}
}

type goalRow struct {
	Indicator string
	Module    string
	Control   bool
	At        string // "line:col" of the goal's token, "" if not found
}

func walkRows(t *testing.T, src string, dcg bool) []goalRow {
	t.Helper()
	terms, msg := readAll(t, src)
	if msg != "" {
		t.Fatal(msg)
	}
	c, _ := NewScanner(src).Next()
	lines := NewLines(src)
	loc := NewLocator(&c)
	var rows []goalRow
	yield := func(g Goal) {
		r := goalRow{Indicator: g.Indicator(), Module: g.Module, Control: g.Control}
		if g.Token >= 0 {
			l, col := lines.Pos(c.Tokens[g.Token].Start)
			r.At = fmt.Sprintf("%d:%d", l, col+1)
		}
		rows = append(rows, r)
	}
	body := terms[0].(pl.Compound).Arg(1)
	if dcg {
		loc.SkipPast("-->")
		WalkDCGBody(body, loc, yield)
	} else {
		loc.SkipPast(":-")
		WalkGoals(body, 0, loc, yield)
	}
	return rows
}

func TestWalkGoalsYieldsEveryGoalInTextOrder(t *testing.T) {
	src := `p(G) :-
    ( a -> b(1) ; \+ c ),
    findall(X, d(X), _),
    bagof(Y, Z^e(Y, Z), _),
    maplist(f(1), [x], [y]),
    foldl(g, [], 0, _),
    call(G, 1),
    m:h,
    '*->'(i, j),
    !.
`
	want := []goalRow{
		{"a/0", "", false, "2:7"}, {"->/2", "", true, "2:9"}, {"b/1", "", false, "2:12"}, {";/2", "", true, "2:17"},
		{`\+/1`, "", false, "2:19"}, {"c/0", "", false, "2:22"}, {",/2", "", true, ""},
		{"findall/3", "", false, "3:5"}, {"d/1", "", false, "3:16"}, {",/2", "", true, ""},
		{"bagof/3", "", false, "4:5"}, {"e/2", "", false, "4:16"}, {",/2", "", true, ""},
		{"maplist/3", "", false, "5:5"}, {"f/3", "", false, "5:13"}, {",/2", "", true, ""},
		{"foldl/4", "", false, "6:5"}, {"g/3", "", false, "6:11"}, {",/2", "", true, ""},
		{"call/2", "", false, "7:5"}, {",/2", "", true, ""},
		{"h/0", "m", false, "8:7"}, {",/2", "", true, ""},
		{"i/0", "", false, "9:11"}, {"*->/2", "", true, "9:5"}, {"j/0", "", false, "9:14"}, {",/2", "", true, ""},
	}
	if diff := cmp.Diff(want, walkRows(t, src, false)); diff != "" {
		t.Errorf("goals (-want +got):\n%s", diff)
	}
}

func TestWalkDCGBodyYieldsNonterminalsWithTwoMoreArguments(t *testing.T) {
	want := []goalRow{{"name/2", "", false, "1:23"}, {"atom/1", "", false, "1:31"}, {"b/3", "", false, "1:54"}, {"c/3", "", false, "1:67"}}
	if diff := cmp.Diff(want, walkRows(t, `greeting --> [hello], name, { atom(x) }, "!", ( [] ; b(1) ), call(c, 1).`, true)); diff != "" {
		t.Errorf("goals (-want +got):\n%s", diff)
	}
}

func TestMetaTableCoversThePreludesMetaPredicates(t *testing.T) {
	want := map[string][]MetaArg{
		"maplist/3": {{0, 2}}, "foldl/4": {{0, 3}}, "foldl/5": {{0, 4}}, "include/3": {{0, 1}}, "exclude/3": {{0, 1}},
		"forall/2": {{0, 0}, {1, 0}}, "aggregate_all/3": {{1, 0}}, "once/1": {{0, 0}}, "ignore/1": {{0, 0}},
		"findall/3": {{1, 0}}, "findall/4": {{1, 0}}, "catch/3": {{0, 0}, {2, 0}}, `\+/1`: {{0, 0}}, "call/8": {{0, 7}},
	}
	for pi, args := range want {
		i := strings.LastIndexByte(pi, '/')
		var n int
		fmt.Sscan(pi[i+1:], &n)
		m, ok := MetaOf(pi[:i], n)
		if !ok || m.Control {
			t.Errorf("%s: not a meta-predicate", pi)
			continue
		}
		if diff := cmp.Diff(args, m.Args); diff != "" {
			t.Errorf("%s (-want +got):\n%s", pi, diff)
		}
	}
	if m, ok := MetaOf(";", 2); !ok || !m.Control {
		t.Errorf(";/2 is a control construct")
	}
}

// canonical writes t in functional notation, variables as _.
func canonical(t pl.Term) string {
	switch v := t.(type) {
	case pl.Variable:
		return "_"
	case pl.Atom:
		if v.String() == "." {
			return "'.'"
		}
		return v.String()
	case pl.Integer:
		return fmt.Sprint(int64(v))
	case pl.Compound:
		args := make([]string, v.Arity())
		for i := range args {
			args[i] = canonical(v.Arg(i))
		}
		return canonical(v.Functor()) + "(" + strings.Join(args, ",") + ")"
	}
	return "?"
}
