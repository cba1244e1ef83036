package rlm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/tms"
)

// TestWhyNotNamesTheExcludingRuleForEachKindOfExclusion: for a strategy,
// the rule that excluded it and the premise that would have to change —
// the backend lacks it, another supersedes it, the class never plans it,
// the query lacks what its step needs — and a planned one names the rule
// that planned it.
func TestWhyNotNamesTheExcludingRuleForEachKindOfExclusion(t *testing.T) {
	const q = "parse multipart form boundaries"
	local, err := rlm.LocalEmbedder()
	if err != nil {
		t.Fatal(err)
	}
	withVectors, err := rlm.NewPlanner(rlm.Options{Embedder: local})
	if err != nil {
		t.Fatal(err)
	}
	// A learned embedder's vectors are trusted to rank a description
	// (rules/retrieval/vectors.pl): hybrid supersedes BM25 alone.
	withLearned, err := rlm.NewPlanner(rlm.Options{Embedder: &testfixture.WordEmbedder{ModelID: "test-words-v1", Dims: 64}})
	if err != nil {
		t.Fatal(err)
	}
	bm25Only, err := rlm.NewPlanner(rlm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		planner  *rlm.Planner
		strategy string
		rule     string
		change   string
	}{
		{bm25Only, "hybrid", "wn_not_available", "available(hybrid)"},
		{withLearned, "lexical", "wn_superseded", "not_available(hybrid)"},
		{withVectors, "lexical", "wn_planned", ""}, // the local embedder is lexical: BM25 first
		{bm25Only, "graph", "wn_class_excludes", "class(relationship, cls_relation)"},
		{bm25Only, "exact", "wn_condition_unmet", "strong_identifier"},
		{bm25Only, "lexical", "wn_planned", ""},
		{withVectors, "hybrid", "wn_planned", ""},
	}
	for _, c := range cases {
		v, err := c.planner.WhyNotStrategy(context.Background(), q, c.strategy)
		if err != nil {
			t.Fatal(err)
		}
		got := []string{v.Because.Rule, v.Change}
		if diff := cmp.Diff([]string{c.rule, c.change}, got); diff != "" || v.Excluded != (c.change != "") {
			t.Errorf("whynot %s (excluded %v) (-want +got):\n%s", c.strategy, v.Excluded, diff)
		}
	}
	if _, err := bm25Only.WhyNotStrategy(context.Background(), q, "telepathy"); err == nil {
		t.Error("an unknown strategy was judged")
	}
}

// TestWhyNotASymbolNamesWhatKeptItOut: a symbol with no definition, one a
// step's filter cut (a harness's extra strategy that leaves tests out),
// one no step looked for, and one in the answer.
func TestWhyNotASymbolNamesWhatKeptItOut(t *testing.T) {
	root := testfixture.WriteTree(t, map[string]string{
		"serve.go":      "package s\n\n// Serve serves requests.\nfunc Serve() {}\n\n// Server holds the server state.\ntype Server struct{}\n",
		"serve_test.go": "package s\n\n// TestServeRequests serves requests in a test.\nfunc TestServeRequests() {}\n",
	})
	rules := testfixture.WriteTree(t, map[string]string{"mine/notests.pl": `:- multifile(rule_id/2).
:- multifile(extra_class_rule/4).
:- multifile(extra_strategy/4).
rule_id(my_hurried, "a hurried question").
rule_id(my_no_tests, "hurried questions search non-test code").
extra_class_rule(my_hurried, F, hurried, []) :-
    feature(words(Ws), F), memberchk("quickly", Ws).
extra_strategy(hurried, F, step(lexical, [text(T), tests(exclude)], evidence), because(my_no_tests, [])) :-
    feature(text(T), F).
`})
	p, err := rlm.Open(context.Background(), root, rlm.Options{InMemory: true, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cases := []struct {
		query, symbol, rule, change string
	}{
		{"where is Nowhere defined", "Nowhere", "wn_symbol_absent", `defined("Nowhere")`},
		{"serve requests quickly", "TestServeRequests", "wn_filtered", "without(tests(exclude))"},
		{"Server", "Serve", "wn_not_sought", `query_names("Serve")`},
		{"Serve", "Serve", "wn_in_answer", ""},
	}
	for _, c := range cases {
		v, err := p.WhyNot(context.Background(), c.query, c.symbol)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{c.rule, c.change}, []string{v.Because.Rule, v.Change}); diff != "" || v.Kind != "symbol" {
			t.Errorf("whynot %s for %q (kind %s) (-want +got):\n%s", c.symbol, c.query, v.Kind, diff)
		}
	}
}

// TestWhyShowsTheRuleChainAndTheConclusionWithItsPremises: Why gives the
// answer's chain of rules (the class rule first) and, with Memory, the
// conclusion kept for it: IN, resting on the hit's file by content hash;
// after an edit to that file the old conclusion is OUT naming the file
// and Why computes a new one.
func TestWhyShowsTheRuleChainAndTheConclusionWithItsPremises(t *testing.T) {
	root := testfixture.WriteTree(t, memoryTree)
	p := openMemory(t, root)
	ctx := context.Background()
	y, err := p.Why(ctx, "Beta", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(y.Chain) < 2 || y.Chain[0].Rule != "cls_bare_identifier" || y.Served {
		t.Errorf("chain %v, served %v", y.Chain, y.Served)
	}
	c := y.Conclusion
	if c == nil || c.Label != tms.In || !usesFile(*c, "beta.go") {
		t.Fatalf("conclusion: %+v", c)
	}
	if again, _ := p.Why(ctx, "Beta", 5); !again.Served || again.Conclusion.ID != c.ID {
		t.Errorf("asked again: served %v, conclusion %v", again.Served, again.Conclusion)
	}
	write(t, root, "beta.go", strings.Replace(memoryTree["beta.go"], "return 2", "return 20", 1))
	y2, err := p.Why(ctx, "Beta", 5)
	if err != nil {
		t.Fatal(err)
	}
	if y2.Served || y2.Conclusion.ID == c.ID {
		t.Errorf("after the edit: served %v, the same conclusion %v", y2.Served, y2.Conclusion.ID == c.ID)
	}
	old, err := p.Conclusion(ctx, c.ID)
	if err != nil || old.Label != tms.Out || old.Because.Rule != "tms_source_changed" || !strings.Contains(strings.Join(old.Because.Premises, " "), `"beta.go"`) {
		t.Errorf("the old conclusion: %+v %v", old, err)
	}
}
