package project_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// hashOf is the content hash of the file at rel under root.
func hashOf(t *testing.T, root, rel string) sourcefacts.ContentHash {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return sourcefacts.HashBytes(b)
}

// TestOnlyTheProjectsFilesCanBeReadOrPatched: ReadSource and ApplyPatch
// reach only files the lister includes. A gitignored file, a hidden one,
// .git/config, the knowledge base (in .rlm, or beside the sources with a
// lister that takes every file), and a symbolic link to .git/config are
// refused exactly as a path that does not exist is — even given their
// true hash — and are left untouched; a conflict on a project file does
// report its actual hash.
func TestOnlyTheProjectsFilesCanBeReadOrPatched(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{
		"main.go":       "package main\n\nfunc main() {}\n",
		"secret.go":     "package main\n\nconst key = \"s3cret\"\n",
		".gitignore":    "secret.go\n",
		".env":          "KEY=s3cret\n",
		".git/config":   "[core]\n\tbare = false\n",
		"vendor/v/v.go": "package v\n",
		"notes.txt":     "hello\n",
	}
	for _, c := range []struct {
		name   string
		opts   func(root string) project.Options
		paths  []string
		listed string
	}{
		{"default knowledge base in .rlm", func(string) project.Options { return project.Options{} },
			[]string{"secret.go", ".env", ".git/config", "vendor/v/v.go", ".rlm/kb.sqlite", "link.go"}, "main.go"},
		{"knowledge base beside the sources, every file listed", func(root string) project.Options {
			return project.Options{DBPath: filepath.Join(root, "kb.sqlite"), Files: sourcefacts.Lister{Match: func(string) bool { return true }}}
		}, []string{"kb.sqlite", "secret.go", ".git/config", "link.go"}, "notes.txt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := testfixture.WriteTree(t, files)
			if err := os.Symlink(".git/config", filepath.Join(root, "link.go")); err != nil {
				t.Skip("no symbolic links:", err)
			}
			p, err := project.Open(ctx, root, c.opts(root))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			// What a path that does not exist gets, with its name replaced.
			absentRead := func(rel string) string {
				_, err := p.ReadSource(ctx, "absent.go", "xxh64:0000000000000000:1")
				return strings.ReplaceAll(err.Error(), "absent.go", rel)
			}
			for _, rel := range c.paths {
				h := hashOf(t, root, rel)
				before, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
				_, err := p.ReadSource(ctx, rel, h.String())
				if !errors.Is(err, project.ErrStale) || strings.ReplaceAll(err.Error(), h.String(), "xxh64:0000000000000000:1") != absentRead(rel) {
					t.Errorf("ReadSource(%s, its true hash) = %v; want the error of an absent file, %q", rel, err, absentRead(rel))
				}
				_, err = p.ApplyPatch(ctx, rel, h, store.Patch{Edits: []store.Edit{{Start: 0, End: 0, Text: []byte("x")}}})
				var ce *store.ConflictError
				if !errors.As(err, &ce) || !ce.Missing || ce.Actual != (sourcefacts.ContentHash{}) {
					t.Errorf("ApplyPatch(%s, its true hash) = %v; want a missing-file conflict without the actual hash", rel, err)
				}
				if after, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel))); string(after) != string(before) {
					t.Errorf("%s was changed", rel)
				}
				if p.Listed(rel) {
					t.Errorf("Listed(%s) = true", rel)
				}
			}
			// A project file: read with its hash, and a conflict names
			// its actual hash.
			h := hashOf(t, root, c.listed)
			if b, err := p.ReadSource(ctx, c.listed, h.String()); err != nil || len(b) == 0 {
				t.Fatalf("ReadSource(%s) = %q, %v", c.listed, b, err)
			}
			wrong := sourcefacts.ContentHash{XXH64: h.XXH64 + 1, Len: h.Len}
			_, err = p.ApplyPatch(ctx, c.listed, wrong, store.Patch{Edits: []store.Edit{{Start: 0, End: 0, Text: []byte("x")}}})
			var ce *store.ConflictError
			if !errors.As(err, &ce) || ce.Missing || ce.Actual != h {
				t.Fatalf("ApplyPatch(%s, a wrong hash) = %v; want a conflict with the actual hash %s", c.listed, err, h)
			}
		})
	}
}
