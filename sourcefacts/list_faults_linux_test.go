//go:build linux

package sourcefacts

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/nonroot"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

// deepDir creates under root a chain of directories whose path is longer
// than the system's PATH_MAX (4096), each created relative to the one
// before with mkdirat(2), and returns the slash path, relative to root, of
// the first directory whose absolute path is too long to open.
func deepDir(t *testing.T, root string) string {
	t.Helper()
	name := strings.Repeat("d", 200)
	fd, err := syscall.Open(root, syscall.O_DIRECTORY|syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var comps []string
	for p := root; len(p) < 4096+len(name); p = filepath.Join(p, name) {
		if err := syscall.Mkdirat(fd, name, 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := syscall.Openat(fd, name, syscall.O_DIRECTORY|syscall.O_RDONLY, 0)
		syscall.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
		if len(filepath.Join(p, name)) < 4096 {
			comps = append(comps, name)
		}
	}
	syscall.Close(fd)
	// The first directory whose path is too long: one below the last that
	// fits.
	return strings.Join(append(comps, name), "/")
}

// TestListRecordsEveryPathItCannotWalkAndListsTheRest: an unreadable
// directory, a directory removed while the walk runs, a path longer than
// the system allows, a FIFO named like a source file and a symbolic link
// loop are each recorded against their path, with the cause errors.Is can
// match, and every other file of the tree is still listed.
func TestListRecordsEveryPathItCannotWalkAndListsTheRest(t *testing.T) {
	good := map[string]string{"a.go": "package p\n", "z/ok.go": "package z\n"}
	cases := []struct {
		name    string
		setup   func(t *testing.T, root string) (fault string)
		match   func(root string) func(string) bool
		cause   error
		reason  string
		asNobod bool
	}{
		{name: "unreadable directory", asNobod: true, cause: syscall.EACCES, reason: "open: permission denied",
			setup: func(t *testing.T, root string) string {
				testfixture.WriteFiles(t, root, map[string]string{"locked/secret.go": "package locked\n"})
				if err := os.Chmod(filepath.Join(root, "locked"), 0); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.Chmod(filepath.Join(root, "locked"), 0o755) })
				return "locked"
			}},
		{name: "directory removed during the walk", cause: syscall.ENOENT, reason: "open: no such file or directory",
			setup: func(t *testing.T, root string) string {
				testfixture.WriteFiles(t, root, map[string]string{"b/gone.go": "package b\n"})
				return "b"
			},
			// Entries are walked in name order: deciding on a.go removes b/
			// before the walk reaches it.
			match: func(root string) func(string) bool {
				return func(p string) bool {
					if p == "a.go" {
						os.RemoveAll(filepath.Join(root, "b"))
					}
					return strings.HasSuffix(p, ".go")
				}
			}},
		{name: "name too long", cause: syscall.ENAMETOOLONG, reason: "open: file name too long",
			setup: deepDir},
		{name: "fifo named like a source file", cause: ErrSpecialFile, reason: "not a regular file: named pipe",
			setup: func(t *testing.T, root string) string {
				if err := syscall.Mkfifo(filepath.Join(root, "pipe.go"), 0o644); err != nil {
					t.Fatal(err)
				}
				return "pipe.go"
			}},
		{name: "file name not UTF-8", cause: ErrNameNotUTF8, reason: "name is not valid UTF-8",
			setup: func(t *testing.T, root string) string {
				testfixture.WriteFiles(t, root, map[string]string{"bad\xff.go": "package p\n\nfunc Bad() {}\n", "notes\xfe.txt": "not a source file\n"})
				return "bad\xff.go"
			}},
		{name: "directory name not UTF-8", cause: ErrNameNotUTF8, reason: "name is not valid UTF-8",
			setup: func(t *testing.T, root string) string {
				testfixture.WriteFiles(t, root, map[string]string{"d\xfe/x.go": "package d\n"})
				return "d\xfe"
			}},
		{name: "symbolic link loop", reason: "EvalSymlinks: too many links",
			setup: func(t *testing.T, root string) string {
				if err := os.Symlink("loop2.go", filepath.Join(root, "loop.go")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("loop.go", filepath.Join(root, "loop2.go")); err != nil {
					t.Fatal(err)
				}
				return "loop.go,loop2.go"
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := func(t *testing.T) {
				root := t.TempDir()
				testfixture.WriteFiles(t, root, good)
				fault := c.setup(t, root)
				l := Lister{}
				if c.match != nil {
					l.Match = c.match(root)
				}
				listed, err := l.List(t.Context(), root)
				if diff := cmp.Diff([]string{"a.go", "z/ok.go"}, listed); diff != "" {
					t.Errorf("listed (-want +got):\n%s", diff)
				}
				var we *WalkError
				if !errors.As(err, &we) {
					t.Fatalf("List error = %v, want a *WalkError", err)
				}
				var paths []string
				for _, f := range we.Faults {
					paths = append(paths, f.Path)
					if f.Reason() != c.reason {
						t.Errorf("fault %s: reason %q, want %q", f.Path, f.Reason(), c.reason)
					}
				}
				if diff := cmp.Diff(strings.Split(fault, ","), paths); diff != "" {
					t.Errorf("fault paths (-want +got):\n%s", diff)
				}
				if c.cause != nil && !errors.Is(err, c.cause) {
					t.Errorf("List error %v does not match %v", err, c.cause)
				}
				// Walk, the one-shot extractor, sees the same: the facts of
				// the rest, and the faults.
				if c.match != nil {
					return // the fault was made by the walk itself
				}
				ffs, err := Walk(t.Context(), root, WalkOptions{})
				if !errors.As(err, &we) || len(ffs) != 2 {
					t.Errorf("Walk = %d facts, %v; want 2 and a *WalkError", len(ffs), err)
				}
			}
			if c.asNobod {
				nonroot.Run(t, body)
			} else {
				body(t)
			}
		})
	}
}
