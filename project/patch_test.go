package project_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// TestAPatchMustNameItsFileAndKeepCharactersWhole: ApplyPatch refuses a
// unified diff whose headers name another file than the one patched
// (however the names climb), a binary patch, and byte edits that split a
// UTF-8 sequence of a valid UTF-8 file — all as bad patches, leaving the
// file as it was — and applies diffs naming the file (git's a/ b/ or
// plain) and edits on character boundaries.
func TestAPatchMustNameItsFileAndKeepCharactersWhole(t *testing.T) {
	const text = "package main\n\n// é\nfunc main() {}\n"
	accent := len("package main\n\n// ") // é's first byte
	hunk := "@@ -1,4 +1,4 @@\n package main\n \n-// é\n+// è\n func main() {}\n"
	edit := func(start, end int) store.Patch {
		return store.Patch{Edits: []store.Edit{{Start: start, End: end, Text: []byte("x")}}}
	}
	diff := func(s string) store.Patch { return store.Patch{UnifiedDiff: []byte(s)} }
	for _, c := range []struct {
		name  string
		file  string // the file's bytes (default text)
		patch store.Patch
		ok    bool
	}{
		{"headers naming a file outside the root", "", diff("--- a/../../tmp/x\n+++ b/../../tmp/x\n" + hunk), false},
		{"an old name of another file", "", diff("--- a/other.go\n+++ b/main.go\n" + hunk), false},
		{"a new name of another file", "", diff("--- a/main.go\n+++ b/main.go.orig\n" + hunk), false},
		{"a git header naming another file", "", diff("diff --git a/other.go b/other.go\n--- a/main.go\n+++ b/main.go\n" + hunk), false},
		{"a git binary patch", "", diff("diff --git a/main.go b/main.go\nindex 586fdce9ad1ed41df96bee5ba0949cffa408b01c..52e33cd6d8e54a2a3284055214114c9a193b0543 100644\n" +
			"GIT binary patch\nliteral 15\nWcmXR&OwLYBPgTfG%*^9r-~s?E<OHSw\n\nliteral 35\nncmXR&OwLYBPgTfG%*^BB($`lwypk)eG%pz}prNTyUCRXk*8K~9\n\n"), false},
		{"an edit starting inside a character", "", edit(accent+1, accent+2), false},
		{"an edit ending inside a character", "", edit(accent, accent+1), false},
		{"a git diff of the file", "", diff("diff --git a/main.go b/main.go\n--- a/main.go\n+++ b/main.go\n" + hunk), true},
		{"a plain diff of the file", "", diff("--- main.go\t2024-01-01 00:00:00\n+++ main.go\t2024-01-02 00:00:00\n" + hunk), true},
		{"an edit replacing a whole character", "", edit(accent, accent+2), true},
		{"an edit before a continuation byte of a file that is not UTF-8", "package main\n\n// \xff\x80\nfunc main() {}\n", edit(accent+1, accent+1), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := text
			if c.file != "" {
				file = c.file
			}
			root := testfixture.WriteTree(t, map[string]string{"main.go": file, "other.go": "package main\n"})
			p, err := project.Open(context.Background(), root, project.Options{InMemory: true})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			_, err = p.ApplyPatch(context.Background(), "main.go", hashOf(t, root, "main.go"), c.patch)
			after, _ := os.ReadFile(filepath.Join(root, "main.go"))
			switch {
			case c.ok && err != nil:
				t.Fatalf("refused: %v", err)
			case c.ok && string(after) == file:
				t.Fatal("applied, but the file did not change")
			case !c.ok && !errors.Is(err, store.ErrBadPatch):
				t.Fatalf("ApplyPatch = %v, want a bad patch", err)
			case !c.ok && string(after) != file:
				t.Fatalf("refused, but the file changed to %q", after)
			}
		})
	}
}
