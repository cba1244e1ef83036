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
		root := t.TempDir()
		testfixture.WriteFiles(t, root, map[string]string{
			"alpha.go":         "package p\n\n// Alpha is here.\nfunc Alpha() {}\n",
			"locked/secret.go": "package locked\n\n// Secret is locked away.\nfunc Secret() {}\n",
		})
		db := filepath.Join(t.TempDir(), "kb.sqlite")
		if _, errs, code := runCLI(t, "", "index", "--root", root, "--db", db, "--embedder", "none"); code != 0 {
			t.Fatalf("index: exit %d: %s", code, errs)
		}
		locked := filepath.Join(root, "locked")
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(locked, 0o755) })
		const fault = "unreadable locked open: permission denied\n"
		runs := []struct {
			name string
			args []string
			want []string
		}{
			{"index", []string{"index", "--root", root, "--db", db, "--embedder", "none"}, []string{fault}},
			{"status", []string{"status", "--root", root, "--db", db}, []string{fault, "error    locked/secret.go read: ", "permission denied\n"}},
			{"search", []string{"search", "--root", root, "--db", db, "--embedder", "none", "where is Alpha defined?"},
				[]string{"alpha.go:4", "note: 1 path could not be read: locked (open: permission denied); see rlm status\n"}},
			{"search --in-memory", []string{"search", "--root", root, "--in-memory", "--embedder", "none", "where is Alpha defined?"},
				[]string{"alpha.go:4", "note: 1 path could not be read: locked (open: permission denied)"}},
		}
		for _, r := range runs {
			out, errs, code := runCLI(t, "", r.args...)
			if code != 0 {
				t.Errorf("%s: exit %d: %s", r.name, code, errs)
				continue
			}
			for _, w := range r.want {
				if !strings.Contains(out, w) {
					t.Errorf("%s: output lacks %q:\n%s", r.name, w, out)
				}
			}
		}
	})
}
