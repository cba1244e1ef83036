package project

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// TestAnIndexTakenBeforeItIsOpenedIsMadeAgain: a search index just renamed
// into place is free until this project locks it; another project may
// take it then as the base of a newer snapshot's index (renaming it
// away). Open makes it again instead of failing with "file does not
// exist" (seen as a flake of TestConcurrentOpensOfOneRootAllSucceed).
func TestAnIndexTakenBeforeItIsOpenedIsMadeAgain(t *testing.T) {
	root := t.TempDir()
	for i := range 5 {
		src := fmt.Sprintf("package p\n\n// F%d is function number %d.\nfunc F%d() {}\n", i, i, i)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%d.go", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		takes     int // how many of the made indexes another project takes
		wantCalls int
		wantErr   bool
	}{
		{takes: 1, wantCalls: 2},
		{takes: indexAttempts - 1, wantCalls: indexAttempts},
		{takes: indexAttempts, wantCalls: indexAttempts, wantErr: true},
	} {
		t.Run(fmt.Sprint("taken ", tc.takes), func(t *testing.T) {
			calls := 0
			opts := Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite")}
			opts.madeIndex = func(path string) {
				calls++
				if calls <= tc.takes {
					if err := os.Rename(path, path+".taken"); err != nil {
						t.Fatal(err)
					}
				}
			}
			p, err := Open(context.Background(), root, opts)
			if calls != tc.wantCalls {
				t.Errorf("made the index %d times, want %d", calls, tc.wantCalls)
			}
			if tc.wantErr {
				if err == nil {
					p.Close()
					t.Fatal("Open succeeded though every index it made was taken")
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer p.Close()
			var hits []retrieval.Hit
			err = p.View(func(b retrieval.Backend, _ store.Identity) error {
				var err error
				hits, err = b.Search(context.Background(), retrieval.Request{Strategy: retrieval.Exact, Name: "F3"})
				return err
			})
			if err != nil || len(hits) != 1 {
				t.Fatalf("search after the index was made again: %d hits, %v", len(hits), err)
			}
		})
	}
}
