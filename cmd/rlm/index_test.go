package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestEveryModeIndexesTheSameFiles: the persistent knowledge base and
// --in-memory walk the tree with one skip policy: build output, virtual
// environments, caches and .gitignore'd files are left out in both, and
// --include-ignored brings back only what .gitignore excluded.
func TestEveryModeIndexesTheSameFiles(t *testing.T) {
	root := testfixture.WriteTree(t, map[string]string{
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
	out, errOut, code := runCLI(t, "", "search", "--root", root, "--embedder", "none", "built")
	if code != 0 {
		t.Fatalf("search exited %d: %s", code, errOut)
	}
	if strings.Contains(out, "gen.rs") || strings.Contains(out, "site-packages") || strings.Contains(out, "out.rs") {
		t.Fatalf("search found a skipped file:\n%s", out)
	}
}

// TestStatusCreatesNoKnowledgeBase: status reports on an existing
// knowledge base; on a tree that has none it says so and writes nothing.
func TestStatusCreatesNoKnowledgeBase(t *testing.T) {
	root := testfixture.WriteTree(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	_, errs, code := runCLI(t, "", "status", "--root", root, "--db", db)
	if code != 1 || !strings.Contains(errs, "no knowledge base") {
		t.Fatalf("status without a knowledge base: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("status created %s (%v)", db, err)
	}
	if _, errs, code := runCLI(t, "", "index", "--root", root, "--db", db, "--embedder", "none"); code != 0 {
		t.Fatalf("index: %s", errs)
	}
	out, errs, code := runCLI(t, "", "status", "--root", root, "--db", db)
	if code != 0 || !strings.Contains(out, "every file is current") {
		t.Fatalf("status after index: exit %d: %s%s", code, out, errs)
	}
}

// TestSearchWithADeadEmbedderSaysWhatItSkipped: with an embedder endpoint
// that refuses connections, rlm search still answers (exit 0) and prints
// the vector step it skipped and why, without the endpoint or the key;
// stderr warns that the index has no vectors.
func TestSearchWithADeadEmbedderSaysWhatItSkipped(t *testing.T) {
	const key = "sk-dead-embedder-key"
	t.Setenv("RLM_TEST_DEAD_KEY", key)
	dead := []string{"--in-memory", "--embedder", "openai", "--embed-url", "http://127.0.0.1:1/v1", "--embed-key-env", "RLM_TEST_DEAD_KEY", "--embed-dims", "8"}
	for _, c := range []struct{ query, want string }{
		{"how are multipart requests parsed", `note: skipped hybrid("how are multipart requests parsed request parse", demote=test, demote=example, spare=doc-start, weigh=doc): the embedder text-embedding-3-small failed (transport)`},
		{"where is ServeHTTP defined?", "server.go:12 Server.ServeHTTP"},
	} {
		var out, errb bytes.Buffer
		code := run(t.Context(), append(append([]string{"search", "--root", sample}, dead...), c.query), strings.NewReader(""), &out, &errb)
		if code != 0 || !strings.Contains(out.String(), c.want) || strings.Contains(out.String()+errb.String(), key) || strings.Contains(out.String(), "127.0.0.1") ||
			!strings.Contains(errb.String(), "warning: the search index has no vectors, the embedder text-embedding-3-small failed (transport)") {
			t.Errorf("%q: exit %d, want %q in\n%s%s", c.query, code, c.want, out.String(), errb.String())
		}
	}
}

// TestIndexSaysWhereTheKnowledgeBaseWent: `rlm index` names the knowledge
// base file it wrote (text and JSON); in memory there is none to name.
func TestIndexSaysWhereTheKnowledgeBaseWent(t *testing.T) {
	root := testfixture.WriteTree(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	out, errs, code := runCLI(t, "", "index", "--root", root, "--db", db, "--json")
	var s map[string]any
	if err := json.Unmarshal([]byte(out), &s); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s%s", code, err, out, errs)
	}
	kb, _ := s["knowledge_base"].(string)
	if fi, err := os.Stat(kb); err != nil || !fi.Mode().IsRegular() || kb != db {
		t.Fatalf("JSON knowledge_base %q is not the knowledge base file: %v", kb, err)
	}
	if out, _, _ = runCLI(t, "", "index", "--root", root, "--db", db); !strings.Contains(out, "knowledge base: "+kb+"\n") {
		t.Errorf("the output does not name %s:\n%s", kb, out)
	}
	if out, _, _ = runCLI(t, "", "index", "--root", root, "--in-memory"); strings.Contains(out, "knowledge base:") {
		t.Errorf("in memory, the output names a knowledge base:\n%s", out)
	}
}

// TestIndexCPUProfileWritesAProfileOfTheRun: index -cpuprofile FILE leaves
// a CPU profile in pprof's format (gzip-compressed protobuf) once the run
// ends; a profile that cannot be created fails the command before it
// indexes anything.
func TestIndexCPUProfileWritesAProfileOfTheRun(t *testing.T) {
	root := testfixture.WriteTree(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	if _, errs, code := runCLI(t, "", "index", "--root", root, "--in-memory", "--embedder", "none", "--cpuprofile", prof); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("the profile is not gzip (pprof's format): %d bytes % x", len(b), b[:min(len(b), 8)])
	}
	bad := filepath.Join(t.TempDir(), "missing", "cpu.prof")
	_, errs, code := runCLI(t, "", "index", "--root", root, "--in-memory", "--embedder", "none", "--cpuprofile", bad)
	if code == 0 || !strings.Contains(errs, "cpu profile") {
		t.Fatalf("an uncreatable profile: exit %d, stderr %q; want a failure naming the cpu profile", code, errs)
	}
}
