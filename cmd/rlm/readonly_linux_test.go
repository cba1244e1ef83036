//go:build linux

package main

import (
	"os"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/nonroot"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestReadOnlyKnowledgeBaseAnswersFromItsLastGeneration: with kb.sqlite
// read-only (mode 0444, its directory writable, as a user file modes apply
// to), status and search still answer from the last generation, name the
// file whose bytes changed since as not current, and never fail with
// "attempt to write a readonly database"; --require-current refuses, naming
// it.
func TestReadOnlyKnowledgeBaseAnswersFromItsLastGeneration(t *testing.T) {
	nonroot.Run(t, func(t *testing.T) {
		root, db := indexedTree(t, map[string]string{
			"alpha.go": "package p\n\n// Alpha is here.\nfunc Alpha() {}\n",
			"beta.go":  "package p\n\n// Beta is here.\nfunc Beta() {}\n",
		})
		if err := os.Chmod(db, 0o444); err != nil {
			t.Fatal(err)
		}
		testfixture.WriteFiles(t, root, map[string]string{
			"beta.go":  "package p\n\n// Gamma replaced Beta.\nfunc Gamma() {}\n",
			"delta.go": "package p\n\n// Delta is new.\nfunc Delta() {}\n",
		})
		expectOutputs(t, []cliRun{
			{"status", []string{"status", "--root", root, "--db", db}, []string{
				"read-only: " + db + " cannot be written; answers come from generation 1\n",
				"  stale    beta.go the knowledge base is read-only: changed since its last generation\n",
				"  stale    delta.go the knowledge base is read-only: new since its last generation\n"}},
			{"search", []string{"search", "--root", root, "--db", db, "--embedder", "none", "where is Alpha defined?"}, []string{"alpha.go:4",
				"note: the knowledge base is read-only: 2 files not current (beta.go: changed since its last generation, delta.go: new since its last generation); see rlm status\n"}},
		})
		out, errs, code := runCLI(t, "", "search", "--root", root, "--db", db, "--embedder", "none", "--require-current", "where is Alpha defined?")
		if code == 0 || !strings.Contains(errs, "beta.go") || strings.Contains(errs, "readonly database") {
			t.Errorf("search --require-current: exit %d, want a refusal naming beta.go: %s%s", code, out, errs)
		}
	})
}
