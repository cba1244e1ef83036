package sourcefacts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// List reads directories on several goroutines; Match, which need not be
// safe for concurrent use, is called from one at a time, and the result
// is the same, in the same order, as a walk on one goroutine.
func TestListCallsMatchFromOneGoroutineAtATimeAndListsInPathOrder(t *testing.T) {
	root := t.TempDir()
	var want []string
	for d := range 12 {
		for f := range 6 {
			rel := fmt.Sprintf("d%02d/sub%d/f%d.go", d, f%2, f)
			abs := filepath.Join(root, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(abs, []byte("package p\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			want = append(want, rel)
		}
	}
	slices.Sort(want)
	list := func(procs int) ([]string, int32) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var in, most atomic.Int32
		l := Lister{Match: func(p string) bool {
			n := in.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(200 * time.Microsecond) // a slow Match: overlaps show
			in.Add(-1)
			return true
		}}
		got, err := l.List(context.Background(), root)
		if err != nil {
			t.Fatal(err)
		}
		return got, most.Load()
	}
	one, _ := list(1)
	many, most := list(4)
	if most > 1 {
		t.Errorf("Match ran on %d goroutines at once", most)
	}
	if diff := cmp.Diff(want, one); diff != "" {
		t.Errorf("one goroutine (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, many); diff != "" {
		t.Errorf("several goroutines (-want +got):\n%s", diff)
	}
}
