//go:build linux

package sourcefacts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/nonroot"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

// A directory whose entries cannot be read is still probed for every
// name: a virtual environment or build output that can be searched but
// not read is skipped, not recorded as a fault, as Includes judges it.
func TestADirectoryThatCannotBeReadIsStillProbedForEveryName(t *testing.T) {
	nonroot.Run(t, func(t *testing.T) {
		root := t.TempDir()
		testfixture.WriteFiles(t, root, map[string]string{
			"a.go": "package p\n", "venv/pyvenv.cfg": "", "venv/lib/s.py": "",
			"crate/Cargo.toml": "", "crate/target/CACHEDIR.TAG": "", "crate/target/t.rs": "",
		})
		for _, d := range []string{"venv", "crate/target"} {
			p := filepath.Join(root, filepath.FromSlash(d))
			if err := os.Chmod(p, 0o311); err != nil { // searchable, not readable
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(p, 0o755) })
		}
		listed, err := Lister{}.List(t.Context(), root)
		if err != nil {
			t.Fatalf("List: %v", err)
		}
		if d := cmp.Diff([]string{"a.go"}, listed); d != "" {
			t.Errorf("List (-want +got):\n%s", d)
		}
		for _, p := range []string{"venv/lib/s.py", "crate/target/t.rs"} {
			if (Lister{}).Includes(root, p) {
				t.Errorf("Includes(%s) = true", p)
			}
		}
	})
}
