package store

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A warm check hashes every file; the bytes of a file that still matches
// its row are not kept, so their buffers are reused, and a changed file's
// facts still come from its own new bytes.
func TestAWarmCheckOfAnUnchangedTreeReusesItsReadBuffers(t *testing.T) {
	root := t.TempDir()
	const files, size = 40, 64 << 10
	body := func(name string) []byte {
		pad := strings.Repeat("// padding padding padding padding padding padding padding\n", size/60)
		return []byte(fmt.Sprintf("package p\n\n%sfunc %s() {}\n", pad, name))
	}
	for i := range files {
		writeFile(t, root, fmt.Sprintf("f%02d.go", i), body(fmt.Sprintf("Old%02d", i)))
	}
	s := openStore(t, root, &Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite"), Extractor: newCountingExtractor(t)})
	perCheck := allocatedPerCheck(t, s, 3)
	if total := uint64(files * size); perCheck > total/4 { // measured 134–192 KB of 2560 KB
		t.Errorf("a warm check of %d unchanged files (%d KB) allocated %d KB: the read buffers are not reused", files, total>>10, perCheck>>10)
	}

	// Changed files (same size, new bytes) are extracted from their new bytes.
	for _, i := range []int{3, 17, 31} {
		writeFile(t, root, fmt.Sprintf("f%02d.go", i), body(fmt.Sprintf("New%02d", i)))
	}
	snap := snapshot(t, s, All(), SnapshotOptions{})
	for _, i := range []int{3, 17, 31} {
		r, err := snap.Facts(testCtx(t), fmt.Sprintf("f%02d.go", i))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, sym := range r.Facts.Symbols {
			names = append(names, sym.Name)
		}
		if want := fmt.Sprintf("New%02d", i); len(names) != 1 || names[0] != want {
			t.Errorf("f%02d.go: symbols %v, want [%s]", i, names, want)
		}
	}
}
