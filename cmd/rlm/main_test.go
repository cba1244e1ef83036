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
	for _, want := range []string{"ev_symbol_not_found", "fb_case_insensitive", "ev_target_resolved", "fb_retarget_relation", "sub/client.go:6 Fetch", `note: no symbol "servehttp"; answered for "ServeHTTP" instead (ev_target_resolved)`} {
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

func TestConceptualQueryUsesHybridWithEmbedderAndBM25Without(t *testing.T) {
	for _, c := range []struct{ embedder, strategy string }{{"local", "hybrid"}, {"none", "lexical"}} {
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
	url := os.Getenv("RLM_CHROMA_URL")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("RLM_CHROMA_URL is not set in CI: the Chroma server did not start")
		}
		t.Skip("RLM_CHROMA_URL not set; run scripts/test.sh to start a Chroma server")
	}
	out, errs, code := runCLI(t, "", "search", "--root", sample, "--json", "--backend", "chroma", "--chroma-url", url, "parse multipart form boundary")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var a jsonAnswer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if a.Class != "conceptual" || len(a.Hits) == 0 || a.Hits[0].Strategy != "hybrid" {
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
