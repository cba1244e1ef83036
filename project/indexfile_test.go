package project_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
)

// indexTree writes a small tree of n Go files, each defining FuncI.
func indexTree(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("p/f%03d.go", i)] = fmt.Sprintf("package p\n\n// Func%03d does thing number %d of the tree.\nfunc Func%03d(x int) int { return x + %d }\n", i, i, i, i)
	}
	testfixture.WriteFiles(t, root, files)
	return root
}

// searchPaths returns the paths of the exact hits for symbol.
func searchPaths(t *testing.T, p *project.Project, symbol string) []string {
	t.Helper()
	hits, err := search(t, p, retrieval.Request{Strategy: retrieval.Exact, Name: symbol, Limit: 10})
	if err != nil {
		t.Fatalf("search %s: %v", symbol, err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.Document.Path)
	}
	return out
}

// dirFiles lists the names in dir matching pred.
func dirFiles(t *testing.T, dir string, pred func(string) bool) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if pred(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

func isSearchIndex(n string) bool {
	return strings.HasPrefix(n, "search-") && strings.HasSuffix(n, ".sqlite")
}

func isTemp(n string) bool { return strings.Contains(n, ".tmp") }

// overwriteAt returns a damage that writes 512 bytes of garbage at offset.
func overwriteAt(offset int64) func(path string) error {
	return func(path string) error {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteAt([]byte(strings.Repeat("garbage!", 64)), offset)
		return err
	}
}

// TestDamagedSearchIndexIsRebuiltFromTheKnowledgeBase: a search index
// file truncated (a full disk), emptied, overwritten, or with a header
// that is whole over a damaged schema, is detected at the next open and rebuilt from the knowledge base, and searches answer as
// before.
func TestDamagedSearchIndexIsRebuiltFromTheKnowledgeBase(t *testing.T) {
	damages := map[string]func(path string) error{
		"truncated to half": func(path string) error {
			fi, err := os.Stat(path)
			if err != nil {
				return err
			}
			return os.Truncate(path, fi.Size()/2)
		},
		"emptied":                 func(path string) error { return os.Truncate(path, 0) },
		"overwritten":             overwriteAt(0),
		"schema page overwritten": overwriteAt(100), // the header is intact, SQLite says corrupt
	}
	for name, damage := range damages {
		t.Run(name, func(t *testing.T) {
			root := indexTree(t, 40)
			opts := project.Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite")}
			p, err := project.Open(t.Context(), root, opts)
			if err != nil {
				t.Fatal(err)
			}
			want := searchPaths(t, p, "Func007")
			p.Close()
			dir := filepath.Dir(opts.DBPath)
			ixs := dirFiles(t, dir, isSearchIndex)
			if len(ixs) != 1 || len(want) != 1 {
				t.Fatalf("search indexes %v, hits %v; want one of each", ixs, want)
			}
			if err := damage(filepath.Join(dir, ixs[0])); err != nil {
				t.Fatal(err)
			}
			p, err = project.Open(t.Context(), root, opts)
			if err != nil {
				t.Fatalf("open over a damaged search index: %v", err)
			}
			defer p.Close()
			if p.Stats().Reused {
				t.Error("the damaged search index was reused")
			}
			if diff := cmp.Diff(want, searchPaths(t, p, "Func007")); diff != "" {
				t.Errorf("hits after the rebuild (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFailedSearchIndexBuildsLeaveNoTemporaryFiles: a build whose backend
// cannot be opened (a Chroma server that is not there) leaves no temporary
// file, however often it is tried; temporary files of a build killed
// earlier are removed at the next open, while one a build under way holds
// locked is left alone.
func TestFailedSearchIndexBuildsLeaveNoTemporaryFiles(t *testing.T) {
	root := indexTree(t, 5)
	dir := t.TempDir()
	opts := project.Options{DBPath: filepath.Join(dir, "kb.sqlite"), Embedder: localEmbedder(t),
		Chroma: &chroma.Config{URL: "http://127.0.0.1:1", CollectionPrefix: "rlm-test"}}
	for range 3 {
		if p, err := project.Open(t.Context(), root, opts); err == nil {
			p.Close()
			t.Fatal("open with an unreachable Chroma server succeeded")
		}
	}
	if tmps := dirFiles(t, dir, isTemp); len(tmps) != 0 {
		t.Errorf("failed opens left %v", tmps)
	}

	old := time.Now().Add(-time.Hour)
	killed := "search-g1-0000000000000000-none.tmp4242"
	for _, n := range []string{killed, killed + "-wal", killed + "-shm", "search-g1-0000000000000000-none.tmp77-wal"} {
		testfixture.WriteFiles(t, dir, map[string]string{n: "partial"})
		os.Chtimes(filepath.Join(dir, n), old, old)
	}
	building := "search-g1-0000000000000000-none.tmp99"
	testfixture.WriteFiles(t, dir, map[string]string{building: "under way"})
	os.Chtimes(filepath.Join(dir, building), old, old)
	unlock := lockExclusive(t, filepath.Join(dir, building))
	defer unlock()

	opts.Chroma = nil
	p, err := project.Open(t.Context(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if diff := cmp.Diff([]string{building}, dirFiles(t, dir, isTemp)); diff != "" {
		t.Errorf("temporary files after open (-want +got):\n%s", diff)
	}
	if ixs := dirFiles(t, dir, isSearchIndex); !slices.ContainsFunc(ixs, func(n string) bool { return !isTemp(n) }) {
		t.Errorf("no search index was built: %v", ixs)
	}
}
