//go:build unix

package store

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// TestASourceIsReadAsTheFileSystemHasIt: validation's reads (openSource)
// give every byte of a file, its hash, and the stat an *os.File gives
// (what TrustStat later compares with os.Stat); a file that is not there,
// a directory and a FIFO are missing (never read, never waited on); a
// file over the size cap is hashed whole; a link to a file is read
// through.
func TestASourceIsReadAsTheFileSystemHasIt(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := strings.Repeat("package p // large\n", 20000)
	files := map[string]string{
		"empty.go": "",
		"small.go": "package p\n",
		"big.go":   big,
	}
	for name, text := range files {
		write(name, text)
	}
	if err := os.Symlink(filepath.Join(dir, "small.go"), filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	files["link.go"] = files["small.go"]
	for name, text := range files {
		abs := filepath.Join(dir, name)
		for _, buf := range [][]byte{nil, make([]byte, 0, 4)} { // grown from too small a buffer
			r, _ := readSourceInto(abs, 1<<30, buf)
			if r.err != nil || r.missing || string(r.src) != text || r.hash != sourcefacts.HashBytes([]byte(text)) {
				t.Errorf("%s: read %d bytes, hash %v, err %v, missing %v; want %d bytes", name, len(r.src), r.hash, r.err, r.missing, len(text))
			}
			fi, err := os.Stat(abs)
			if err != nil {
				t.Fatal(err)
			}
			if !r.stOK || r.st != statOf(fi) {
				t.Errorf("%s: stat %+v (ok %v), os.Stat gives %+v", name, r.st, r.stOK, statOf(fi))
			}
		}
	}
	capped, _ := readSourceInto(filepath.Join(dir, "big.go"), 100, nil)
	if !capped.tooLarge || capped.hash != sourcefacts.HashBytes([]byte(big)) || capped.err != nil {
		t.Errorf("over the cap: tooLarge %v, hash %v (want %v), err %v", capped.tooLarge, capped.hash, sourcefacts.HashBytes([]byte(big)), capped.err)
	}
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "dir.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"absent.go", "pipe.go", "dir.go"} {
		r, _ := readSourceInto(filepath.Join(dir, name), 1<<30, nil)
		if diff := cmp.Diff(readResult{missing: true}, readResult{missing: r.missing, err: r.err, src: r.src, hash: r.hash}, cmp.AllowUnexported(readResult{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}
