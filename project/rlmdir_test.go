package project_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/project"
)

// TestKnowledgeBaseDirectoryIsIgnoredByGit: the .rlm directory rlm
// creates under a tree writes its own .gitignore ("*"), so that in a git
// work tree `git status --porcelain` shows nothing of it after indexing,
// while a .gitignore already in .rlm is left as it was (the user's:
// it alone may show).
func TestKnowledgeBaseDirectoryIsIgnoredByGit(t *testing.T) {
	cases := []struct {
		name, existing string
	}{
		{name: "created by rlm"},
		{name: "the user's own .gitignore", existing: "kb.sqlite*\nsearch-*\n*.tmp*\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			testfixture.WriteFiles(t, root, map[string]string{"a.go": "package p\n\nfunc A() {}\n"})
			if c.existing != "" {
				testfixture.WriteFiles(t, root, map[string]string{".rlm/.gitignore": c.existing})
			}
			git := func(args ...string) string {
				cmd := exec.Command("git", args...)
				cmd.Dir = root
				cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+root)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("git %v: %v: %s", args, err, out)
				}
				return string(out)
			}
			_, noGit := exec.LookPath("git")
			if noGit == nil {
				git("init", "-q")
				git("-c", "user.email=t@example.com", "-c", "user.name=t", "add", "a.go")
			}
			p, err := project.Open(t.Context(), root, project.Options{})
			if err != nil {
				t.Fatal(err)
			}
			db := p.Store().DBPath()
			p.Close()
			if filepath.Dir(db) != filepath.Join(root, ".rlm") {
				t.Fatalf("knowledge base at %s, want under %s/.rlm", db, root)
			}
			b, err := os.ReadFile(filepath.Join(root, ".rlm", ".gitignore"))
			if err != nil {
				t.Fatal(err)
			}
			want := c.existing
			if want == "" {
				want = "# written by rlm: its knowledge base is not part of the project\n*\n"
			}
			if string(b) != want {
				t.Errorf(".rlm/.gitignore = %q, want %q", b, want)
			}
			if noGit != nil {
				t.Logf("git is not installed: `git status` not checked (%v)", noGit)
				return
			}
			for _, line := range strings.Split(git("status", "--porcelain", "--untracked-files=all"), "\n") {
				// The user's own .gitignore may show; nothing rlm wrote may.
				if strings.Contains(line, ".rlm") && (c.existing == "" || line != "?? .rlm/.gitignore") {
					t.Errorf("git status shows the knowledge base: %q", line)
				}
			}
		})
	}
}
