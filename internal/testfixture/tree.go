package testfixture

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFiles writes files (slash paths relative to root → contents) under
// root, creating directories as needed.
func WriteFiles(tb testing.TB, root string, files map[string]string) {
	tb.Helper()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// WriteTree writes files under a new temporary directory and returns it.
func WriteTree(tb testing.TB, files map[string]string) string {
	tb.Helper()
	root := tb.TempDir()
	WriteFiles(tb, root, files)
	return root
}

// CopyTree copies the directory src (e.g. a fixture under testdata) into
// a new temporary directory and returns it, so a test can edit the copy.
func CopyTree(tb testing.TB, src string) string {
	tb.Helper()
	dst := tb.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		tb.Fatal(err)
	}
	return dst
}
