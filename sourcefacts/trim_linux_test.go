//go:build linux && cgo

package sourcefacts

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// residentBytes is the process's resident set size (/proc/self/statm).
func residentBytes(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// TestFreedParserMemoryIsGivenBackToTheSystem parses large files on many
// threads at once, as a check does, and measures the resident memory the
// C heap keeps after the parsers freed theirs: ReleaseFreedCMemory gives
// most of it back.
func TestFreedParserMemoryIsGivenBackToTheSystem(t *testing.T) {
	e, err := NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var src strings.Builder
	src.WriteString("package big\n\n")
	for i := range 4000 {
		fmt.Fprintf(&src, "func f%d(a, b int) int { if a > b { return g%d(a) }; return b * %d }\n", i, i, i)
	}
	text := []byte(src.String())
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			runtime.LockOSThread() // a thread of its own: an arena of its own
			defer runtime.UnlockOSThread()
			if _, err := e.Extract(context.Background(), fmt.Sprintf("big%d.go", w), text); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	runtime.GC()
	before := residentBytes(t)
	ReleaseFreedCMemory()
	after := residentBytes(t)
	t.Logf("resident %d MB before, %d MB after", before>>20, after>>20)
	if before-after < 16<<20 {
		t.Errorf("resident %d MB before, %d MB after: under 16 MB given back", before>>20, after>>20)
	}
}
