package prompt

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/rules"
)

// rulesDir writes files (relative path -> text) under a new directory.
func rulesDir(t *testing.T, files map[string]string) string {
	t.Helper()
	return testfixture.WriteTree(t, files)
}

// TestAnswersOutsideTheProtocolAreRuleErrors: a compile.pl that returns
// anything but every candidate once, by number, with an atom rule ID, is
// refused with a *RuleError; nothing is compiled.
func TestAnswersOutsideTheProtocolAreRuleErrors(t *testing.T) {
	cat := loadExample(t)
	for name, answer := range map[string]string{
		"not compiled/3":        "C = done",
		"number out of range":   "all_out(Us, Os), C = compiled([in(9999, because(r, []))], Os, because(d, []))",
		"decided twice":         "all_out(Us, [O|Os]), C = compiled([], [O, O|Os], because(d, []))",
		"default not a because": "all_out(Us, [_|Os]), C = compiled([], Os, nothing)",
		"rule ID is a string":   `all_out(Us, [out(N, _)|Os]), C = compiled([], [out(N, because("r", []))|Os], because(d, []))`,
		"premises not a list":   "all_out(Us, [out(N, _)|Os]), C = compiled([], [out(N, because(r, p))|Os], because(d, []))",
		"in list holds an out":  "all_out(Us, [O|Os]), C = compiled([O], Os, because(d, []))",
		"in/3 not pulled":       "all_out(Us, [out(N, B)|Os]), C = compiled([in(N, B, wanted)], Os, because(d, []))",
	} {
		t.Run(name, func(t *testing.T) {
			dir := rulesDir(t, map[string]string{"prompt/compile.pl": "compile_units(_, T, _, _, C) :- T =.. [_|Us], " + answer + ".\n" +
				"all_out([], []).\nall_out([U|Us], [out(N, because(r, []))|Os]) :- unit_prop(n(N), U), all_out(Us, Os).\n"})
			c, err := NewCompiler(CompilerOptions{RulesDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			out, err := c.Compile(context.Background(), cat, Input{Text: gitReview}, Options{})
			var re *RuleError
			if !errors.As(err, &re) || !errors.Is(err, ErrBadRules) || re.Predicate != "compile_units/5" || out != nil {
				t.Fatalf("want a RuleError, got %v (%v)", err, out)
			}
		})
	}
}

// TestRenamedRuleIDsChangeOnlyTheExplanations: Go decodes the rules'
// answers by shape; renaming every rule ID changes the reasons and
// nothing else.
func TestRenamedRuleIDsChangeOnlyTheExplanations(t *testing.T) {
	files := map[string]string{}
	id := regexp.MustCompile(`\b(sel|cap|cl|cf|pk)_`)
	err := fs.WalkDir(rules.FS, "prompt", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.pl") {
			return err
		}
		b, err := fs.ReadFile(rules.FS, p)
		files[p] = id.ReplaceAllString(string(b), "renamed_${1}_")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	renamed, err := NewCompiler(CompilerOptions{RulesDir: rulesDir(t, files)})
	if err != nil {
		t.Fatal(err)
	}
	c, cat := newCompiler(t), packCatalog(t)
	for _, opts := range []Options{{}, {Budget: 120}} {
		in := Input{Text: "alpha beta gamma", Capabilities: readCaps}
		a, b := compile(t, c, cat, in, opts), compile(t, renamed, cat, in, opts)
		if diff := cmp.Diff(ids(a.Active), ids(b.Active)); diff != "" || a.Fingerprint != b.Fingerprint || len(a.Rejected) != len(b.Rejected) {
			t.Errorf("%+v: renaming the IDs changed the projection:\n%s", opts, diff)
		}
		for i, d := range b.Rejected {
			if d.Because.Rule != "renamed_"+a.Rejected[i].Because.Rule {
				t.Errorf("%s: %s, want renamed_%s", d.ID, d.Because.Rule, a.Rejected[i].Because.Rule)
			}
		}
		if !slices.ContainsFunc(b.Rejected, func(d Decision) bool { return strings.HasPrefix(d.Because.Rule, "renamed_pk_") }) && opts.Budget > 0 {
			t.Errorf("%+v: no packing decision to compare: %+v", opts, b.Rejected)
		}
	}
}

// TestExtensionHooksSelectAndRejectUnits: a harness author's file under
// RulesDir/prompt/ adds selection and rejection rules through the hooks.
func TestExtensionHooksSelectAndRejectUnits(t *testing.T) {
	dir := rulesDir(t, map[string]string{
		"retrieval/ignored.pl": "this_is_for_the_planner(x).\n",
		"prompt/mine.pl": `:- multifile(rule_id/2).
:- multifile(extra_select/4).
:- multifile(extra_reject/4).
rule_id(my_skills_always, "every skill is always shown").
rule_id(my_no_mcp, "no MCP tools in this harness").
extra_select(my_skills_always, _, U, [kind(skill)]) :- unit_prop(kind(skill), U).
extra_reject(my_no_mcp, _, U, []) :- unit_prop(kind(mcp_tool), U).
`})
	c, err := NewCompiler(CompilerOptions{RulesDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if problems, err := c.CheckRuleIDs(context.Background()); err != nil || len(problems) > 0 {
		t.Fatalf("registry: %v %v", problems, err)
	}
	cat := loadExample(t)
	out := compile(t, c, cat, Input{Text: "what is the weather forecast for the test match", Capabilities: []string{"network", "github.write"}}, Options{Mode: ModeAllTools})
	if d, ok := decisionOf(out.Active, "debugging"); !ok || d.Because.Rule != "my_skills_always" {
		t.Errorf("debugging: %+v (active %v)", d, ids(out.Active))
	}
	if d, ok := decisionOf(out.Rejected, "github_create_issue"); !ok || d.Because.Rule != "my_no_mcp" {
		t.Errorf("github_create_issue: %+v", d)
	}
}

// TestRuleFilesOutsideTheVocabularyAreRefusedAtLoad: a kind, activation
// or mode the compiler does not know is a load error at its line.
func TestRuleFilesOutsideTheVocabularyAreRefusedAtLoad(t *testing.T) {
	for _, text := range []string{
		"r(U) :- unit_prop(kind(widget), U).\n",
		"r(U) :- unit_prop(activation(sometimes), U).\n",
		"r(I) :- input_prop(mode(every_tool), I).\n",
	} {
		_, err := NewCompiler(CompilerOptions{RulesDir: rulesDir(t, map[string]string{"prompt/bad.pl": "ok.\n" + text})})
		var le *engine.LoadError
		if !errors.As(err, &le) || le.Line != 2 || !strings.HasSuffix(le.File, "bad.pl") {
			t.Errorf("%q: want a LoadError at bad.pl:2, got %v", text, err)
		}
	}
	if _, err := NewCompiler(CompilerOptions{RulesDir: filepath.Join(t.TempDir(), "missing")}); !errors.Is(err, engine.ErrNoRuleFiles) {
		t.Errorf("a missing rules directory: %v", err)
	}
}

// TestRulesRunUnderTheInferenceBudget: a rule that loops is stopped.
func TestRulesRunUnderTheInferenceBudget(t *testing.T) {
	dir := rulesDir(t, map[string]string{"prompt/compile.pl": "compile_units(I, T, A, B, C) :- compile_units(I, T, A, B, C).\n"})
	c, err := NewCompiler(CompilerOptions{RulesDir: dir, Inferences: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Compile(context.Background(), loadExample(t), Input{Text: gitReview}, Options{})
	if !errors.Is(err, engine.ErrInferenceBudget) {
		t.Fatalf("want the inference budget, got %v", err)
	}
}
