package project_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// codeSource is a Go file of package p with n functions that call each
// other and a function of the next file, a type with a method, and doc
// comments; variant v changes every body and comment.
func codeSource(file, n, v int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package p\n\n// T%[1]d is the type of file %[1]d, variant %[2]d.\ntype T%[1]d struct{ n int }\n\n", file, v)
	fmt.Fprintf(&b, "// Run%[1]d runs the type of file %[1]d.\nfunc (t *T%[1]d) Run%[1]d() int { return F%[1]d_0(t.n) + %[2]d }\n\n", file, v)
	for i := range n {
		fmt.Fprintf(&b, "// F%[1]d_%[2]d is function number %[2]d of file %[1]d, variant %[3]d.\nfunc F%[1]d_%[2]d(x int) int { return F%[1]d_%[4]d(x) + F%[5]d_0(%[3]d) }\n\n",
			file, i, v, (i+1)%n, file+1)
	}
	return b.String()
}

// codeTree writes files codeSource files of n functions each (variant 0)
// into a new directory and returns it.
func codeTree(t *testing.T, files, n int) string {
	t.Helper()
	root := t.TempDir()
	for i := range files {
		writeCode(t, root, i, n, 0)
	}
	return root
}

func writeCode(t *testing.T, root string, file, n, v int) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%03d.go", file)), []byte(codeSource(file, n, v)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// indexContent is what a search index holds: every document by id, the
// files' versions, and the answers to a set of requests.
type indexContent struct {
	Docs     map[string]retrieval.Document
	Versions map[string]string
	Answers  map[string][]brief
}

// brief is the part of a hit that the comparison keys on: the document's
// identity, not its name.
type brief struct {
	ID    string
	Score float64
	Kind  retrieval.ScoreKind
	Rank  int
	Lines []int
}

// contentOf reads everything the project's current search index holds and
// answers reqs.
func contentOf(t *testing.T, p *project.Project, reqs []retrieval.Request) indexContent {
	t.Helper()
	ctx := context.Background()
	c := indexContent{Docs: map[string]retrieval.Document{}, Answers: map[string][]brief{}}
	err := p.View(func(b retrieval.Backend, _ store.Identity) error {
		e, err := primaryOf(b)
		if err != nil {
			return err
		}
		ids, err := e.Versions(ctx, 0)
		if err != nil {
			return err
		}
		all := slices.Sorted(maps.Keys(ids))
		for i := 0; i < len(all); i += retrieval.MaxLimit {
			docs, err := e.Fetch(ctx, all[i:min(i+retrieval.MaxLimit, len(all))])
			if err != nil {
				return err
			}
			for _, d := range docs {
				c.Docs[d.ID] = d
			}
		}
		if c.Versions, err = e.SourceVersions(ctx); err != nil {
			return err
		}
		for _, req := range reqs {
			hits, err := b.Search(ctx, req)
			if err != nil {
				return fmt.Errorf("%+v: %w", req, err)
			}
			var bs []brief
			for _, h := range hits {
				bs = append(bs, brief{h.Document.ID, h.Score, h.ScoreKind, h.Rank, h.Lines})
			}
			c.Answers[fmt.Sprintf("%s %s %q %s %+v", req.Strategy, req.Relation, req.Text, req.Name, req.Filter)] = bs
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// comparedRequests are the requests whose answers a derived and a rebuilt
// index must agree on (vector and hybrid ones with vectors).
func comparedRequests(vectors bool) []retrieval.Request {
	reqs := []retrieval.Request{
		{Strategy: retrieval.Exact, Name: "F3_1", Limit: 20},
		{Strategy: retrieval.Exact, Name: "f3_1", CaseInsensitive: true, Limit: 20},
		{Strategy: retrieval.Exact, Name: "T4.Run4", Limit: 20},
		{Strategy: retrieval.Lexical, Text: "function number 2 of file", Limit: 50},
		{Strategy: retrieval.Lexical, Text: "type variant runs", Limit: 50},
		{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "F5_0", Limit: 50},
		{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: "F3_1", Limit: 50},
		{Strategy: retrieval.Graph, Relation: retrieval.References, Name: "F6_0", Limit: 50},
		{Strategy: retrieval.Structural, Filter: retrieval.Filter{PathPrefixes: []string{"f00"}}, Limit: 200},
		{Strategy: retrieval.Structural, Filter: retrieval.Filter{Kinds: []string{"method"}, ChangedSince: 1}, Limit: 200},
	}
	if vectors {
		reqs = append(reqs,
			retrieval.Request{Strategy: retrieval.Vector, Text: "runs the type of file", Limit: 30},
			retrieval.Request{Strategy: retrieval.Hybrid, Text: "function number 3", Limit: 30})
	}
	return reqs
}

// TestAnIncrementallyUpdatedIndexHoldsWhatAFreshBuildHolds: after edits of
// every kind — a file edited, added, deleted, renamed, emptied of
// definitions, many files changed at once (several batches), a branch
// switched and back — the search index updated from the earlier
// snapshot's holds the same documents (every field, by id), the same file
// versions and gives the same answers (ids, scores, ranks, lines) as one
// built whole for the same snapshot, with and without vectors; and the
// update wrote exactly the files that differ.
func TestAnIncrementallyUpdatedIndexHoldsWhatAFreshBuildHolds(t *testing.T) {
	const files, funcs = 12, 6
	cases := []struct {
		name  string
		steps []func(t *testing.T, root string)
		files int // files the last update wrote or removed
	}{
		{"one file edited", steps(func(t *testing.T, root string) { writeCode(t, root, 3, funcs, 1) }), 1},
		{"lines shifted", steps(func(t *testing.T, root string) {
			editFile(t, filepath.Join(root, "f002.go"), "package p\n", "package p\n\n// two lines more\n")
		}), 1},
		{"a body changed", steps(func(t *testing.T, root string) {
			editFile(t, filepath.Join(root, "f002.go"), "return F2_1(x)", "return F2_2(x) + F2_1(x)")
		}), 1},
		// File i calls F<i+1>_0: what those calls resolve to (Documents)
		// changes with the file that defines it, so file i is written too.
		{"a file added", steps(func(t *testing.T, root string) { writeCode(t, root, files, funcs, 0) }), 2},
		{"a file deleted", steps(func(t *testing.T, root string) { mustRemove(t, filepath.Join(root, "f005.go")) }), 2},
		{"a file renamed", steps(func(t *testing.T, root string) {
			if err := os.MkdirAll(filepath.Join(root, "moved"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(filepath.Join(root, "f004.go"), filepath.Join(root, "moved", "f004.go")); err != nil {
				t.Fatal(err)
			}
		}), 3},
		{"definitions removed", steps(func(t *testing.T, root string) {
			writeCode(t, root, 6, 2, 1)
			if err := os.WriteFile(filepath.Join(root, "f007.go"), []byte("package p\n\n// nothing is left here\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}), 2},
		{"many files changed", steps(func(t *testing.T, root string) {
			for i := range files {
				writeCode(t, root, i, 200, 2) // 202 documents a file: several batches
			}
		}), files},
		{"a branch switched and back", steps(
			func(t *testing.T, root string) {
				for i := range files / 2 {
					writeCode(t, root, i, funcs, 3)
				}
				mustRemove(t, filepath.Join(root, "f011.go"))
			},
			func(t *testing.T, root string) {
				for i := range files / 2 {
					writeCode(t, root, i, funcs, 0)
				}
				writeCode(t, root, 11, funcs, 0)
			}), files/2 + 1},
	}
	for _, vectors := range []bool{false, true} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/vectors=%v", c.name, vectors), func(t *testing.T) {
				root := codeTree(t, files, funcs)
				dir := t.TempDir()
				opts := project.Options{DBPath: filepath.Join(dir, "kb.sqlite")}
				if vectors {
					opts.Embedder = localEmbedder(t)
				}
				ctx := context.Background()
				p, err := project.Open(ctx, root, opts)
				if err != nil {
					t.Fatal(err)
				}
				for _, step := range c.steps {
					step(t, root)
					if changed, err := p.Refresh(ctx); err != nil || !changed {
						t.Fatalf("refresh: changed %v, %v", changed, err)
					}
				}
				st, id := p.Stats(), p.Snapshot()
				if st.DerivedFrom == 0 || st.IndexFiles != c.files {
					t.Errorf("the search index was derived from generation %d writing %d files, want derived writing %d", st.DerivedFrom, st.IndexFiles, c.files)
				}
				derived := contentOf(t, p, comparedRequests(vectors))
				p.Close()
				removeIndexFiles(t, dir)
				p, err = project.Open(ctx, root, opts)
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close()
				if st := p.Stats(); st.DerivedFrom != 0 || st.Reused || p.Snapshot().Generation != id.Generation {
					t.Fatalf("the second open: %+v at %v, want a build of %v", st, p.Snapshot(), id)
				}
				built := contentOf(t, p, comparedRequests(vectors))
				if len(built.Docs) == 0 {
					t.Fatal("the rebuilt index holds no documents")
				}
				for req, a := range built.Answers {
					if len(a) == 0 && !strings.Contains(req, "ChangedSince:1") {
						t.Errorf("%s: no answer from the rebuilt index", req)
					}
				}
				if diff := cmp.Diff(built, derived); diff != "" {
					t.Errorf("the derived index differs from a fresh build (-built +derived):\n%s", diff)
				}
			})
		}
	}
}

func steps(fs ...func(t *testing.T, root string)) []func(t *testing.T, root string) { return fs }

// removeIndexFiles removes every search index file in dir.
func removeIndexFiles(t *testing.T, dir string) {
	t.Helper()
	for _, n := range dirFiles(t, dir, func(n string) bool { return strings.HasPrefix(n, "search-") }) {
		if err := os.Remove(filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
}

// editFile replaces the first old in the file at path with new.
func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRemove(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}
