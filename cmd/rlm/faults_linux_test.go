//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/nonroot"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestUnreadableDirectoryIsReportedAndTheRestIsIndexedInEveryMode: a
// directory that becomes unreadable (chmod 000, as a user file modes apply
// to) fails none of index, search, search --in-memory and status; each
// names it with its cause, the rest of the tree is answered from, and the
// file indexed under it before is reported as not current rather than
// dropped.
func TestUnreadableDirectoryIsReportedAndTheRestIsIndexedInEveryMode(t *testing.T) {
	nonroot.Run(t, func(t *testing.T) {
		root, db := indexedTree(t, map[string]string{
			"alpha.go":         "package p\n\n// Alpha is here.\nfunc Alpha() {}\n",
			"locked/secret.go": "package locked\n\n// Secret is locked away.\nfunc Secret() {}\n",
		})
		locked := filepath.Join(root, "locked")
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(locked, 0o755) })
		const fault = "unreadable locked open: permission denied\n"
		expectOutputs(t, []cliRun{
			{"index", []string{"index", "--root", root, "--db", db, "--embedder", "none"}, []string{fault}},
			{"status", []string{"status", "--root", root, "--db", db}, []string{fault, "error    locked/secret.go read: ", "permission denied\n"}},
			{"search", []string{"search", "--root", root, "--db", db, "--embedder", "none", "where is Alpha defined?"},
				[]string{"alpha.go:4", "note: 1 path could not be read: locked (open: permission denied); see rlm status\n"}},
			{"search --in-memory", []string{"search", "--root", root, "--in-memory", "--embedder", "none", "where is Alpha defined?"},
				[]string{"alpha.go:4", "note: 1 path could not be read: locked (open: permission denied)"}},
		})
	})
}

// indexedTree writes files into a new tree, indexes it into a knowledge
// base of its own (no embedder) and returns the tree and the database.
func indexedTree(t *testing.T, files map[string]string) (root, db string) {
	t.Helper()
	root = t.TempDir()
	testfixture.WriteFiles(t, root, files)
	db = filepath.Join(t.TempDir(), "kb.sqlite")
	if _, errs, code := runCLI(t, "", "index", "--root", root, "--db", db, "--embedder", "none"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	return root, db
}

// cliRun is a command and what its output must contain.
type cliRun struct {
	name string
	args []string
	want []string
}

// expectOutputs runs each command, which must succeed without a word of
// "readonly database", and checks its output.
func expectOutputs(t *testing.T, runs []cliRun) {
	t.Helper()
	for _, r := range runs {
		out, errs, code := runCLI(t, "", r.args...)
		if code != 0 || strings.Contains(errs+out, "readonly database") {
			t.Errorf("%s: exit %d: %s", r.name, code, errs)
			continue
		}
		for _, w := range r.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", r.name, w, out)
			}
		}
	}
}
