package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/testfixture"
)

const sample = "../../testdata/gosample"

func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	// Keep the knowledge base out of the repository's testdata.
	if len(args) > 0 && (args[0] == "search" || args[0] == "index" || args[0] == "repl" || args[0] == "status") && !contains(args, "--db") && !contains(args, "--in-memory") {
		args = append([]string{args[0], "--db", filepath.Join(t.TempDir(), "kb.sqlite")}, args[1:]...)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

type jsonHit struct {
	Path      string  `json:"path"`
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Symbol    string  `json:"symbol"`
	Kind      string  `json:"kind"`
	Score     float64 `json:"score"`
	ScoreKind string  `json:"score_kind"`
	Strategy  string  `json:"strategy"`
}

type jsonAnswer struct {
	Query   string           `json:"query"`
	Class   string           `json:"class"`
	Plan    []map[string]any `json:"plan"`
	Hits    []jsonHit        `json:"hits"`
	Explain []map[string]any `json:"explain"`
	Error   string           `json:"error"`
}

func TestSearchJSONContract(t *testing.T) {
	out, errs, code := runCLI(t, "", "search", "--root", sample, "--json", "what calls ServeHTTP?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var a jsonAnswer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	want := []jsonHit{{Path: "sub/client.go", StartLine: 6, EndLine: 8, Symbol: "Fetch", Kind: "function", Score: 1, ScoreKind: "count", Strategy: "graph"}}
	if d := cmp.Diff(want, a.Hits); d != "" {
		t.Errorf("hits (-want +got):\n%s", d)
	}
	if a.Class != "relationship" || len(a.Plan) != 2 || len(a.Explain) == 0 || a.Query != "what calls ServeHTTP?" {
		t.Errorf("answer: %+v", a)
	}
}

func TestSearchHumanOutputAndExplain(t *testing.T) {
	out, _, code := runCLI(t, "", "search", "--root", sample, "--explain", "where is Server defined?")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{" 1. server.go:7 Server (struct) exact", "class: identifier", "cls_definition_cue", "st_exact_name", "ev_definition_found"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSearchGapFallbackIsExplained(t *testing.T) {
	out, _, code := runCLI(t, "", "search", "--root", sample, "--explain", "what calls servehttp")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	note := `note: no symbol "servehttp"; answered for "ServeHTTP" instead (ev_target_resolved)`
	for _, want := range []string{"ev_symbol_not_found", "fb_case_insensitive", "ev_target_resolved", "fb_retarget_relation", "sub/client.go:6 Fetch", note} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// An answer for another name says so before its first hit.
	if !strings.HasPrefix(out, note+"\n") {
		t.Errorf("the note on the other name is not the first line:\n%s", out)
	}
}

// TestAMisspelledNameIsAnsweredForTheNearestNameAndSaysSo: a name one
// edit from a definition's is answered for that definition, with the
// note first; a name near none is not answered for any other name (no
// BM25 neighbour stands in for a relationship question's target).
func TestAMisspelledNameIsAnsweredForTheNearestNameAndSaysSo(t *testing.T) {
	for _, tc := range []struct {
		query, note, hit string
	}{
		{"what calls ServeHTP", `note: no symbol "ServeHTP"; answered for "ServeHTTP" instead (ev_target_misspelled)`, "sub/client.go:6 Fetch"},
		{"where is Sevrer defined?", `note: no symbol "Sevrer"; answered for "Server" instead (ev_near_names_found)`, "server.go:7 Server (struct)"},
	} {
		out, _, code := runCLI(t, "", "search", "--root", sample, "--explain", tc.query)
		if code != 0 {
			t.Fatalf("%q: exit %d", tc.query, code)
		}
		if !strings.HasPrefix(out, tc.note+"\n") || !strings.Contains(out, tc.hit) || !strings.Contains(out, "fb_near_spelling") {
			t.Errorf("%q: want the note %q first, the hit %q and fb_near_spelling:\n%s", tc.query, tc.note, tc.hit, out)
		}
	}
	out, _, code := runCLI(t, "", "search", "--root", sample, "--explain", "what calls Frobnicator")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(out, "answered for") || !strings.Contains(out, "no hits") || !strings.Contains(out, `gap: symbol_not_found("Frobnicator")`) {
		t.Errorf("a name near none was answered for another, or without the gap:\n%s", out)
	}
}

func TestBatchOneJSONPerLine(t *testing.T) {
	in := "Retry\nwhat calls Fetch?\nhalt.\n" + strings.Repeat("x", 70000) + "\n"
	out, errs, code := runCLI(t, in, "search", "--root", sample, "--batch")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 4 lines, got %d:\n%s", len(lines), out)
	}
	var as []jsonAnswer
	for _, l := range lines {
		var a jsonAnswer
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("bad line %q: %v", l, err)
		}
		as = append(as, a)
	}
	if as[0].Hits[0].Symbol != "Retry" || as[1].Hits[0].Symbol != "Retry" || as[2].Class == "" {
		t.Errorf("answers: %+v", as[:3])
	}
	if !strings.Contains(as[3].Error, "query too large") {
		t.Errorf("oversized query: %+v", as[3])
	}
}

func TestExplainTree(t *testing.T) {
	out, _, code := runCLI(t, "", "explain", "what calls ServeHTTP?")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"class: relationship", "└─ cls_relation", "1. exact(\"ServeHTTP\") [check]", "2. graph(callers, \"ServeHTTP\", resolved) [evidence]", "if symbol_not_found(\"ServeHTTP\")", "fb_call_sites", "fb_case_insensitive", "if no_resolved_calls(\"ServeHTTP\")"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestTestRulesReportsBrokenTest(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.pl"), []byte("answer(42).\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mine_test.pl"), []byte("test(right) :- answer(42).\n\ntest(wrong) :-\n    answer(X),\n    X =:= 41.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "", "test-rules", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	want := "FAIL " + filepath.Join(dir, "mine_test.pl") + ":3: test wrong: goal failed: 42=:=41"
	if !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	if !strings.Contains(out, "1 failed") {
		t.Errorf("no failure count:\n%s", out)
	}
}

func TestTestRulesDefaultRulesPass(t *testing.T) {
	out, errs, code := runCLI(t, "", "test-rules", "../../rules")
	if code != 0 || !strings.Contains(out, " passed, 0 failed") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
}

func TestReplAnswersRuleQueries(t *testing.T) {
	in := "plan(\"what calls ServeHTTP?\", plan(C, _, _)).\n:explain Server\nhalt\n"
	out, errs, code := runCLI(t, in, "repl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"C = relationship", "class: identifier"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"bogus"}, {"search", "--root", sample}, {"search", "--root", "/nonexistent", "x"}, {"search", "--limit", "0", "--root", sample, "x"}} {
		_, _, code := runCLI(t, "", args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestConceptualQueryIsAnsweredByBM25WithTheLexicalLocalEmbedder: the
// local embedder is lexical, so its vectors do not rank a description:
// BM25 answers it, with the local embedder as without one.
func TestConceptualQueryIsAnsweredByBM25WithTheLexicalLocalEmbedder(t *testing.T) {
	for _, c := range []struct{ embedder, strategy string }{{"local", "lexical"}, {"none", "lexical"}} {
		out, errs, code := runCLI(t, "", "search", "--root", sample, "--json", "--embedder", c.embedder, "parse multipart form boundary")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var a jsonAnswer
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatal(err)
		}
		if a.Class != "conceptual" || len(a.Hits) == 0 || a.Hits[0].Symbol != "Fetch" || a.Hits[0].Strategy != c.strategy {
			t.Errorf("--embedder %s: class %s hits %+v", c.embedder, a.Class, a.Hits)
		}
	}
}

// TestChromaBackendEndToEnd runs a search whose vectors live in a real
// Chroma server (RLM_CHROMA_URL; scripts/test.sh starts one). Without a
// server it is skipped, except in CI where that is a failure.
func TestChromaBackendEndToEnd(t *testing.T) {
	url := testfixture.ChromaURL(t)
	// Misspelled words BM25 cannot match: the lexical local embedder's
	// character n-grams can, so the rules go on to hybrid search, whose
	// vectors are the server's.
	out, errs, code := runCLI(t, "", "search", "--root", sample, "--json", "--backend", "chroma", "--chroma-url", url, "multipat formm boundry parsr")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var a jsonAnswer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if a.Class != "conceptual" || len(a.Hits) == 0 || a.Hits[0].Symbol != "Fetch" || a.Hits[0].Strategy != "hybrid" {
		t.Fatalf("answer %+v", a)
	}
	// Exact and graph steps still work beside Chroma.
	out, _, code = runCLI(t, "", "search", "--root", sample, "--json", "--backend", "chroma", "--chroma-url", url, "what calls Fetch?")
	if code != 0 || !strings.Contains(out, `"symbol":"Retry"`) {
		t.Fatalf("exit %d: %s", code, out)
	}
}

func TestBackendFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"search", "--root", sample, "--backend", "nope", "x"},
		{"search", "--root", sample, "--embedder", "nope", "x"},
		{"search", "--root", sample, "--backend", "chroma", "--chroma-url", "", "x"},
		{"search", "--root", sample, "--backend", "chroma", "--chroma-url", "http://127.0.0.1:1", "--embedder", "none", "x"},
	} {
		_, errs, code := runCLI(t, "", args...)
		if code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errs)
		}
	}
	// A dead server is a clear runtime error, not a hang.
	_, errs, code := runCLI(t, "", "search", "--root", sample, "--backend", "chroma", "--chroma-url", "http://127.0.0.1:1", "x")
	if code != 1 || !strings.Contains(errs, "chroma") {
		t.Errorf("dead server: exit %d: %s", code, errs)
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestSearchReusesTheStoreAndSeesEdits: the second command reuses the
// snapshot and its search index; an external edit (no watcher running) is
// seen by the next command as a new generation; --require-current refuses
// a tree with a broken file; status names it.
func TestSearchReusesTheStoreAndSeesEdits(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"server.go", "sub/client.go"} {
		b, err := os.ReadFile(filepath.Join(sample, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	index := func() map[string]any {
		t.Helper()
		out, errs, code := runCLI(t, "", "index", "--root", root, "--db", db, "--json")
		if code != 0 {
			t.Fatalf("index: exit %d: %s", code, errs)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	first := index()
	second := index()
	if first["generation"] != 1.0 || second["generation"] != 1.0 || first["search_index_reused"] != false || second["search_index_reused"] != true {
		t.Fatalf("first %v second %v", first, second)
	}
	if err := os.WriteFile(filepath.Join(root, "extra.go"), []byte("package sample\n\n// Freshly added.\nfunc Fresh() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, "", "search", "--root", root, "--db", db, "--json", "Fresh")
	if code != 0 || !strings.Contains(out, `"symbol":"Fresh"`) {
		t.Fatalf("edit not seen: exit %d %s %s", code, out, errs)
	}
	if m := index(); m["generation"] != 2.0 {
		t.Fatalf("want generation 2 after the edit, got %v", m["generation"])
	}
	if err := os.WriteFile(filepath.Join(root, "broken.go"), []byte("package sample\nfunc broken( {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runCLI(t, "", "search", "--root", root, "--db", db, "--require-current", "Fresh")
	if code != 1 || !strings.Contains(errs, "broken.go (partial)") {
		t.Fatalf("require-current: exit %d: %s", code, errs)
	}
	out, _, code = runCLI(t, "", "status", "--root", root, "--db", db)
	if code != 0 || !strings.Contains(out, "partial  broken.go") {
		t.Fatalf("status: exit %d:\n%s", code, out)
	}
}

// TestQueryTextIsNeverAFlag: after "--", or after the first word of the
// query, nothing is read as a flag.
func TestQueryTextIsNeverAFlag(t *testing.T) {
	for _, q := range []string{"-9223372036854775809", "--rules=/etc", "-h", "--batch"} {
		out, errs, code := runCLI(t, "", "search", "--root", sample, "--json", "--", q)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", q, code, errs)
		}
		var a jsonAnswer
		if err := json.Unmarshal([]byte(out), &a); err != nil || a.Query != q {
			t.Fatalf("%q: %v %+v", q, err, a)
		}
	}
	out, errs, code := runCLI(t, "", "search", "--root", sample, "--json", "what", "--rules=/etc", "--batch")
	if code != 0 || !strings.Contains(out, `"query":"what --rules=/etc --batch"`) {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
}

func TestBatchSurvivesLinesOverTheLimit(t *testing.T) {
	in := "Retry\n" + strings.Repeat("y", 3<<20) + "\nFetch\r\n"
	out, errs, code := runCLI(t, in, "search", "--root", sample, "--batch")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "query too large") || !strings.Contains(lines[2], `"query":"Fetch"`) {
		t.Fatalf("lines: %d\n%.500s", len(lines), out)
	}
}

func TestJSONErrorsGoToStdout(t *testing.T) {
	out, _, code := runCLI(t, "", "search", "--root", sample, "--json", strings.Repeat("x", 70000))
	if code != 1 || !strings.Contains(out, `"error"`) {
		t.Fatalf("exit %d, stdout %.200s", code, out)
	}
}

// TestAFlagAfterTheQueryIsQueryTextAndSaysSo: flags end at the query, so
// "Server --limit 3" searches that text; stderr notes the flag it read as
// text. After "--" (the query meant as written) there is no note.
func TestAFlagAfterTheQueryIsQueryTextAndSaysSo(t *testing.T) {
	_, errs, code := runCLI(t, "", "search", "--root", sample, "Server", "--limit", "3")
	if code != 0 || !strings.Contains(errs, `rlm search: note: "--limit" after the query is read as query text`) {
		t.Errorf("exit %d, stderr %q: want the note on --limit", code, errs)
	}
	_, errs, code = runCLI(t, "", "search", "--root", sample, "--", "--limit")
	if code != 0 || strings.Contains(errs, "note:") {
		t.Errorf("after --: exit %d, stderr %q: want no note", code, errs)
	}
}

// TestWhatIfTakesAFileOfTheTreeHoweverItIsWritten: --whatif server.go,
// ./server.go and the file's absolute path name the same file of the
// knowledge base (the conclusion resting on it would go OUT each time);
// a path outside the tree is a usage error, never a new file.
func TestWhatIfTakesAFileOfTheTreeHoweverItIsWritten(t *testing.T) {
	root := testfixture.CopyTree(t, sample)
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	if _, errs, code := runCLI(t, "", "search", "--root", root, "--db", db, "--memory", "where is Server defined?"); code != 0 {
		t.Fatalf("search: exit %d: %s", code, errs)
	}
	for _, w := range []string{"server.go", "./server.go", filepath.Join(root, "server.go")} {
		out, errs, code := runCLI(t, "", "explain", "--root", root, "--db", db, "--whatif", w)
		if code != 0 || !strings.Contains(out, "if server.go changed, 1 conclusion(s) would go OUT") || !strings.Contains(out, "tms_source_changed") {
			t.Errorf("--whatif %s: exit %d\n%s%s", w, code, out, errs)
		}
	}
	for _, w := range []string{"/etc/passwd", "../../etc/passwd"} {
		_, errs, code := runCLI(t, "", "explain", "--root", root, "--db", db, "--whatif", w)
		if code != 2 || !strings.Contains(errs, "is not a file under --root") {
			t.Errorf("--whatif %s: exit %d, stderr %q: want a usage error", w, code, errs)
		}
	}
}

// TestEveryFlagTheUsageNamesExists: each --flag the top-level usage
// names for a command is a flag that command's own -h lists, so that the
// summary a new user reads first promises nothing the command refuses.
func TestEveryFlagTheUsageNamesExists(t *testing.T) {
	flagRe := regexp.MustCompile(`--([a-z][a-z0-9-]*)`)
	var cmd []string
	checked := 0
	for _, line := range strings.Split(usage, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "rlm":
			cmd = []string{f[1]}
			if f[1] == "route" && len(f) > 2 && f[2] == "eval" {
				cmd = []string{"route", "eval"}
			}
			if f[1] == "rules" || f[1] == "test-rules" {
				cmd = nil // flag-less or sub-commands of their own
			}
		case len(f) == 0 || !strings.HasPrefix(f[0], "["):
			if len(f) == 0 || f[0] != "--cap" && !strings.HasPrefix(f[0], "[") {
				continue
			}
		}
		if cmd == nil {
			continue
		}
		out, errs, _ := runCLI(t, "", append(append([]string{}, cmd...), "-h")...)
		help := out + errs
		for _, m := range flagRe.FindAllStringSubmatch(line, -1) {
			checked++
			if !strings.Contains(help, "  -"+m[1]+" ") && !strings.Contains(help, "  -"+m[1]+"\n") {
				t.Errorf("usage names --%s for rlm %s, which its -h does not list", m[1], strings.Join(cmd, " "))
			}
		}
	}
	if checked < 40 {
		t.Fatalf("only %d flags checked: the usage was not read", checked)
	}
}
