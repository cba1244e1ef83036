package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (slash paths → contents) under a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, text := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestEveryModeIndexesTheSameFiles: the persistent knowledge base and
// --in-memory walk the tree with one skip policy: build output, virtual
// environments, caches and .gitignore'd files are left out in both, and
// --include-ignored brings back only what .gitignore excluded.
func TestEveryModeIndexesTheSameFiles(t *testing.T) {
	root := writeTree(t, map[string]string{
		"Cargo.toml":                    "[package]\n",
		"target/debug/gen.rs":           "fn built() {}\n",
		"venv/pyvenv.cfg":               "home = /usr\n",
		"venv/lib/x/site-packages/y.py": "def built(): pass\n",
		"__pycache__/c.py":              "def built(): pass\n",
		"src/lib.rs":                    "pub fn lib() {}\n",
		".gitignore":                    "generated/\n",
		"generated/out.rs":              "fn built() {}\n",
	})
	files := func(args ...string) float64 {
		t.Helper()
		out, errs, code := runCLI(t, "", append([]string{"index", "--root", root, "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("index %v: exit %d: %s", args, code, errs)
		}
		var s map[string]any
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		return s["files"].(float64)
	}
	persistent, inMemory := files(), files("--in-memory")
	if persistent != 1 || inMemory != 1 {
		t.Fatalf("files indexed: persistent %v, in memory %v; want 1 (src/lib.rs) in both", persistent, inMemory)
	}
	if n := files("--in-memory", "--include-ignored"); n != 2 {
		t.Fatalf("--include-ignored: %v files, want 2 (src/lib.rs, generated/out.rs)", n)
	}
	out, _, _ := runCLI(t, "", "search", "--root", root, "--embedder", "none", "built")
	if strings.Contains(out, "gen.rs") || strings.Contains(out, "site-packages") || strings.Contains(out, "out.rs") {
		t.Fatalf("search found a skipped file:\n%s", out)
	}
}
