package planner_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/rules"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

var (
	sampleOnce sync.Once
	sampleP    *project.Project
	sampleErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if sampleP != nil {
		sampleP.Close()
	}
	os.Exit(code)
}

// sample opens testdata/gosample in memory once (BM25, no embedder).
func sample(t *testing.T) *project.Project {
	t.Helper()
	sampleOnce.Do(func() {
		sampleP, sampleErr = project.Open(context.Background(), "../testdata/gosample", project.Options{InMemory: true})
	})
	if sampleErr != nil {
		t.Fatal(sampleErr)
	}
	return sampleP
}

func search(t *testing.T, pl *planner.Planner, query string) (*planner.Answer, error) {
	t.Helper()
	var ans *planner.Answer
	err := sample(t).View(func(b retrieval.Backend, _ store.Identity) (err error) {
		ans, err = pl.Search(context.Background(), b, query, 10)
		return err
	})
	return ans, err
}

func mustPlanner(t *testing.T, opts planner.Options) *planner.Planner {
	t.Helper()
	pl, err := planner.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

// copyDefaultRules writes the embedded default rules under dir, applying
// edit to every file's text.
func copyDefaultRules(t *testing.T, dir string, edit func(string) string) {
	t.Helper()
	err := fsWalkPL(func(p string, text string) error {
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, []byte(edit(text)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// ruleIDPattern matches the default rules' IDs: cls_, st_, fb_, ev_.
var ruleIDPattern = regexp.MustCompile(`\b(cls|st|fb|ev)_[a-z_]+\b`)

// TestRenamedRuleIDsStillReportGapAndResolution: Go learns what the rules
// decided from outcome terms, by shape; renaming every rule ID in a copy of
// the default rules changes the explanations and nothing else.
func TestRenamedRuleIDsStillReportGapAndResolution(t *testing.T) {
	dir := t.TempDir()
	copyDefaultRules(t, dir, func(s string) string { return ruleIDPattern.ReplaceAllString(s, "renamed_$0") })
	def := mustPlanner(t, planner.Options{})
	ren := mustPlanner(t, planner.Options{RulesDir: dir})
	for _, q := range []string{
		"what does sample.Fetch call?", // resolved by the last segment, then retargeted
		"what calls servehttp?",        // resolved by case
		"where is Servehttp defined?",  // answered for another case
		"what calls NoSuchThingAnywhere?",
		"where is NoSuchThingAnywhere defined?",
	} {
		a, err := search(t, def, q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		b, err := search(t, ren, q)
		if err != nil {
			t.Fatalf("%q renamed: %v", q, err)
		}
		if !strings.HasPrefix(b.Explain[0].Rule, "renamed_") {
			t.Fatalf("%q: the renamed rules were not loaded (first rule %s)", q, b.Explain[0].Rule)
		}
		if a.Gap != b.Gap {
			t.Errorf("%q: gap %q with default IDs, %q with renamed IDs", q, a.Gap, b.Gap)
		}
		if (a.Resolved == nil) != (b.Resolved == nil) ||
			a.Resolved != nil && (a.Resolved.From != b.Resolved.From || a.Resolved.To != b.Resolved.To || "renamed_"+a.Resolved.Rule != b.Resolved.Rule) {
			t.Errorf("%q: resolution %+v with default IDs, %+v with renamed IDs", q, a.Resolved, b.Resolved)
		}
		if diff := cmp.Diff(hitKeys(a), hitKeys(b)); diff != "" {
			t.Errorf("%q: hits differ (-default +renamed):\n%s", q, diff)
		}
	}
}

func hitKeys(a *planner.Answer) []string {
	var out []string
	for _, h := range a.Hits {
		out = append(out, h.Path+"#"+h.Symbol)
	}
	return out
}

// TestGapAndResolutionAreReported: the answers the rename test compares are
// not empty: each query leaves the gap or resolution it is chosen for.
func TestGapAndResolutionAreReported(t *testing.T) {
	pl := mustPlanner(t, planner.Options{})
	for _, tc := range []struct {
		query, gap string
		from, to   string
		graphName  string // the name the graph step searched, if any
	}{
		{query: "what does sample.Fetch call?", from: "sample.Fetch", to: "Fetch", graphName: "Fetch"},
		{query: "what calls servehttp?", from: "servehttp", to: "ServeHTTP", graphName: "ServeHTTP"},
		{query: "where is Servehttp defined?", from: "Servehttp", to: "ServeHTTP"},
		{query: "what calls NoSuchThingAnywhere?", gap: `symbol_not_found("NoSuchThingAnywhere")`},
		{query: "what calls ServeHTP?", from: "ServeHTP", to: "ServeHTTP", graphName: "ServeHTTP"}, // misspelled
		{query: "where is Sevrer defined?", from: "Sevrer", to: "Server"},                          // misspelled
		{query: "where is Server defined?"},
	} {
		a, err := search(t, pl, tc.query)
		if err != nil {
			t.Fatalf("%q: %v", tc.query, err)
		}
		if a.Gap != tc.gap {
			t.Errorf("%q: gap %q, want %q", tc.query, a.Gap, tc.gap)
		}
		var got [2]string
		if a.Resolved != nil {
			got = [2]string{a.Resolved.From, a.Resolved.To}
		}
		if got != [2]string{tc.from, tc.to} {
			t.Errorf("%q: resolved %v, want %v", tc.query, got, [2]string{tc.from, tc.to})
		}
		graph := ""
		for _, s := range a.Plan {
			if s.Strategy == "graph" {
				graph = s.Name
			}
		}
		if tc.graphName != "" && graph != tc.graphName {
			t.Errorf("%q: the graph step searched %q, want %q", tc.query, graph, tc.graphName)
		}
	}
}

// TestStepsOutsideTheVocabularyAreRefusedNamingTheRule: a step the rules
// build at run time with an unknown strategy, role or argument is an error
// naming the rule that planned it, never a step that runs.
func TestStepsOutsideTheVocabularyAreRefusedNamingTheRule(t *testing.T) {
	for name, tc := range map[string]struct{ step, want string }{
		"strategy":        {`step(S, [text(T)], evidence) :- atom_concat(lexi, calx, S)`, "unknown strategy"},
		"role":            {`step(lexical, [text(T)], R) :- atom_concat(evid, ence2, R)`, "unknown role"},
		"argument":        {`step(lexical, [text(T), A], evidence) :- A =.. [colour, red]`, "unknown step argument"},
		"value":           {`step(graph, [name(T), relation(R)], evidence) :- atom_concat(call, ers2, R)`, "relation(callers2) is not allowed"},
		"generation":      {`step(structural, [changed(N)], evidence) :- N is 0 - 3`, "must hold a generation"},
		"generation text": {`step(structural, [changed(G)], evidence) :- atom_concat(la, st2, G)`, "must hold a generation"},
		"parser":          {`step(structural, [parser(P)], evidence) :- atom_concat(tree, sitter, P)`, "parser(treesitter) is not allowed"},
		"demoted role":    {`step(lexical, [text(T), demote(R)], evidence) :- atom_concat(sour, ce, R)`, "demote(source) is not allowed"},
		"examples":        {`step(lexical, [text(T), examples(E)], evidence) :- atom_concat(exclu, des, E)`, "examples(excludes) is not allowed"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			head, body, _ := strings.Cut(tc.step, " :- ")
			src := ":- multifile(extra_class_rule/4).\n:- multifile(extra_strategy/4).\n:- multifile(rule_id/2).\n" +
				"rule_id(cls_probe, \"probe\").\nrule_id(st_probe_bad, \"probe\").\n" +
				"extra_class_rule(cls_probe, _, probe, []).\n" +
				"extra_strategy(probe, F, " + head + ", because(st_probe_bad, [])) :-\n    feature(text(T), F),\n    " + body + ".\n"
			if err := os.WriteFile(filepath.Join(dir, "zz_probe.pl"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			pl := mustPlanner(t, planner.Options{RulesDir: dir})
			_, err := search(t, pl, "anything at all")
			var re *planner.RuleError
			if !errors.As(err, &re) || !errors.Is(err, planner.ErrBadRules) {
				t.Fatalf("want a *RuleError matching ErrBadRules, got %v", err)
			}
			if !strings.Contains(err.Error(), "st_probe_bad") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not name the rule st_probe_bad and %q", err, tc.want)
			}
		})
	}
}

// TestExplainPlansWhatSearchRuns: Explain, Plan and Search make the same
// plan for the same capabilities: with an embedder a description is
// answered by hybrid search in all three.
func TestExplainPlansWhatSearchRuns(t *testing.T) {
	caps := project.Capabilities(project.Options{Embedder: retrieval.FuncEmbedder{ModelID: "m", Dims: 4}})
	for _, c := range []retrieval.Capabilities{{}, caps} {
		pl := mustPlanner(t, planner.Options{Capabilities: c})
		for _, q := range []string{"parse multipart form boundaries", "what calls ServeHTTP?", "cookie", "where is Server defined?"} {
			e, err := pl.Explain(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			p, err := pl.Plan(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(p.Steps, e.Steps, cmp.Comparer(func(a, b planner.Step) bool { return a.String()+a.Role == b.String()+b.Role })); diff != "" {
				t.Errorf("%q: Plan and Explain differ:\n%s", q, diff)
			}
			want := "lexical"
			if c.Supports(retrieval.Hybrid) {
				want = "hybrid"
			}
			if q == "parse multipart form boundaries" && (len(e.Steps) != 1 || e.Steps[0].Strategy != want) {
				t.Errorf("%q with %v: plan %v, want one %s step", q, c.Strategies, e.Steps, want)
			}
		}
	}
}

// fsWalkPL calls fn for every .pl file of the embedded defaults.
func fsWalkPL(fn func(path, text string) error) error {
	return walkFS(rules.FS, fn)
}
