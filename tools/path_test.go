package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveInsideKeepsPathsUnderTheRoot(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "root")
	outside := filepath.Join(top, "outside")
	for _, d := range []string{filepath.Join(root, "src", "pkg"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(root, "src", "a.go"), filepath.Join(outside, "secret")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"src/inner":     filepath.Join(root, "src", "pkg"), // inside
		"src/relinner":  "pkg",                             // inside, relative
		"up":            "..",                              // to the parent of root
		"out":           outside,                           // to a directory outside
		"secret":        filepath.Join(outside, "secret"),  // to a file outside
		"dangling":      filepath.Join(outside, "nothing"), // dangling, outside
		"src/hop":       "../out",                          // a chain that leaves
		"src/pkg/cycle": "cycle",                           // a loop
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skipf("symbolic links unavailable: %v", err)
		}
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		p    string
		want string // "" = refused, with a message saying why
	}{
		{"src/a.go", "src/a.go"},
		{".", "."},
		{"src/./pkg/../a.go", "src/a.go"},
		{"src/new/file.txt", "src/new/file.txt"}, // does not exist yet
		{"src/inner/x", "src/pkg/x"},
		{"src/relinner", "src/pkg"},
		{"", "!empty"},
		{"/etc/passwd", "!absolute"},
		{filepath.Join(outside, "secret"), "!absolute"},
		{"..", "!escapes with .."},
		{"../outside/secret", "!escapes with .."},
		{"../../etc/passwd", "!escapes with .."},
		{"src/../../outside", "!escapes with .."},
		{"up/outside/secret", "!symbolic link"},
		{"out", "!symbolic link"},
		{"out/secret", "!symbolic link"},
		{"out/new.txt", "!symbolic link"},
		{"secret", "!symbolic link"},
		{"dangling", "!cannot be resolved"},
		{"dangling/x", "!cannot be resolved"},
		{"src/hop/secret", "!symbolic link"},
		{"src/pkg/cycle", "!cannot be resolved"},
		{"a\x00b", "!NUL"},
	}
	for _, c := range cases {
		t.Run(c.p, func(t *testing.T) {
			got, err := ResolveInside(root, c.p)
			if why, refused := strings.CutPrefix(c.want, "!"); refused {
				if err == nil || !errors.Is(err, ErrOutsideRoot) || !strings.Contains(err.Error(), why) {
					t.Fatalf("ResolveInside(%q) = %q, %v; want a refusal matching ErrOutsideRoot saying %q", c.p, got, err, why)
				}
				if strings.Contains(err.Error(), top) && !strings.Contains(c.p, top) {
					t.Errorf("the refusal %q names the root", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ResolveInside(%q): %v", c.p, err)
			}
			if want := filepath.Join(real, c.want); got != want {
				t.Errorf("ResolveInside(%q) = %q, want %q", c.p, got, want)
			}
		})
	}
}

func TestResolveInsideFollowsARootThatIsALink(t *testing.T) {
	top := t.TempDir()
	if err := os.MkdirAll(filepath.Join(top, "real", "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(top, "alias")); err != nil {
		t.Skipf("symbolic links unavailable: %v", err)
	}
	got, err := ResolveInside(filepath.Join(top, "alias"), "d/f")
	real, _ := filepath.EvalSymlinks(filepath.Join(top, "real"))
	if err != nil || got != filepath.Join(real, "d", "f") {
		t.Errorf("ResolveInside through a linked root = %q, %v", got, err)
	}
	if _, err := ResolveInside(filepath.Join(top, "missing"), "f"); err == nil || errors.Is(err, ErrOutsideRoot) {
		t.Errorf("a missing root gave %v, want an fs error that is not a refusal of the path", err)
	}
}
