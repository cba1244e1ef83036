package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// A file hashed chunk by chunk (hashSourceInto, validation's read of a
// large file) has the hash, the stat and the missing or error state that
// reading it whole (readSourceInto) gives: sizes on either side of the
// chunk and of a buffer given, from no buffer, a small one and a large
// one; a file that is absent, a directory or a FIFO is missing. The
// buffer handed back is never larger than the one given, or hashChunk.
func TestAFileHashedInChunksIsHashedAsWhenReadWhole(t *testing.T) {
	dir := t.TempDir()
	sizes := []int{0, 1, 4095, 4096, 4097, hashChunk - 1, hashChunk, hashChunk + 1, 2*hashChunk + 4096, 3*hashChunk + 7, maxPooledRead + 13}
	type seen struct {
		Hash    sourcefacts.ContentHash
		St      statInfo
		StOK    bool
		Missing bool
		Err     string
	}
	seenOf := func(r *readResult) seen {
		s := seen{Hash: r.hash, St: r.st, StOK: r.stOK, Missing: r.missing}
		if r.err != nil {
			s.Err = r.err.Error()
		}
		return s
	}
	var names []string
	for _, n := range sizes {
		name := fmt.Sprintf("f%d.go", n)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + (i*7+n)%26)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if err := os.Mkdir(filepath.Join(dir, "dir.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	names = append(names, "dir.go", "absent.go")
	if mkfifo(filepath.Join(dir, "pipe.go")) == nil {
		names = append(names, "pipe.go")
	}
	for _, name := range names {
		abs := filepath.Join(dir, name)
		whole, _ := readSourceInto(abs, 1<<30, nil)
		if whole.missing != (name == "dir.go" || name == "absent.go" || name == "pipe.go") || whole.err != nil {
			t.Fatalf("%s read whole: missing %v, err %v", name, whole.missing, whole.err)
		}
		for _, given := range []int{0, 100, hashChunk + 5, 4 * hashChunk} {
			r, buf := hashSourceInto(abs, make([]byte, 0, given))
			if diff := cmp.Diff(seenOf(whole), seenOf(r)); diff != "" {
				t.Errorf("%s through a buffer of %d bytes (-read whole +in chunks):\n%s", name, given, diff)
			}
			if r.src != nil || r.tooLarge {
				t.Errorf("%s through a buffer of %d bytes: kept %d bytes (tooLarge %v)", name, given, len(r.src), r.tooLarge)
			}
			if bound := max(given, hashChunk); cap(buf) > bound {
				t.Errorf("%s through a buffer of %d bytes: handed back %d bytes of buffer, more than %d", name, given, cap(buf), bound)
			}
		}
	}
}

// largeSource is a Go file of more than maxPooledRead bytes declaring
// func name, its last line.
func largeSource(name string) []byte {
	var b bytes.Buffer
	b.WriteString("package big\n\n")
	for b.Len() <= maxPooledRead+hashChunk {
		b.WriteString("// padding: a large file, hashed in chunks when it has not changed.\n")
	}
	fmt.Fprintf(&b, "func %s() {}\n", name)
	return b.Bytes()
}

// A large file edited in place past its first chunks — the same size,
// the same modification time — is seen: its new bytes are read whole and
// extracted. And a warm check of unchanged large files allocates no
// buffer of their size.
func TestALargeFileIsCheckedByItsBytesWithoutABufferOfItsSize(t *testing.T) {
	root := t.TempDir()
	const files = 4
	for i := range files {
		writeFile(t, root, fmt.Sprintf("big%d.go", i), largeSource(fmt.Sprintf("Old%d", i)))
	}
	s := openStore(t, root, &Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite"), Extractor: newCountingExtractor(t)})
	size := len(largeSource("Old0"))
	if perCheck := allocatedPerCheck(t, s, 3); perCheck > uint64(size) {
		t.Errorf("a warm check of %d unchanged files of %d KB allocated %d KB: a buffer of a file's size", files, size>>10, perCheck>>10)
	}

	for _, i := range []int{1, 3} {
		p := fmt.Sprintf("big%d.go", i)
		rewriteInPlace(t, root, p, largeSource(fmt.Sprintf("New%d", i)))
	}
	snap := snapshot(t, s, All(), SnapshotOptions{})
	for i := range files {
		r, err := snap.Facts(testCtx(t), fmt.Sprintf("big%d.go", i))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, sym := range r.Facts.Symbols {
			names = append(names, sym.Name)
		}
		want := fmt.Sprintf("Old%d", i)
		if i == 1 || i == 3 {
			want = fmt.Sprintf("New%d", i)
		}
		if strings.Join(names, ",") != want {
			t.Errorf("big%d.go: symbols %v, want [%s]", i, names, want)
		}
	}
	if err := s.Verify(testCtx(t)); err != nil {
		t.Fatal(err)
	}
}
