package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sample = "../../testdata/gosample"

func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
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
	for _, want := range []string{"ev_symbol_not_found", "fb_case_insensitive", "ev_target_resolved", "fb_retarget_relation", "sub/client.go:6 Fetch"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
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
	for _, want := range []string{"class: relationship", "└─ cls_relation", "1. exact(\"ServeHTTP\") [check]", "2. graph(callers, \"ServeHTTP\") [evidence]", "if symbol_not_found(\"ServeHTTP\")", "fb_case_insensitive"} {
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
