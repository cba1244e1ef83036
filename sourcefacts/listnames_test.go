package sourcefacts

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A directory is probed only for the names its entries may hold: a
// probed name in ASCII letters of either case (a file system that ignores
// case finds it under the probe's spelling), never a longer name that
// begins with one; any name with a byte past ASCII (which such a file
// system may fold to a probed name) makes every probe.
func TestADirectoryIsProbedOnlyForTheNamesItsEntriesMayHold(t *testing.T) {
	var probed []string
	for n := range probedNames {
		probed = append(probed, n)
	}
	slices.Sort(probed)
	tests := []struct {
		name    string
		entries []string
		want    []string // "*": every probed name
	}{
		{"empty", nil, nil},
		{"sources only", []string{"a.go", "b", "sort.go", "z_test.go"}, nil},
		{"an ignore file", []string{"a.go", ".gitignore"}, []string{".gitignore"}},
		{"both ignore files", []string{".ignore", ".gitignore"}, []string{".gitignore", ".ignore"}},
		{"other cases", []string{".GitIgnore", "PYVENV.CFG", "Conda-Meta", "cachedir.tag", "CMAKECACHE.TXT", "CARGO.TOML"},
			[]string{".gitignore", "cachedir.tag", "cargo.toml", "cmakecache.txt", "conda-meta", "pyvenv.cfg"}},
		{"every manifest", []string{"Cargo.toml", "pom.xml", "build.gradle", "build.gradle.kts", "build.sbt", "setup.py",
			"pyproject.toml", "CMakeLists.txt", "meson.build", "package.json"},
			[]string{"build.gradle", "build.gradle.kts", "build.sbt", "cargo.toml", "cmakelists.txt", "meson.build",
				"package.json", "pom.xml", "pyproject.toml", "setup.py"}},
		{"longer names that begin with probed ones", []string{"build.gradle.kts.bak", ".gitignore~", "pyvenv.cfg.d", "xsetup.py"}, nil},
		{"a name past ASCII", []string{"a.go", "ſetup.py"}, []string{"*"}},
		{"a long name past ASCII", []string{"a.go", strings.Repeat("é", 30) + ".go"}, []string{"*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, e := range tt.entries {
				if err := os.WriteFile(filepath.Join(dir, e), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			entries, _, err := readDirEntries(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			names := namesOf(entries)
			var got []string
			for _, p := range probed {
				if names.may(p) {
					got = append(got, p)
				}
			}
			want := tt.want
			if slices.Equal(want, []string{"*"}) {
				want = probed
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("probed names the directory may hold (-want +got):\n%s", d)
			}
		})
	}
}
