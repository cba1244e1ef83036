package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

const exampleCatalog = "../../examples/catalog/catalog.yaml"

// TestCompileShowsWhyEveryUnitIsInOrOut: `rlm compile --json` accounts for
// every unit of the catalog exactly once, each with a rule, and shows the
// git-review projection of the regression matrix.
func TestCompileShowsWhyEveryUnitIsInOrOut(t *testing.T) {
	out, errs, code := runCLI(t, "", "compile", "--catalog", exampleCatalog, "--cap", "git.read", "--cap", "fs.read", "--json",
		"review the diff of my staged changes before I commit")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Compiled struct {
			Active, Rejected []struct {
				ID      string
				Because struct{ Rule string }
			}
			Tools       []struct{ Name string }
			Fingerprint string
			Ledger      struct{ Total int }
		}
		NotCandidates []struct {
			ID        string
			Candidate bool
			Because   struct{ Rule string }
		} `json:"not_candidates"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, d := range append(rep.Compiled.Active, rep.Compiled.Rejected...) {
		seen[d.ID]++
		if d.Because.Rule == "" {
			t.Errorf("%s has no rule", d.ID)
		}
	}
	for _, d := range rep.NotCandidates {
		seen[d.ID]++
		if d.Candidate || d.Because.Rule == "" {
			t.Errorf("not candidate %+v", d)
		}
	}
	// The file's 20 units and the completion loop's two built-in tools
	// (retrieve, recurse), which rlm compile shows as rlm ask would.
	if len(seen) != 22 || seen["retrieve"] != 1 || seen["recurse"] != 1 {
		t.Errorf("%d units accounted for, the catalog has 20 and the 2 built-ins: %v", len(seen), seen)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s reported %d times", id, n)
		}
	}
	var tools []string
	for _, tl := range rep.Compiled.Tools {
		tools = append(tools, tl.Name)
	}
	if !slices.Contains(tools, "git_diff") || slices.Contains(tools, "project_search") || rep.Compiled.Fingerprint == "" || rep.Compiled.Ledger.Total == 0 {
		t.Errorf("tools %v, fingerprint %q, ledger %+v", tools, rep.Compiled.Fingerprint, rep.Compiled.Ledger)
	}
	text, _, code := runCLI(t, "", "compile", "--catalog", exampleCatalog, "--mode", "all_tools", "--cap", "fs.read", "anything at all")
	if code != 0 || !strings.Contains(text, "--- tools (the tool channel) ---") || !strings.Contains(text, "sel_all_tools") {
		t.Errorf("all_tools text output (exit %d):\n%s", code, text)
	}
}

// TestCompileReportsCatalogErrorsAtTheirLine
func TestCompileReportsCatalogErrorsAtTheirLine(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("units:\n  - id: x\n    kind: gadget\n    body: b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCLI(t, "", "compile", "--catalog", bad, "anything")
	if code != 1 || !strings.Contains(errs, bad+":3: ") || !strings.Contains(errs, `unknown kind "gadget"`) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, errs, code := runCLI(t, "", "compile", "anything"); code != 2 || !strings.Contains(errs, "--catalog") {
		t.Fatalf("without --catalog: exit %d: %s", code, errs)
	}
	if _, errs, code := runCLI(t, "", "compile", "--catalog", exampleCatalog, "--budget", "5", "anything"); code != 1 || !strings.Contains(errs, "answer_style") {
		t.Fatalf("a budget under the mandatory units: exit %d: %s", code, errs)
	}
}

// TestReplCompilesAndExplainsOneUnit: :compile and :why in the REPL.
func TestReplCompilesAndExplainsOneUnit(t *testing.T) {
	in := ":compile review the diff of my staged changes\n:why project_search review the diff of my staged changes\n:why git_diff review the diff\n"
	out, errs, code := runCLI(t, in, "repl", "--catalog", exampleCatalog, "--cap", "git.read")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"active (render order):", "fingerprint: ", "project_search is out (not a candidate: the rules' verdict had it been one): cap_missing", "git_diff is in: sel_relevant"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	out, _, _ = runCLI(t, ":compile anything\n", "repl")
	if !strings.Contains(out, "--catalog FILE") {
		t.Errorf("without --catalog: %s", out)
	}
}

// TestTestRulesAcceptsAPromptHookExtension: `rlm test-rules DIR` runs the
// tests of DIR/prompt/ and counts a hook clause's rule ID as used, so a
// harness author's prompt extension passes the registry check.
func TestTestRulesAcceptsAPromptHookExtension(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "prompt"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"mine.pl": ":- multifile(rule_id/2).\n:- multifile(extra_select/4).\n" +
			"rule_id(my_pinned, \"the pinned skill is always shown\").\n" +
			"extra_select(my_pinned, _, U, []) :- unit_prop(id(\"pinned_skill\"), U).\n",
		"mine_test.pl": "test(the_pinned_skill_is_selected) :-\n    unit_from_list([id(\"pinned_skill\"), kind(skill)], U),\n    input_from_list([], In),\n" +
			"    want_rule(In, U, because(R, _)),\n    R == my_pinned.\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, "prompt", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errs, code := runCLI(t, "", "test-rules", "-v", dir)
	if code != 0 || !strings.Contains(out, "test the_pinned_skill_is_selected: ok") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
}

// evilCatalog holds terminal control sequences in every text a catalog may
// carry them in: a skill's body (rendered into the prompt) and a tool's
// description (sent with its schema).
const evilCatalog = `units:
  - id: evil_skill
    kind: skill
    activation: always
    body: "clear\e[2J clip\e]52;c;cm0gLXJmIH4K\a csi\u009b31m del\x7f end"
  - id: evil_tool
    kind: mcp_tool
    activation: always
    description: "desc\e[2J\u009b31m\a"
    schema: {type: object}
`

// noControl fails t if s holds a control character other than a line
// break or a tab, or bytes that are not UTF-8.
func noControl(t *testing.T, what, s string) {
	t.Helper()
	if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) {
		t.Errorf("%s holds a control character or invalid UTF-8:\n%q", what, s)
	}
}

// TestCompileNeverPrintsControlSequences: what a catalog holds reaches the
// terminal without its control characters, in the text output, the JSON
// output, the REPL and the error messages of rlm compile.
func TestCompileNeverPrintsControlSequences(t *testing.T) {
	dir := t.TempDir()
	evil := filepath.Join(dir, "evil.yaml")
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(evil, []byte(evilCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte("units:\n  - id: x\n    kind: \"\\e[2J\\u009b\"\n    body: b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, "", "compile", "--catalog", evil, "anything")
	if code != 0 || !strings.Contains(out, "clear\uFFFD[2J clip\uFFFD]52;c;cm0gLXJmIH4K\uFFFD csi\uFFFD31m del\uFFFD end") {
		t.Errorf("text output (exit %d, %s):\n%s", code, errs, out)
	}
	noControl(t, "compile", out+errs)
	out, errs, code = runCLI(t, "", "compile", "--json", "--catalog", evil, "anything")
	if code != 0 || !strings.Contains(out, `del\u007f end`) || !json.Valid([]byte(out)) {
		t.Errorf("JSON output (exit %d, %s):\n%s", code, errs, out)
	}
	noControl(t, "compile --json", out+errs)
	out, errs, _ = runCLI(t, "", "compile", "--catalog", broken, "anything")
	if !strings.Contains(errs, "unknown kind") {
		t.Errorf("no catalog error: %s%s", out, errs)
	}
	noControl(t, "compile error", out+errs)
	out, errs, _ = runCLI(t, ":compile anything\n:why evil_skill anything\n", "repl", "--catalog", evil)
	if !strings.Contains(out, "evil_skill") {
		t.Errorf("repl: %s%s", out, errs)
	}
	noControl(t, "repl", strings.ReplaceAll(out+errs, "\r", ""))
}

// TestReplCompileWithoutAQueryPrintsItsUsage: ":compile" and ":why" with
// nothing to compile print how to use them, and compile nothing.
func TestReplCompileWithoutAQueryPrintsItsUsage(t *testing.T) {
	out, errs, code := runCLI(t, ":compile\n:compile   \n:why\n:why git_diff\n", "repl", "--catalog", exampleCatalog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(out, "usage: :compile QUERY"); n != 2 {
		t.Errorf("%d usage lines for :compile, want 2:\n%s", n, out)
	}
	if n := strings.Count(out, "usage: :why UNIT QUERY"); n != 2 {
		t.Errorf("%d usage lines for :why, want 2:\n%s", n, out)
	}
	if strings.Contains(out, "error") || strings.Contains(out, "fingerprint:") {
		t.Errorf("compiled or failed instead of printing the usage:\n%s", out)
	}
}

// TestCompileOfALargeCatalogExplainsABoundedNumberOfNotCandidates: each
// verdict of a unit that is not a candidate costs a compile, so rlm
// compile explains at most maxExplained of them and lists the others by
// id; every unit is still accounted for exactly once.
func TestCompileOfALargeCatalogExplainsABoundedNumberOfNotCandidates(t *testing.T) {
	const n = maxExplained + 30
	var b strings.Builder
	b.WriteString("units:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - id: u%d\n    kind: instruction\n    description: unit about thing%d\n    body: body %d\n", i, i, i)
	}
	path := filepath.Join(t.TempDir(), "large.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, "", "compile", "--catalog", path, "--json", "nothing in this catalog matches qwertyuiop")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Compiled struct {
			Active, Rejected []struct{ ID string }
		}
		NotCandidates []struct{ ID string } `json:"not_candidates"`
		NotExplained  []string              `json:"not_explained"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, d := range append(append(rep.Compiled.Active, rep.Compiled.Rejected...), rep.NotCandidates...) {
		seen[d.ID]++
	}
	for _, id := range rep.NotExplained {
		seen[id]++
	}
	for i := range n {
		if id := fmt.Sprintf("u%d", i); seen[id] != 1 {
			t.Errorf("%s accounted for %d times", id, seen[id])
		}
	}
	if len(rep.NotCandidates) != maxExplained || len(rep.NotExplained) == 0 {
		t.Errorf("%d not candidates explained, %d listed: want %d explained and the rest listed", len(rep.NotCandidates), len(rep.NotExplained), maxExplained)
	}
	text, _, _ := runCLI(t, "", "compile", "--catalog", path, "nothing in this catalog matches qwertyuiop")
	if want := fmt.Sprintf("and %d more not candidates, not explained", len(rep.NotExplained)); !strings.Contains(text, want) {
		t.Errorf("text output lacks %q:\n%s", want, text)
	}
}
