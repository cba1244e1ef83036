package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestStatusShowsARecordedEmbedderFailure: the record a failing embedder
// leaves beside the knowledge base (project.VectorFailure, in
// vectors-unavailable.json) is shown by status, in text and JSON.
func TestStatusShowsARecordedEmbedderFailure(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{"ok.go": "package p\n\nfunc Fine() {}\n"})
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	if _, errs, code := runCLI(t, "", "index", "--root", root, "--db", db, "--embedder", "none"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	rec := `{"generation":1,"fingerprint":7,"embedder":"m-16-0000000000000000","at":"2026-01-02T03:04:05Z","note":"the embedder m failed (http 401)","reason":"http 401"}`
	if err := os.WriteFile(filepath.Join(filepath.Dir(db), "vectors-unavailable.json"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, "", "status", "--root", root, "--db", db)
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, errs)
	}
	if want := "no vectors: the embedder m failed (http 401) for generation 1 at 2026-01-02 03:04:05 (http 401)"; !strings.Contains(out, want) {
		t.Errorf("status lacks %q:\n%s", want, out)
	}
	out, _, _ = runCLI(t, "", "status", "--root", root, "--db", db, "--json")
	var st struct {
		Vectors *struct {
			Reason   string `json:"reason"`
			Embedder string `json:"embedder"`
		} `json:"vectors_unavailable"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Vectors == nil || st.Vectors.Reason != "http 401" || st.Vectors.Embedder != "m-16-0000000000000000" {
		t.Errorf("status --json: %v, %+v:\n%s", err, st.Vectors, out)
	}
}
