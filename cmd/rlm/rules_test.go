package main

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/rules"
)

// TestRulesDumpWritesDefaultsThatPassTheirTests: `rlm rules dump DIR`
// writes every default rule file, in folders, and `rlm test-rules DIR` over
// that copy passes as many tests as the defaults alone.
func TestRulesDumpWritesDefaultsThatPassTheirTests(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rules")
	if _, errs, code := runCLI(t, "", "rules", "dump", dir); code != 0 {
		t.Fatalf("dump: exit %d: %s", code, errs)
	}
	var files []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, _ error) error {
		if strings.HasSuffix(p, ".pl") {
			files = append(files, p)
		}
		return nil
	})
	var want int
	fs.WalkDir(rules.FS, ".", func(p string, d fs.DirEntry, _ error) error {
		if strings.HasSuffix(p, ".pl") {
			want++
		}
		return nil
	})
	if len(files) != want || want < 9 {
		t.Fatalf("dump wrote %d .pl files, the defaults have %d: %v", len(files), want, files)
	}
	defaults, _, code := runCLI(t, "", "test-rules")
	if code != 0 {
		t.Fatalf("default rule tests fail:\n%s", defaults)
	}
	copied, _, code := runCLI(t, "", "test-rules", dir)
	if code != 0 {
		t.Fatalf("rule tests over the dumped copy fail:\n%s", copied)
	}
	if lastLine(defaults) != lastLine(copied) {
		t.Fatalf("defaults: %q, dumped copy: %q", lastLine(defaults), lastLine(copied))
	}
	if _, errs, code := runCLI(t, "", "rules", "dump", dir); code == 0 || !strings.Contains(errs, "exists") {
		t.Fatalf("a second dump into the same directory must refuse to overwrite: exit %d %s", code, errs)
	}
}

func lastLine(s string) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return ls[len(ls)-1]
}

// TestRulesIDsListsTheRegistry: every rule ID the answer to a query names
// is listed, with a meaning, by `rlm rules ids`.
func TestRulesIDsListsTheRegistry(t *testing.T) {
	out, errs, code := runCLI(t, "", "rules", "ids", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var ids []struct{ ID, Meaning string }
	if err := json.Unmarshal([]byte(out), &ids); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, r := range ids {
		if r.Meaning == "" {
			t.Errorf("%s has no meaning", r.ID)
		}
		known[r.ID] = true
	}
	ans, errOut, code := runCLI(t, "", "search", "--root", sample, "--json", "what calls servehttp")
	if code != 0 {
		t.Fatalf("search exited %d: %s", code, errOut)
	}
	var a jsonAnswer
	if err := json.Unmarshal([]byte(ans), &a); err != nil {
		t.Fatal(err)
	}
	for _, b := range a.Explain {
		if id, _ := b["rule"].(string); !known[id] {
			t.Errorf("rule %q in an answer is not in rlm rules ids", id)
		}
	}
}

// TestExplainPlansWhatSearchRuns: with the same embedder flags, `rlm
// explain` shows the steps `rlm search` runs (a description is answered by
// BM25 first with the default local embedder, which is lexical, and
// without one; by hybrid search with a learned one, --embedder openai,
// explained only: searching would call the endpoint).
func TestExplainPlansWhatSearchRuns(t *testing.T) {
	q := "parse multipart form boundaries"
	out, errs, code := runCLI(t, "", "explain", "--json", "--embedder", "openai", q)
	if code != 0 {
		t.Fatalf("explain: exit %d: %s", code, errs)
	}
	var learned struct {
		Steps []struct{ Strategy string } `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &learned); err != nil {
		t.Fatal(err)
	}
	if len(learned.Steps) == 0 || learned.Steps[0].Strategy != "hybrid" {
		t.Errorf("--embedder openai: explain plans %+v, want hybrid first", learned.Steps)
	}
	for _, emb := range []string{"local", "none"} {
		out, errs, code := runCLI(t, "", "explain", "--json", "--embedder", emb, q)
		if code != 0 {
			t.Fatalf("explain: exit %d: %s", code, errs)
		}
		var e struct {
			Steps []struct{ Strategy string } `json:"steps"`
		}
		if err := json.Unmarshal([]byte(out), &e); err != nil {
			t.Fatal(err)
		}
		out, errs, code = runCLI(t, "", "search", "--root", sample, "--json", "--embedder", emb, q)
		if code != 0 {
			t.Fatalf("search: exit %d: %s", code, errs)
		}
		var a jsonAnswer
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatal(err)
		}
		if len(e.Steps) == 0 || len(a.Plan) == 0 || e.Steps[0].Strategy != a.Plan[0]["strategy"] {
			t.Fatalf("--embedder %s: explain plans %+v, search ran %+v", emb, e.Steps, a.Plan)
		}
		want := map[string]string{"local": "lexical", "none": "lexical"}[emb]
		if e.Steps[0].Strategy != want {
			t.Errorf("--embedder %s: first step %s, want %s", emb, e.Steps[0].Strategy, want)
		}
	}
}

// TestCLIImportsOnlyTheFacade: the CLI reaches rlm through the root
// package (and internal helpers, the MCP server of `rlm mcp` and the
// measuring stick of `rlm eval`), never through the packages behind it.
func TestCLIImportsOnlyTheFacade(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Go files of the CLI found: %v", err)
	}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			path, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(path, "github.com/rlm-dev/rlm/") && !strings.HasPrefix(path, "github.com/rlm-dev/rlm/internal/") &&
				path != "github.com/rlm-dev/rlm/mcp" && path != "github.com/rlm-dev/rlm/eval" {
				t.Errorf("%s imports %s; the CLI may import only github.com/rlm-dev/rlm, its internal packages, github.com/rlm-dev/rlm/mcp and github.com/rlm-dev/rlm/eval (both on top of the façade)", p, path)
			}
		}
	}
}

// TestExtensionDirectoryAddsAClassWithRulesFlag: the 25-line extension in
// examples/interfaces/rules passes its own tests with `rlm test-rules` and
// adds a query class to search and explain with --rules.
func TestExtensionDirectoryAddsAClassWithRulesFlag(t *testing.T) {
	const ext = "../../examples/interfaces/rules"
	out, errs, code := runCLI(t, "", "test-rules", "-v", ext)
	if code != 0 || !strings.Contains(out, "test interface_question_gets_its_own_class: ok") {
		t.Fatalf("test-rules %s: exit %d\n%s%s", ext, code, out, errs)
	}
	q := "which interfaces write output?"
	out, errs, code = runCLI(t, "", "explain", "--rules", ext, q)
	if code != 0 || !strings.Contains(out, "class: interface_listing") || !strings.Contains(out, "kind=interface") {
		t.Fatalf("explain --rules: exit %d\n%s%s", code, out, errs)
	}
	out, errs, code = runCLI(t, "", "search", "--root", sample, "--json", "--rules", ext, q)
	if code != 0 {
		t.Fatalf("search --rules: exit %d: %s", code, errs)
	}
	var a jsonAnswer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if a.Class != "interface_listing" || len(a.Hits) == 0 {
		t.Fatalf("class %s, hits %+v", a.Class, a.Hits)
	}
	for _, h := range a.Hits {
		if h.Kind != "interface" {
			t.Errorf("hit %s is a %s", h.Symbol, h.Kind)
		}
	}
}
