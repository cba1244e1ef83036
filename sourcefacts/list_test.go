package sourcefacts

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"

	"github.com/google/go-cmp/cmp"
)

// treePaths returns every path under root (files, directories, links),
// slash-separated and relative, without skipping anything.
func treePaths(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != root {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkListAgreesWithIncludes lists root with l and checks that Includes
// says true for exactly the listed paths among every path of the tree.
// It returns the listed paths.
func checkListAgreesWithIncludes(t *testing.T, l Lister, root string) []string {
	t.Helper()
	listed, err := l.List(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	var included []string
	for _, p := range treePaths(t, root) {
		if l.Includes(root, p) {
			included = append(included, p)
		}
	}
	slices.Sort(included)
	if d := cmp.Diff(listed, included); d != "" {
		t.Errorf("Includes disagrees with List (-listed +included):\n%s", d)
	}
	return listed
}

func TestListerSkipsExactlyWhatThePolicyNames(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{
		"a.go": "", "notes.md": "", ".h.go": "", ".hid/d.go": "",
		".git/x.go": "", ".hg/x.go": "", ".svn/x.go": "", ".bzr/x.go": "", ".jj/x.go": "", ".rlm/x.go": "",
		"node_modules/n.js": "", "__pycache__/c.py": "", "testdata/t.go": "", "x/testdata/y.go": "",
		"vendor/v.go": "", "x/vendor/v2.go": "",
		"venv/pyvenv.cfg": "", "venv/lib/s.py": "",
		"conda/conda-meta/history": "", "conda/lib/s.py": "",
		"crate/Cargo.toml": "", "crate/target/t.rs": "",
		"c/build/CMakeCache.txt": "", "c/build/g.c": "",
		"tagged/target/CACHEDIR.TAG": "", "tagged/target/t.go": "",
		"go/build/build.go": "", "go/target/t.go": "", // named build/target, but not build output
		"plain/pyvenv.cfg.d/p.py": "", // not a virtual environment
	})
	base := []string{"a.go", "go/build/build.go", "go/target/t.go", "plain/pyvenv.cfg.d/p.py"}
	tests := []struct {
		name string
		l    Lister
		want []string
	}{
		{"defaults", Lister{}, base},
		{"hidden, never VCS or .rlm", Lister{IncludeHidden: true}, append([]string{".h.go", ".hid/d.go"}, base...)},
		{"vendor", Lister{IncludeVendor: true}, append(slices.Clone(base), "vendor/v.go", "x/vendor/v2.go")},
		{"build dirs and virtual environments", Lister{IncludeBuildDirs: true},
			append(slices.Clone(base), "c/build/g.c", "conda/lib/s.py", "crate/target/t.rs", "tagged/target/t.go", "venv/lib/s.py")},
		{"match", Lister{Match: func(p string) bool { return strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".toml") }},
			[]string{"crate/Cargo.toml", "notes.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkListAgreesWithIncludes(t, tt.l, root)
			want := slices.Sorted(slices.Values(tt.want))
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("List (-want +got):\n%s", d)
			}
		})
	}
}

func TestIncludesJudgesPathsThatDoNotExistAndRejectsUncleanOnes(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{".gitignore": "out/\n", "crate/Cargo.toml": "", "real/x.go": "", "file.go": "", "dir.go/a.go": ""})
	if err := os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want bool
	}{
		{"new/x.go", true},
		{"new/deeper/x.py", true},
		{"vendor/new.go", false},
		{"out/new.go", false},
		{"crate/target/new.rs", false},
		{"new/notes.txt", false},
		{"real/x.go", true},
		{"linked/x.go", false}, // List does not follow links to directories
		{"file.go/x.go", false},
		{"dir.go", false}, // a directory, though named like a source file
		{"", false},
		{".", false},
		{"../x.go", false},
		{"/abs.go", false},
		{"a//b.go", false},
		{"a/./b.go", false},
		{"a/", false},
	}
	for _, tt := range tests {
		if got := (Lister{}).Includes(root, tt.path); got != tt.want {
			t.Errorf("Includes(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestIgnoreFilesThatAreLinksOrTooLargeAreTreatedAsAbsent(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{
		"rules":            "*.go\n",
		"big/.gitignore":   "*.go\n" + strings.Repeat("#\n", MaxIgnoreFileBytes/2),
		"big/a.go":         "",
		"link/a.go":        "",
		"small/.gitignore": "*.go\n",
		"small/a.go":       "",
	})
	if err := os.Symlink(filepath.Join(root, "rules"), filepath.Join(root, "link", ".gitignore")); err != nil {
		t.Fatal(err)
	}
	got := checkListAgreesWithIncludes(t, Lister{}, root)
	if d := cmp.Diff([]string{"big/a.go", "link/a.go"}, got); d != "" {
		t.Errorf("List (-want +got):\n%s", d)
	}
}

// randomTree fills root with a random tree drawn from names that trigger
// every rule of the policy: skipped and look-alike directory names, build
// manifests and markers (and names that differ from them in case, or
// have a byte past ASCII), ignore files with negations, anchors, globs and
// directory-only patterns, links to files and directories, dangling
// links, and directories named like source files.
func randomTree(t *testing.T, rng *rand.Rand, root string) {
	t.Helper()
	dirNames := []string{"a", "b", "sub", "keep", "lib", "gen", "vendor", "target", "build", "testdata", "node_modules",
		"__pycache__", ".hidden", ".git", ".rlm", "venv", "conda-meta", "dir.go"}
	fileNames := []string{"a.go", "b.py", "keep.go", "gen.go", ".h.go", "x.txt", "main.rs", "c.c",
		"Cargo.toml", "pyvenv.cfg", "CACHEDIR.TAG", "CMakeCache.txt", "package.json", "PyVenv.cfg", ".GitIgnore", "ſetup.py"}
	patterns := []string{"*.go", "!keep.go", "/gen.go", "build/", "gen", "sub/", "!sub", "a/*.py", "**/b.py", "/a",
		"*.py", "!*.py", "keep/", "lib/**", "# comment", "", "dir.go", "!gen.go", "target", ".hidden/", "  ", "*.rs\r",
		"x.txt", "!a.go"}
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ignoreFile := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			b.WriteString(patterns[rng.IntN(len(patterns))] + "\n")
		}
		return b.String()
	}
	var dirs, files []string
	var fill func(dir string, depth int)
	fill = func(dir string, depth int) {
		join := func(name string) string { return strings.TrimPrefix(dir+"/"+name, "/") }
		dirs = append(dirs, dir)
		for range rng.IntN(5) {
			p := join(fileNames[rng.IntN(len(fileNames))])
			write(p, "x\n")
			files = append(files, p)
		}
		for _, name := range []string{".gitignore", ".ignore"} {
			if rng.IntN(3) == 0 {
				write(join(name), ignoreFile())
			}
		}
		if depth < 3 {
			n := rng.IntN(4)
			if depth == 0 {
				n += 3
			}
			for range n {
				sub := join(dirNames[rng.IntN(len(dirNames))])
				if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(sub)), 0o755); err != nil {
					t.Fatal(err)
				}
				fill(sub, depth+1)
			}
		}
	}
	fill("", 0)
	if rng.IntN(2) == 0 {
		write(".git/info/exclude", ignoreFile())
	}
	// Links: to a file, to a directory, and dangling, named like sources.
	for i := range 3 {
		dir := dirs[rng.IntN(len(dirs))]
		at := filepath.Join(root, filepath.FromSlash(dir))
		var target string
		switch i {
		case 0:
			if len(files) == 0 {
				continue
			}
			target = filepath.Join(root, filepath.FromSlash(files[rng.IntN(len(files))]))
		case 1:
			target = filepath.Join(root, filepath.FromSlash(dirs[rng.IntN(len(dirs))]))
		case 2:
			target = filepath.Join(root, "nowhere")
		}
		name := fmt.Sprintf("link%d.go", i)
		if i == 1 {
			name = "linkdir"
		}
		if err := os.Symlink(target, filepath.Join(at, name)); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
	}
}

func TestIncludesAgreesWithListForEveryPathOfRandomTrees(t *testing.T) {
	everything := func(string) bool { return true }
	var sawIgnored, sawSkipped bool
	for seed := range uint64(20) {
		root := t.TempDir()
		randomTree(t, rand.New(rand.NewPCG(seed, 7)), root)
		for opts := range 32 {
			l := Lister{
				IncludeHidden:    opts&1 != 0,
				IncludeVendor:    opts&2 != 0,
				IncludeBuildDirs: opts&4 != 0,
				IncludeIgnored:   opts&8 != 0,
			}
			if opts&16 != 0 {
				l.Match = everything
			}
			t.Run(fmt.Sprintf("seed %d options %05b", seed, opts), func(t *testing.T) {
				listed := checkListAgreesWithIncludes(t, l, root)
				all := checkListAgreesWithIncludes(t, Lister{Match: l.Match, IncludeHidden: true, IncludeVendor: true,
					IncludeBuildDirs: true, IncludeIgnored: true}, root)
				unignored := l
				unignored.IncludeIgnored = true
				sawIgnored = sawIgnored || len(checkListAgreesWithIncludes(t, unignored, root)) > len(listed)
				sawSkipped = sawSkipped || len(all) > len(listed)
			})
		}
	}
	if !sawIgnored || !sawSkipped {
		t.Errorf("the random trees never exercised ignore files (%v) or the skip list (%v)", sawIgnored, sawSkipped)
	}
}

// TestLinksToFilesOutsideTheRootAreNotListed: a symbolic link to a file
// outside the tree (a credentials file, /etc/passwd) is neither listed nor
// included, directly or through a chain of links; a link to a file inside
// the tree is, also when the root itself is reached through a link.
func TestLinksToFilesOutsideTheRootAreNotListed(t *testing.T) {
	outside := t.TempDir()
	testfixture.WriteFiles(t, outside, map[string]string{"credentials.py": "aws_secret_access_key = 'x'\n"})
	base := t.TempDir()
	root := filepath.Join(base, "root")
	testfixture.WriteFiles(t, root, map[string]string{"pkg/a.py": "def a(): pass\n"})
	for link, target := range map[string]string{
		"pkg/creds.py":    filepath.Join(outside, "credentials.py"),
		"pkg/hop.py":      filepath.Join(root, "pkg", "creds.py"), // inside, but leads outside
		"pkg/dotdot.py":   "../../" + filepath.Base(outside) + "/credentials.py",
		"pkg/inside.py":   filepath.Join(root, "pkg", "a.py"),
		"pkg/relative.py": "a.py",
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	viaLink := filepath.Join(base, "via")
	if err := os.Symlink(root, viaLink); err != nil {
		t.Fatal(err)
	}
	want := []string{"pkg/a.py", "pkg/inside.py", "pkg/relative.py"}
	for _, r := range []string{root, viaLink} {
		got, err := (Lister{}).List(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("List(%s) (-want +got):\n%s", r, d)
		}
		for _, p := range []string{"pkg/creds.py", "pkg/hop.py", "pkg/dotdot.py"} {
			if (Lister{}).Includes(r, p) {
				t.Errorf("Includes(%s, %q) = true for a link out of the tree", r, p)
			}
		}
	}
}

func TestListerListsScriptsByContentAndAgreesWithIncludes(t *testing.T) {
	root := filepath.Join("testdata", "kinds", "scripts")
	tests := []struct {
		name string
		l    Lister
		want []string
	}{
		// README has no #! line or mode line; deploy is a bash script,
		// listed to be recorded as skipped.
		{"every language", Lister{}, []string{"deploy", "release", "serve", "tasks", "watch"}},
		{"Ruby only", Lister{Languages: []string{LangRuby}}, []string{"serve", "tasks"}},
		{"Go only", Lister{Languages: []string{LangGo}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, checkListAgreesWithIncludes(t, tt.l, root)); d != "" {
				t.Errorf("List (-want +got):\n%s", d)
			}
		})
	}
}
