package store

import (
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// TestALargeCheckGivesTheCHeapsFreeMemoryBack: a check that extracts at
// least trimAfterExtracting files gives the C heap's free memory back once
// (sourcefacts.ReleaseFreedCMemory); one that extracts a few edited files
// does not pay for it.
func TestALargeCheckGivesTheCHeapsFreeMemoryBack(t *testing.T) {
	root := t.TempDir()
	for i := range trimAfterExtracting {
		writeFile(t, root, fmt.Sprintf("p%d/f.go", i), []byte(fmt.Sprintf("package p%d\n\nfunc F%d() {}\n", i, i)))
	}
	s := openStore(t, root, &Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite")})
	var calls atomic.Int32
	s.releaseCMemory = func() bool { calls.Add(1); return true }
	snapshot(t, s, Scope{}, SnapshotOptions{})
	if n := calls.Load(); n != 1 {
		t.Fatalf("a check extracting %d files gave the C heap back %d times, want 1", trimAfterExtracting, n)
	}
	writeFile(t, root, "p0/f.go", []byte("package p0\n\nfunc F0() { F1() }\n"))
	snapshot(t, s, Scope{}, SnapshotOptions{})
	if n := calls.Load(); n != 1 {
		t.Errorf("a check extracting one edited file gave the C heap back (%d calls in all)", n)
	}
}
