package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// realSources maps project paths to the standard-library copies in
// testdata/src.
var realSources = map[string]string{
	"list/list.go":       "list.go.txt",
	"strings/builder.go": "builder.go.txt",
	"errors/wrap.go":     "wrap.go.txt",
	"sort/search.go":     "search.go.txt",
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "src", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// realTree writes the real sources into a new temporary project root.
func realTree(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	for p, name := range realSources {
		writeFile(t, root, p, readTestdata(t, name))
	}
	return root
}

func writeFile(t testing.TB, root, rel string, b []byte) {
	t.Helper()
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, root, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// countingExtractor counts extractions per path.
type countingExtractor struct {
	ex *sourcefacts.Extractor
	mu sync.Mutex
	n  map[string]int
}

func newCountingExtractor(t testing.TB) *countingExtractor {
	t.Helper()
	ex, err := sourcefacts.NewGoExtractor()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ex.Close)
	return &countingExtractor{ex: ex, n: map[string]int{}}
}

func (c *countingExtractor) Extract(ctx context.Context, path string, src []byte) (*sourcefacts.FileFacts, error) {
	c.mu.Lock()
	c.n[path]++
	c.mu.Unlock()
	return c.ex.Extract(ctx, path, src)
}

func (c *countingExtractor) count(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[path]
}

func openStore(t testing.TB, root string, opts *Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func snapshot(t testing.TB, s *Store, scope Scope, opts SnapshotOptions) *Snapshot {
	t.Helper()
	snap, err := s.Snapshot(context.Background(), scope, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { snap.Close() })
	return snap
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// fileMap returns path → FileState of a snapshot's files.
func fileMap(t testing.TB, snap *Snapshot) map[string]FileState {
	t.Helper()
	fs, err := snap.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]FileState{}
	for _, f := range fs {
		m[f.Path] = f
	}
	return m
}

// checkFingerprint verifies the snapshot's identity fingerprint against the
// hashes of its files.
func checkFingerprint(t testing.TB, snap *Snapshot) {
	t.Helper()
	fs, err := snap.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var e []PathHash
	for _, f := range fs {
		e = append(e, PathHash{Path: f.Path, Hash: f.Hash})
	}
	if got, want := Fingerprint(e), snap.Identity().Fingerprint; got != want {
		t.Fatalf("%s: files fingerprint to %016x", snap.Identity(), got)
	}
}

func asErr[T error](t testing.TB, err error) T {
	t.Helper()
	var target T
	if !errors.As(err, &target) {
		t.Fatalf("error %v (%T) is not a %T", err, err, target)
	}
	return target
}

// allocatedPerCheck settles s (an index, then a check) and returns the
// bytes the next runs checks of the whole project allocated, per check.
func allocatedPerCheck(t testing.TB, s *Store, runs int) uint64 {
	t.Helper()
	for range 2 { // index, then settle
		snapshot(t, s, All(), SnapshotOptions{})
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		snap, err := s.Snapshot(testCtx(t), All(), SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		snap.Close()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}
