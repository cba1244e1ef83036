package store

import (
	"context"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// listedInEveryMode returns, for each way rlm chooses a project's files,
// the files it chose under root with the switches of l: sourcefacts.Walk
// (the in-memory index), the store's Lister (List, and Includes over every
// path of the tree), a store's full snapshot and a store's snapshot of
// every path of the tree given as hinted paths. The store uses l, an
// all-language extractor and its default database under root/.rlm, as
// rlm.OpenStore does.
func listedInEveryMode(t *testing.T, root string, l sourcefacts.Lister) map[string][]string {
	t.Helper()
	ctx := testCtx(t)
	var tree []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, err := filepath.Rel(root, p)
		tree = append(tree, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	modes := map[string][]string{}
	ffs, err := sourcefacts.Walk(ctx, root, sourcefacts.WalkOptions{IncludeGenerated: true,
		IncludeHidden: l.IncludeHidden, IncludeVendor: l.IncludeVendor, IncludeBuildDirs: l.IncludeBuildDirs, IncludeIgnored: l.IncludeIgnored})
	if err != nil {
		t.Fatal(err)
	}
	for _, ff := range ffs {
		modes["walk"] = append(modes["walk"], ff.Provenance.Path)
	}
	if modes["list"], err = l.List(ctx, root); err != nil {
		t.Fatal(err)
	}
	for _, p := range tree {
		if l.Includes(root, p) {
			modes["includes"] = append(modes["includes"], p)
		}
	}
	ex, err := sourcefacts.NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ex.Close)
	stored := func(dbPath string, scope Scope) []string {
		s := openStore(t, root, &Options{DBPath: dbPath, Extractor: ex, Lister: l})
		snap := snapshot(t, s, scope, SnapshotOptions{})
		files, err := snap.Files(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range files {
			out = append(out, f.Path)
		}
		return out
	}
	modes["store"] = stored("", All())
	modes["store hinted"] = stored(filepath.Join(t.TempDir(), "kb.sqlite"), Scope{Paths: tree})
	for m := range modes {
		slices.Sort(modes[m])
	}
	return modes
}

func checkEveryMode(t *testing.T, root string, l sourcefacts.Lister, want []string) {
	t.Helper()
	want = slices.Sorted(slices.Values(want))
	for mode, got := range listedInEveryMode(t, root, l) {
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", mode, d)
		}
	}
}

func TestBuildOutputVirtualEnvsAndCachesAreSkippedInEveryMode(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"Cargo.toml", "target/debug/gen.rs", "venv/pyvenv.cfg", "venv/lib/x/site-packages/y.py",
		"__pycache__/c.py", "src/lib.rs"} {
		writeFile(t, root, p, []byte("fn f() {}\n"))
	}
	checkEveryMode(t, root, sourcefacts.Lister{}, []string{"src/lib.rs"})
}

// ignoreFiles are ignore files that use every feature of git's patterns;
// ignoreCases are the source files beside them, and whether the ignore
// files keep them.
var ignoreFiles = map[string]string{
	".gitignore":        "# generated\n/gen.go\nbuild/\nmodels.py/\n/*.py\n!build/keep.go\n",
	".ignore":           "!tool.py\n",
	"sub/.gitignore":    "*.go\n!keep.go\n",
	"docs/.ignore":      "draft.go\n",
	"lib/.gitignore":    "/local.go\nnested/deep.go\n",
	".git/info/exclude": "secret.go\n",
}

var ignoreCases = []struct {
	path string
	kept bool
	why  string
}{
	{"a.go", true, "no pattern"},
	{"gen.go", false, "anchored /gen.go"},
	{"other/gen.go", true, "anchored /gen.go is only at the root"},
	{"build/x.go", false, "directory-only build/"},
	{"sub/build/y.go", false, "build/ at any depth"},
	{"build/keep.go", false, "!build/keep.go cannot re-include inside an excluded directory"},
	{"models.py/a.py", false, "directory-only models.py/"},
	{"pkg/models.py", true, "models.py/ does not match a file"},
	{"script.py", false, "anchored glob /*.py"},
	{"pkg/deep.py", true, "/*.py is only at the root"},
	{"tool.py", true, ".ignore's !tool.py overrides .gitignore"},
	{"sub/a.go", false, "nested *.go"},
	{"sub/keep.go", true, "nested negation !keep.go"},
	{"sub/deeper/c.go", false, "nested *.go applies below"},
	{"sub/deeper/keep.go", true, "nested !keep.go applies below"},
	{"docs/draft.go", false, "nested .ignore"},
	{"docs/final.go", true, "no pattern"},
	{"lib/local.go", false, "/local.go is relative to lib/"},
	{"lib/z/local.go", true, "/local.go is anchored in lib/"},
	{"lib/nested/deep.go", false, "nested/deep.go is relative to lib/"},
	{"nested/deep.go", true, "lib/'s patterns stay in lib/"},
	{"secret.go", false, ".git/info/exclude"},
	{"other/secret.go", false, ".git/info/exclude, unanchored"},
}

// ignoreTree writes ignoreFiles and ignoreCases under a new root and
// returns it with the files kept, and all the files.
func ignoreTree(t *testing.T) (root string, kept, all []string) {
	root = t.TempDir()
	for p, body := range ignoreFiles {
		writeFile(t, root, p, []byte(body))
	}
	for _, c := range ignoreCases {
		writeFile(t, root, c.path, []byte("package p\n"))
		all = append(all, c.path)
		if c.kept {
			kept = append(kept, c.path)
		}
	}
	return root, kept, all
}

func TestGitignoreIgnoreAndInfoExcludeAreHonouredInEveryMode(t *testing.T) {
	root, kept, _ := ignoreTree(t)
	checkEveryMode(t, root, sourcefacts.Lister{}, kept)
}

func TestIncludeIgnoredBringsBackWhatIgnoreFilesExcludeInEveryMode(t *testing.T) {
	root, _, all := ignoreTree(t)
	checkEveryMode(t, root, sourcefacts.Lister{IncludeIgnored: true}, all)
}

func TestHarnessWriteToAnIgnoredFileIndexesNothing(t *testing.T) {
	ctx := context.Background()
	root, _, _ := ignoreTree(t)
	s := openStore(t, root, &Options{Lister: sourcefacts.Lister{Match: isGoFile}})
	for _, p := range []string{"sub/a.go", "sub/keep.go"} {
		if err := s.MarkDirty(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	paths := func(fs []FileState) map[string]bool {
		m := map[string]bool{}
		for _, f := range fs {
			m[f.Path] = true
		}
		return m
	}
	check := func(when string, got map[string]bool) {
		t.Helper()
		if got["sub/a.go"] {
			t.Errorf("%s: the ignored sub/a.go is in the store", when)
		}
		if !got["sub/keep.go"] {
			t.Errorf("%s: sub/keep.go is not in the store", when)
		}
	}
	// SkipValidation: the views show what the journal and Flush did, not
	// what a validation would redo.
	notCurrent, err := snapshot(t, s, All(), SnapshotOptions{SkipValidation: true}).NotCurrent(ctx)
	if err != nil {
		t.Fatal(err)
	}
	check("dirty, not yet indexed", paths(notCurrent))
	if _, err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	files, err := snapshot(t, s, All(), SnapshotOptions{SkipValidation: true}).Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	check("flushed", paths(files))
	// Views filter by the lister too; the rows show what Flush stored.
	if n := presentRows(t, s, "sub/a.go"); n != 0 {
		t.Errorf("flushed: the ignored sub/a.go has %d present rows", n)
	}
	// A hinted snapshot reads only hinted paths the lister includes.
	writeFile(t, root, "sub/b.go", []byte("package p\n"))
	s.SourceChangeHint("sub/b.go")
	snapshot(t, s, All(), SnapshotOptions{Hinted: true})
	if n := presentRows(t, s, "sub/b.go"); n != 0 {
		t.Errorf("hinted: the ignored sub/b.go has %d present rows", n)
	}
}

// presentRows counts the store's present file rows for path.
func presentRows(t *testing.T, s *Store, path string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM files WHERE path = ? AND present = 1`, path).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestFilesNoLongerListedLeaveTheProject: a file indexed under a wider
// listing (ignored files included) leaves the next snapshot taken with the
// default listing, although its bytes are still on disk, and comes back
// when the listing widens again: the listing, not a past run, decides.
func TestFilesNoLongerListedLeaveTheProject(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.go", []byte("package a\nfunc A() {}\n"))
	writeFile(t, root, "secret/h.go", []byte("package s\nfunc Hidden() {}\n"))
	writeFile(t, root, ".gitignore", []byte("secret/\n"))
	ex, err := sourcefacts.NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ex.Close)
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	files := func(l sourcefacts.Lister) []string {
		s := openStore(t, root, &Options{DBPath: db, Extractor: ex, Lister: l})
		defer s.Close()
		fs, err := snapshot(t, s, All(), SnapshotOptions{}).Files(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range fs {
			out = append(out, f.Path)
		}
		return out
	}
	wide := sourcefacts.Lister{IncludeIgnored: true}
	for i, tc := range []struct {
		l    sourcefacts.Lister
		want []string
	}{{wide, []string{"a.go", "secret/h.go"}}, {sourcefacts.Lister{}, []string{"a.go"}}, {wide, []string{"a.go", "secret/h.go"}}} {
		if d := cmp.Diff(tc.want, files(tc.l)); d != "" {
			t.Fatalf("run %d (IncludeIgnored=%v) (-want +got):\n%s", i+1, tc.l.IncludeIgnored, d)
		}
	}
}
