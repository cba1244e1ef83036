package prologsrc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/plsyntax"
)

// clauseTexts returns the text of each clause the scanner finds.
func clauseTexts(src string) []string {
	s := plsyntax.NewScanner(src)
	var out []string
	for {
		c, ok := s.Next()
		if !ok {
			return out
		}
		out = append(out, src[c.Start:c.End])
	}
}

func TestScanClauses(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"simple", "a.\nb :- c.\n", []string{"a.", "b :- c."}},
		{"end at EOF", "a :- b.", []string{"a :- b."}},
		{"end before comment", "a.% c\nb.%\n", []string{"a.", "b."}},
		{"no space after end", "a.b.", []string{"a.b."}}, // '.' then 'b': not an end
		{"quoted dot", "a('.'). b(\". \").", []string{"a('.').", "b(\". \")."}},
		{"doubled quote", "a('it''s. ok'). b.", []string{"a('it''s. ok').", "b."}},
		{"escaped quote", `a('it\'s. ok'). b.`, []string{`a('it\'s. ok').`, "b."}},
		{"char code dot", "a(0'.). b(0' ). c.", []string{"a(0'.).", "b(0' ).", "c."}},
		{"char code quote", "a(0'''). b.", []string{"a(0''').", "b."}},
		{"char code escape", `a(0'\n, 0'\\). b.`, []string{`a(0'\n, 0'\\).`, "b."}},
		// 0'x then a quote that opens an unterminated quoted atom, as the
		// reader sees it.
		{"char code then quote", "a(0'x'). b.", []string{"a(0'x'). b."}},
		{"line comment with dot", "a :- % end. here\n b.\n", []string{"a :- % end. here\n b."}},
		{"block comment with dot", "a :- /* x. y */ b.\n", []string{"a :- /* x. y */ b."}},
		{"graphic run", "a :- X =.. Y. b.", []string{"a :- X =.. Y.", "b."}},
		{"float", "a(1.5). b(2.0e10).", []string{"a(1.5).", "b(2.0e10)."}},
		{"integer then end", "a(1) :- X is 1. b.", []string{"a(1) :- X is 1.", "b."}},
		{"back-quoted", "a(`x. y`). b.", []string{"a(`x. y`).", "b."}},
		{"unterminated quote", "a('x. y). b.", []string{"a('x. y). b."}},
		{"unterminated comment", "a. /* b.", []string{"a."}},
		{"missing end", "a. b :- c", []string{"a.", "b :- c"}},
		{"crlf", "a.\r\nb.\r\n", []string{"a.", "b."}},
		{"tab after end", "a.\tb.", []string{"a.", "b."}},
		{"unicode", "größe(ü). b.", []string{"größe(ü).", "b."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, clauseTexts(tt.src)); diff != "" {
				t.Errorf("clauses of %q (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

type callRow struct {
	Name      string
	Arity     int
	Module    string
	Line      int
	Enclosing int
}

func callRows(res *Result) []callRow {
	var rows []callRow
	for _, c := range res.Calls {
		rows = append(rows, callRow{c.Name, c.Arity, c.Module, c.Span.StartLine, c.Enclosing})
	}
	return rows
}

type defRow struct {
	Indicator string
	DCG       bool
	Clauses   int
	Lines     [2]int
	NameLine  int
	NameCol   int
}

func defRows(res *Result) []defRow {
	var rows []defRow
	for _, d := range res.Definitions {
		rows = append(rows, defRow{d.Indicator(), d.DCG, d.Clauses, [2]int{d.Span.StartLine, d.Span.EndLine}, d.NameSpan.StartLine, d.NameSpan.StartCol})
	}
	return rows
}

func parse(t *testing.T, src string) *Result {
	t.Helper()
	res, err := Parse(context.Background(), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestParseDefinitions(t *testing.T) {
	src := `% not a doc: blank line below

%! p(+X) is det.
%  P does.
p(1).
p(X) :- q(X).
q(_).
p(3).
'a b'(x).
m:r(1).
s, [x] --> t.
s --> [].
`
	res := parse(t, src)
	want := []defRow{
		{"p/1", false, 2, [2]int{5, 6}, 5, 0},
		{"q/1", false, 1, [2]int{7, 7}, 7, 0},
		{"p/1", false, 1, [2]int{8, 8}, 8, 0}, // not contiguous: a new run
		{"a b/1", false, 1, [2]int{9, 9}, 9, 0},
		{"r/1", false, 1, [2]int{10, 10}, 10, 2}, // module-qualified head
		{"s/2", true, 2, [2]int{11, 12}, 11, 0},  // pushback
	}
	if diff := cmp.Diff(want, defRows(res)); diff != "" {
		t.Errorf("definitions (-want +got):\n%s", diff)
	}
	if res.Err != nil || res.Clauses != 8 {
		t.Errorf("Err %v, Clauses %d", res.Err, res.Clauses)
	}
	d := res.Definitions[0]
	if d.Doc != "p(+X) is det.\nP does." || d.Head != "p(1)" {
		t.Errorf("p/1: Doc %q Head %q", d.Doc, d.Head)
	}
	if res.Definitions[1].Doc != "" {
		t.Errorf("q/1 Doc %q", res.Definitions[1].Doc)
	}
	if got := src[res.Definitions[3].NameSpan.StartByte:res.Definitions[3].NameSpan.EndByte]; got != "'a b'" {
		t.Errorf("'a b' name span %q", got)
	}
}

func TestParseCalls(t *testing.T) {
	src := `r(X) :-
    a,
    ( b(X) -> c ; d(X) ),
    \+ e,
    findall(Y, f(Y), _),
    forall(g(Z), h(Z)),
    bagof(V, W^i(V, W), _),
    setof(K, j(K), _),
    aggregate_all(count, k, _),
    catch(l, _, m),
    once(n),
    ignore(o),
    call(p, 1),
    maplist(q(a), [1], [2]),
    lists:append([], [], _),
    X = foo,
    foo,
    !.
`
	res := parse(t, src)
	want := []callRow{
		{"a", 0, "", 2, 0},
		{"b", 1, "", 3, 0}, {"c", 0, "", 3, 0}, {"d", 1, "", 3, 0},
		{`\+`, 1, "", 4, 0}, {"e", 0, "", 4, 0},
		{"findall", 3, "", 5, 0}, {"f", 1, "", 5, 0},
		{"forall", 2, "", 6, 0}, {"g", 1, "", 6, 0}, {"h", 1, "", 6, 0},
		{"bagof", 3, "", 7, 0}, {"i", 2, "", 7, 0},
		{"setof", 3, "", 8, 0}, {"j", 1, "", 8, 0},
		{"aggregate_all", 3, "", 9, 0}, {"k", 0, "", 9, 0},
		{"catch", 3, "", 10, 0}, {"l", 0, "", 10, 0}, {"m", 0, "", 10, 0},
		{"once", 1, "", 11, 0}, {"n", 0, "", 11, 0},
		{"ignore", 1, "", 12, 0}, {"o", 0, "", 12, 0},
		{"call", 2, "", 13, 0}, {"p", 1, "", 13, 0}, // call(p, 1) calls p/1
		{"maplist", 3, "", 14, 0}, {"q", 3, "", 14, 0}, // q(a) gets two more
		{"append", 3, "lists", 15, 0},
		{"=", 2, "", 16, 0},
		{"foo", 0, "", 17, 0}, // found on its own line, not in X = foo
	}
	if diff := cmp.Diff(want, callRows(res)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

func TestParseDCG(t *testing.T) {
	src := "greeting --> [hello], name, { atom(x) }, \"!\", ( a ; b(1) ), call(c, 1), \\+ d.\n"
	res := parse(t, src)
	want := []callRow{
		{"name", 2, "", 1, 0},
		{"atom", 1, "", 1, 0},
		{"a", 2, "", 1, 0},
		{"b", 3, "", 1, 0},
		{"c", 3, "", 1, 0}, // call//2: c plus one argument plus the two lists
		{"d", 2, "", 1, 0},
	}
	if diff := cmp.Diff(want, callRows(res)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]defRow{{"greeting/2", true, 1, [2]int{1, 1}, 1, 0}}, defRows(res)); diff != "" {
		t.Errorf("definitions (-want +got):\n%s", diff)
	}
}

func TestParseDirectives(t *testing.T) {
	src := `:- module(m, [p/1, q//0, op(700, xfx, ===>)]).
:- use_module(library(lists)).
:- use_module(library(apply), [maplist/3]).
:- use_module([a, 'dir/b']).
:- ensure_loaded(c).
:- reexport(library(d)).
:- include('e.pl').
:- consult(f).
:- load_files([g], []).
:- [h, i].
:- dynamic(counter/1).
:- op(700, xfx, <~>).
:- initialization(main).
?- setup.
x ===> y.
x <~> y.
`
	res := parse(t, src)
	if res.Err != nil {
		t.Fatalf("Err: %v", res.Err)
	}
	if res.Module != "m" {
		t.Errorf("Module %q", res.Module)
	}
	if diff := cmp.Diff([]string{"p/1", "q//0", "op(700,xfx,===>)"}, res.Exports); diff != "" {
		t.Errorf("exports (-want +got):\n%s", diff)
	}
	type imp struct {
		Spec, Directive string
		Line            int
	}
	var got []imp
	for _, im := range res.Imports {
		got = append(got, imp{im.Spec, im.Directive, im.Span.StartLine})
	}
	want := []imp{
		{"library(lists)", "use_module", 2},
		{"library(apply)", "use_module", 3},
		{"a", "use_module", 4},
		{"dir/b", "use_module", 4},
		{"c", "ensure_loaded", 5},
		{"library(d)", "reexport", 6},
		{"e.pl", "include", 7},
		{"f", "consult", 8},
		{"g", "load_files", 9},
		{"h", "[]", 10},
		{"i", "[]", 10},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("imports (-want +got):\n%s", diff)
	}
	wantCalls := []callRow{
		{"initialization", 1, "", 13, -1}, {"main", 0, "", 13, -1},
		{"setup", 0, "", 14, -1},
	}
	if diff := cmp.Diff(wantCalls, callRows(res)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	// The operators the text declares (op/3 and the module's export list)
	// read the clauses that use them.
	if diff := cmp.Diff([]defRow{{"===>/2", false, 1, [2]int{15, 15}, 15, 2}, {"<~>/2", false, 1, [2]int{16, 16}, 16, 2}}, defRows(res)); diff != "" {
		t.Errorf("definitions (-want +got):\n%s", diff)
	}
}

// TestParseNeverRuns reads directives that would halt the process, write a
// file or loop forever if run: the test process survives, nothing is
// written, and the goals are listed as references.
func TestParseNeverRuns(t *testing.T) {
	sentinel := filepath.Join(t.TempDir(), "ran")
	src := ":- initialization(halt).\n" +
		":- initialization(main, main).\n" +
		":- halt(3).\n" +
		":- open('" + sentinel + "', write, S), write(S, ran), close(S).\n" +
		":- repeat, fail.\n" +
		"main :- halt.\n"
	res := parse(t, src)
	if res.Err != nil {
		t.Fatalf("Err: %v", res.Err)
	}
	if _, err := os.Stat(sentinel); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("sentinel file: %v (the directive ran?)", err)
	}
	want := []callRow{
		{"initialization", 1, "", 1, -1}, {"halt", 0, "", 1, -1},
		{"initialization", 2, "", 2, -1}, {"main", 0, "", 2, -1},
		{"halt", 1, "", 3, -1},
		{"open", 3, "", 4, -1}, {"write", 2, "", 4, -1}, {"close", 1, "", 4, -1},
		{"repeat", 0, "", 5, -1}, {"fail", 0, "", 5, -1},
		{"halt", 0, "", 6, 0},
	}
	if diff := cmp.Diff(want, callRows(res)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		clauses int
		defs    int
		line    int    // of the error, 0 for none
		msg     string // the error contains this
	}{
		{"clean", "a.\n", 1, 1, 0, ""},
		{"empty", "", 0, 0, 0, ""},
		{"comments only", "% x\n/* y */\n", 0, 0, 0, ""},
		{"mid-file", "a(1).\na(2) :- b.\nbad(X :- .\nc(3).\n", 3, 2, 3, "col 7: unexpected \":-\""},
		{"first clause", "bad(.\nc(3).\n", 1, 1, 1, "col 4: unbalanced \"(\""},
		{"a predicate's clauses around a bad one are one definition", "count(0, a).\ncount(bad .\ncount(1, b).\n", 2, 1, 2, "unbalanced"},
		{"the first error is the one reported", "a.\nbad(.\nb.\nworse(.\nc.\n", 3, 3, 2, "unbalanced"},
		{"missing end", "a.\nb :- c\n", 1, 1, 2, ""},
		{"declaration words stay atoms", ":- module(db, [table/2, dynamic/1]).\nlayout(X) :- X = table.\ntable :- true.\npairs(table-1, public-2).\nis_pub(X) :- X == public.\n", 5, 4, 0, ""},
		{"declaration operators as SWI-Prolog has them", "a.\n:- dynamic foo/1, bar/2.\n:- discontiguous a/0.\n:- table fib/2.\nb.\n", 5, 2, 0, ""},
		{"invalid UTF-8", "a.\nb('\xff\xfe').\n", 1, 1, 2, ""},
		{"too many tokens", "a.\nb :- " + strings.Repeat("c, ", MaxClauseTokens) + "c.\nd.\n", 2, 2, 2, "tokens"},
		{"too deep", "a.\nb(" + strings.Repeat("[", MaxClauseDepth+1) + strings.Repeat("]", MaxClauseDepth+1) + ").\nd.\n", 2, 2, 2, "deeper"},
		{"too large", strings.Repeat("a.\n", MaxTextBytes/3+1), 0, 0, 1, "bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := parse(t, tt.src)
			if res.Clauses != tt.clauses || len(res.Definitions) != tt.defs {
				t.Errorf("Clauses %d, Definitions %d; want %d, %d", res.Clauses, len(res.Definitions), tt.clauses, tt.defs)
			}
			switch {
			case tt.line == 0 && res.Err != nil:
				t.Errorf("Err %v", res.Err)
			case tt.line != 0 && res.Err == nil:
				t.Errorf("no Err")
			case tt.line != 0 && (res.Err.Line != tt.line || !strings.Contains(res.Err.Error(), tt.msg)):
				t.Errorf("Err %v; want line %d containing %q", res.Err, tt.line, tt.msg)
			}
		})
	}
}

func TestParseShebang(t *testing.T) {
	res := parse(t, "#!/usr/bin/env swipl\n:- initialization(main, main).\nmain :- true.\n")
	if res.Err != nil || len(res.Definitions) != 1 || res.Definitions[0].Span.StartLine != 3 {
		t.Errorf("Err %v, Definitions %+v", res.Err, res.Definitions)
	}
}

func TestParseContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Parse(ctx, []byte("a.\n")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestParseHostile: inputs that must come back quickly without a crash.
func TestParseHostile(t *testing.T) {
	const deep = 50000
	tests := []struct {
		name string
		src  string
	}{
		{"50k nested terms", "a(" + strings.Repeat("f(", deep) + "x" + strings.Repeat(")", deep) + ").\n"},
		{"50k nested parens", "a :- " + strings.Repeat("(", deep) + "b" + strings.Repeat(")", deep) + ".\n"},
		{"50k unclosed", "a :- " + strings.Repeat("(", deep) + "\n"},
		{"long conjunction", "a :- " + strings.Repeat("b, ", MaxClauseTokens/2-10) + "b.\n"},
		{"nested negation", "a :- " + strings.Repeat(`\+ `, 50000) + "b.\n"},
		{"prefix operators", "a :- X = " + strings.Repeat("- ", 40000) + "1.\n"},
		{"4 MB one line", strings.Repeat("f:-g.", (MaxTextBytes-10)/6)},
		{"binary", "\x00\x01\x02\xff\xfe.\n"},
		{"many clauses", strings.Repeat("p(1). ", 100000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res := parse(t, tt.src)
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %v", d)
			}
			t.Logf("%v: %d clauses, %d calls, err %v", time.Since(start).Round(time.Millisecond), res.Clauses, len(res.Calls), res.Err)
		})
	}
	res := parse(t, "a :- "+strings.Repeat("b, ", 5000)+"b.\n")
	if len(res.Calls) != 5001 || res.Calls[5000].Span.StartLine != 1 {
		t.Errorf("long body: %d calls", len(res.Calls))
	}
}
