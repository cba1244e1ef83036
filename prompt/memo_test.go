package prompt

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/engine"
)

func newCompilerWith(t testing.TB, opts CompilerOptions) *Compiler {
	t.Helper()
	c, err := NewCompiler(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// memoCase is one compile of the memo tests.
type memoCase struct {
	name string
	cat  *Catalog
	in   Input
	opts Options
}

// TestMemoizedAnswerEqualsTheRulesAnswer: a compile answered from the memo
// (the same terms decided before) is the compile the rules give with no
// memo, for compiled and all_tools mode, host flags, needs, signals,
// capabilities, context units and a budget.
func TestMemoizedAnswerEqualsTheRulesAnswer(t *testing.T) {
	memo, plain := newCompiler(t), newCompilerWith(t, CompilerOptions{MemoSize: -1})
	if plain.memo != nil {
		t.Fatal("MemoSize -1 kept a memo")
	}
	cat := loadExample(t)
	ev := Unit{ID: ReservedPrefix + "ev1", Kind: KindContext, Title: "evidence", Body: "func f() {}", Activation: ActivationAlways}
	cases := []memoCase{
		{"git review", cat, Input{Text: gitReview, Capabilities: readCaps}, Options{}},
		{"all tools", cat, Input{Text: gitReview, Capabilities: readCaps}, Options{Mode: ModeAllTools}},
		{"host flags", cat, Input{Text: gitReview, Capabilities: readCaps, HostSelected: []string{"project_search"}, HostDenied: []string{"git_diff"}}, Options{}},
		{"needs and signals", cat, Input{Text: "search the code", Needs: []string{"search"}, Signals: []string{"git_repo"}, Capabilities: readCaps}, Options{}},
		{"no capabilities", cat, Input{Text: gitReview}, Options{}},
		{"context unit", cat, Input{Text: gitReview, Capabilities: readCaps, Context: []Unit{ev}}, Options{Budget: 4000}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := compile(t, plain, tc.cat, tc.in, tc.opts)
			first := compile(t, memo, tc.cat, tc.in, tc.opts)
			n := memo.memo.len()
			again := compile(t, memo, tc.cat, tc.in, tc.opts)
			if memo.memo.len() != n {
				t.Errorf("the second compile added a memo entry (%d -> %d): not answered from the memo", n, memo.memo.len())
			}
			for i, got := range []*Compiled{first, again} {
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("compile %d differs from the rules' answer without a memo (-rules +memo):\n%s", i+1, diff)
				}
			}
		})
	}
}

// TestMemoizedAnswerChangesWithItsInput: after a compile is memoised, a
// change of anything the rules read -- a capability granted, a host
// denial, a need, the mode, a unit's activation in another catalog with
// the same ids, the lexical cut's candidates -- is decided afresh: each
// compile equals the rules' answer without a memo, and differs from the
// first compile's where the rules' answer does.
func TestMemoizedAnswerChangesWithItsInput(t *testing.T) {
	memo, plain := newCompiler(t), newCompilerWith(t, CompilerOptions{MemoSize: -1})
	cat := loadExample(t)
	units := cat.Units()
	for i := range units {
		if units[i].ID == "git_diff" {
			units[i].Activation = ActivationAlways
		}
	}
	always, err := NewCatalog(context.Background(), units, CatalogOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	defer always.Release()
	// The same catalog but git_diff needs no capability: only its unit
	// term differs, not which candidates there are or their order.
	units = cat.Units()
	for i := range units {
		if units[i].ID == "git_diff" {
			units[i].Capabilities = nil
		}
	}
	free, err := NewCatalog(context.Background(), units, CatalogOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	defer free.Release()
	base := Input{Text: gitReview, Capabilities: readCaps}
	steps := []memoCase{
		{"first", cat, base, Options{}},
		{"capability withdrawn", cat, Input{Text: gitReview}, Options{}},
		{"git_diff needs no capability in another catalog", free, Input{Text: gitReview}, Options{}},
		{"host denial", cat, Input{Text: gitReview, Capabilities: readCaps, HostDenied: []string{"git_diff"}}, Options{}},
		{"a need", cat, Input{Text: gitReview, Capabilities: readCaps, Needs: []string{"search"}}, Options{}},
		{"mode all_tools", cat, base, Options{Mode: ModeAllTools}},
		{"activation changed in another catalog", always, Input{Text: "write a haiku about autumn", Capabilities: readCaps}, Options{}},
		{"same text, first catalog", cat, Input{Text: "write a haiku about autumn", Capabilities: readCaps}, Options{}},
		{"other text", cat, Input{Text: "find where the function is defined", Capabilities: readCaps}, Options{}},
		{"first again", cat, base, Options{}},
	}
	var first *Compiled
	changed := 0
	for _, s := range steps {
		want := compile(t, plain, s.cat, s.in, s.opts)
		got := compile(t, memo, s.cat, s.in, s.opts)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the memoised compiler differs from the rules (-rules +memo):\n%s", s.name, diff)
		}
		if first == nil {
			first = got
		} else if !cmp.Equal(decisionsOf(first), decisionsOf(want)) {
			changed++
		}
	}
	// The steps are chosen so that the rules' answer changes: if it did
	// not, the test would not show that the memo follows the input.
	if changed < len(steps)-3 {
		t.Errorf("only %d of %d changed inputs changed the rules' answer", changed, len(steps)-1)
	}
}

func decisionsOf(c *Compiled) [][]Decision { return [][]Decision{c.Active, c.Rejected} }

// TestMemoKeepsAtMostMemoSizeAnswers: the memo forgets its oldest answer
// when full, and a forgotten answer is decided again by the rules.
func TestMemoKeepsAtMostMemoSizeAnswers(t *testing.T) {
	c, plain := newCompilerWith(t, CompilerOptions{MemoSize: 2}), newCompilerWith(t, CompilerOptions{MemoSize: -1})
	cat := loadExample(t)
	texts := []string{gitReview, "search the code for a function", "write a commit message"}
	for i, q := range texts {
		compile(t, c, cat, Input{Text: q, Capabilities: readCaps}, Options{})
		if got, want := c.memo.len(), min(i+1, 2); got != want {
			t.Fatalf("after %d compiles the memo holds %d answers, want %d", i+1, got, want)
		}
	}
	in := Input{Text: texts[0], Capabilities: readCaps}
	if diff := cmp.Diff(compile(t, plain, cat, in, Options{}), compile(t, c, cat, in, Options{})); diff != "" {
		t.Errorf("the forgotten answer, decided again, differs (-rules +memo):\n%s", diff)
	}
}

// TestCompilerWithHostPredicatesKeepsNoMemo: a host predicate may answer
// differently from call to call, so its compiler never reuses an answer.
func TestCompilerWithHostPredicatesKeepsNoMemo(t *testing.T) {
	c := newCompilerWith(t, CompilerOptions{Predicates: []engine.Predicate{{Name: "host_fact", Arity: 1,
		Fn: func(context.Context, []any) (engine.Term, error) { return engine.Atom("x"), nil }}}})
	if c.memo != nil {
		t.Fatal("a compiler with host predicates keeps a memo")
	}
	cat := loadExample(t)
	for i := range 2 {
		if out := compile(t, c, cat, Input{Text: gitReview, Capabilities: readCaps}, Options{}); len(out.Active) == 0 {
			t.Fatalf("compile %d: nothing active", i)
		}
	}
}

// TestMemoKeyFollowsEveryGoalArgument: the memo's key of compile_units's
// arguments changes when any one of them changes.
func TestMemoKeyFollowsEveryGoalArgument(t *testing.T) {
	args := func(i int, v string) []engine.Term {
		as := []engine.Term{engine.Atom("in"), engine.Atom("table"), engine.List(), engine.List()}
		if i >= 0 {
			as[i] = engine.String(v)
		}
		return as
	}
	base, ok := memoKey(args(-1, "")...)
	if !ok {
		t.Fatal("ground arguments gave no key")
	}
	for i := range 4 {
		k, ok := memoKey(args(i, fmt.Sprint("changed", i))...)
		if !ok || k == base {
			t.Errorf("argument %d changed and the key did not (ok %v)", i+1, ok)
		}
	}
	if _, ok := memoKey(engine.Atom("in"), engine.NewVar()); ok {
		t.Error("a variable argument gave a key")
	}
}

// TestMemoFollowsTheCandidateOrder: the rules' answer depends on which
// candidates are Called and in which order the Ranked ones come, not only
// on the table; with the same input and table, other Called and Ranked
// lists are decided afresh.
func TestMemoFollowsTheCandidateOrder(t *testing.T) {
	memo, plain := newCompiler(t), newCompilerWith(t, CompilerOptions{MemoSize: -1})
	cat := loadExample(t)
	ctx := context.Background()
	in, opts := Input{Text: gitReview, Capabilities: readCaps}, Options{}
	if err := checkOptions(&opts); err != nil {
		t.Fatal(err)
	}
	costs, err := cat.unitCosts(cat.enc)
	if err != nil {
		t.Fatal(err)
	}
	cands, err := gather(ctx, cat, costs, nil, in, opts, "")
	if err != nil {
		t.Fatal(err)
	}
	terms := make([]engine.Term, len(cands))
	for i, cd := range cands {
		terms[i] = unitTerm(cd)
	}
	table, input := engine.Compound("units", terms...), inputTerm(in, opts.Mode)
	called, ranked := partition(cands, opts.Mode, "")
	var all []engine.Term
	for _, cd := range cands {
		all = append(all, engine.Int(int64(cd.n)))
	}
	orders := []struct {
		name           string
		called, ranked engine.Term
	}{
		{"as partitioned", called, ranked},
		{"nothing called", engine.List(), ranked},
		{"nothing ranked", called, engine.List()},
		{"every candidate called", engine.List(all...), engine.List()},
	}
	distinct := map[string]bool{}
	for _, o := range orders {
		want, err := plain.decide(ctx, input, table, o.called, o.ranked)
		if err != nil {
			t.Fatal(err)
		}
		got, err := memo.decide(ctx, input, table, o.called, o.ranked)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the memo answered (-rules +memo):\n%s", o.name, diff)
		}
		distinct[engine.FormatValue(want)] = true
	}
	if len(distinct) < 3 {
		t.Errorf("only %d different answers for %d orders: the test shows nothing", len(distinct), len(orders))
	}
}
