package project

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// TestAnIndexOfAnEarlierFormatIsRemoved: a search index whose name ends
// in an earlier format than indexFormat (left by an earlier rlm: its
// format is never opened again) is removed with its -wal file, while the
// current snapshot's index and an earlier snapshot's of the current
// format are kept.
func TestAnIndexOfAnEarlierFormatIsRemoved(t *testing.T) {
	dir := t.TempDir()
	cur := store.Identity{Generation: 3, Fingerprint: 0xabc}
	prev := store.Identity{Generation: 2, Fingerprint: 0xdef}
	keep := []string{searchIndexName(cur, "none", false), searchIndexName(prev, "none", false)}
	old := searchIndexPrefix + "2-0000000000000def-none-f1.sqlite"
	if old == keep[1] {
		t.Fatalf("the old name %s is the current format's", old)
	}
	for _, n := range append(keep, old, old+"-wal") {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	removeOldSearchIndexes(dir, cur)
	for _, n := range keep {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s was removed: %v", n, err)
		}
	}
	for _, n := range []string{old, old + "-wal"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			t.Errorf("%s of an earlier format is still there", n)
		}
	}
}
