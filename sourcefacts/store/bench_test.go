package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/cespare/xxhash/v2"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// Benchmarks run over $RLM_BENCH_TREE, default $(go env GOROOT)/src/net/http:
//
//	go test ./sourcefacts/store/ -run '^$' -bench . -benchtime 5x
//
// The tree is only read; edits happen in a copy. BenchmarkColdIndex reports
// the database size per MB of source (dbKB/MBsrc).

var (
	benchOnce sync.Once
	benchDir  string
	benchEx   *sourcefacts.Extractor
	benchErr  error // from NewGoExtractor
)

func benchTree(b *testing.B) string {
	benchOnce.Do(func() {
		benchDir = os.Getenv("RLM_BENCH_TREE")
		if benchDir == "" {
			goroot := runtime.GOROOT() //nolint:staticcheck // fallback below
			if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
				goroot = strings.TrimSpace(string(out))
			}
			benchDir = filepath.Join(goroot, "src", "net", "http")
		}
		benchEx, benchErr = sourcefacts.NewGoExtractor()
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	if _, err := os.Stat(benchDir); err != nil {
		b.Skip("no benchmark tree:", err)
	}
	return benchDir
}

func benchOpts(dir string) *Options {
	return &Options{DBPath: filepath.Join(dir, "kb.sqlite"), Extractor: benchEx, ExtractorVersion: sourcefacts.ExtractorVersion}
}

// treeFiles lists the tree's Go files and their total size in bytes.
func treeFiles(b *testing.B, root string) ([]string, int64) {
	paths, err := sourcefacts.Lister{Match: isGoFile}.List(context.Background(), root)
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for _, p := range paths {
		fi, err := os.Stat(filepath.Join(root, p))
		if err != nil {
			b.Fatal(err)
		}
		n += fi.Size()
	}
	return paths, n
}

func BenchmarkColdIndex(b *testing.B) {
	root := benchTree(b)
	paths, size := treeFiles(b, root)
	ctx := context.Background()
	b.SetBytes(size)
	var st Stats
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		b.StartTimer()
		s, err := Open(ctx, root, benchOpts(dir))
		if err != nil {
			b.Fatal(err)
		}
		snap, err := s.Snapshot(ctx, All(), SnapshotOptions{})
		if err != nil {
			b.Fatal(err)
		}
		snap.Close()
		b.StopTimer()
		if st, err = s.Stats(ctx); err != nil {
			b.Fatal(err)
		}
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(len(paths)), "files")
	b.ReportMetric(float64(st.DBBytes)/1024/(float64(size)/1e6), "dbKB/MBsrc")
	b.ReportMetric(float64(st.Symbols+st.References+st.Imports), "facts")
}

func BenchmarkWarmSnapshotUnchanged(b *testing.B) {
	root := benchTree(b)
	paths, size := treeFiles(b, root)
	ctx := context.Background()
	s, err := Open(ctx, root, benchOpts(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for range 2 { // index, then settle the stat cache
		snap, err := s.Snapshot(ctx, All(), SnapshotOptions{})
		if err != nil {
			b.Fatal(err)
		}
		snap.Close()
	}
	snapBench := func(opts SnapshotOptions) func(b *testing.B) {
		return func(b *testing.B) {
			b.SetBytes(size)
			gen := int64(-1)
			for b.Loop() {
				snap, err := s.Snapshot(ctx, All(), opts)
				if err != nil {
					b.Fatal(err)
				}
				if g := snap.Identity().Generation; gen >= 0 && g != gen {
					b.Fatalf("unchanged tree published generation %d", g)
				} else {
					gen = g
				}
				snap.Close()
			}
		}
	}
	b.Run("store", snapBench(SnapshotOptions{}))
	b.Run("store-require-current", snapBench(SnapshotOptions{RequireCurrent: true}))
	b.Run("store-trust-stat", snapBench(SnapshotOptions{TrustStat: true}))
	b.Run("store-skip-validation", snapBench(SnapshotOptions{SkipValidation: true}))
	// The floor any exact-bytes validation pays: list, read every byte.
	b.Run("baseline-read-all-bytes", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			ps, err := sourcefacts.Lister{Match: isGoFile}.List(ctx, root)
			if err != nil || len(ps) != len(paths) {
				b.Fatal(err)
			}
			var h uint64
			for _, p := range ps {
				src, err := os.ReadFile(filepath.Join(root, p))
				if err != nil {
					b.Fatal(err)
				}
				h ^= xxhash.Sum64(src)
			}
			_ = h
		}
	})
}

// copyTree copies the tree's Go files into a new directory.
func copyTree(b *testing.B, root string) (string, []string) {
	paths, _ := treeFiles(b, root)
	dst := b.TempDir()
	for _, p := range paths {
		src, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			b.Fatal(err)
		}
		writeFile(b, dst, p, src)
	}
	return dst, paths
}

func BenchmarkOneFileEditToFreshSnapshot(b *testing.B) {
	root := benchTree(b)
	ctx := context.Background()
	dir, paths := copyTree(b, root)
	// Edit a mid-sized file.
	rel := paths[0]
	for _, p := range paths {
		if strings.HasSuffix(p, "/server.go") || p == "server.go" || p == "client.go" {
			rel = p
			break
		}
	}
	s, err := Open(ctx, dir, benchOpts(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	snap, err := s.Snapshot(ctx, All(), SnapshotOptions{})
	if err != nil {
		b.Fatal(err)
	}
	snap.Close()
	base := readFile(b, dir, rel)
	i := 0
	edit := func() {
		i++
		writeFile(b, dir, rel, fmt.Appendf(append([]byte(nil), base...), "\nfunc benchEdit%d() {}\n", i))
	}
	fresh := func(b *testing.B, opts SnapshotOptions, hint bool) {
		var last int64
		for b.Loop() {
			edit()
			if hint {
				s.SourceChangeHint(rel)
			}
			snap, err := s.Snapshot(ctx, All(), opts)
			if err != nil {
				b.Fatal(err)
			}
			if g := snap.Identity().Generation; g == last {
				b.Fatal("edit not published")
			} else {
				last = g
			}
			snap.Close()
		}
	}
	b.Run("full-validation", func(b *testing.B) { fresh(b, SnapshotOptions{}, false) })
	b.Run("trust-stat", func(b *testing.B) { fresh(b, SnapshotOptions{TrustStat: true}, false) })
	b.Run("hinted", func(b *testing.B) { fresh(b, SnapshotOptions{Hinted: true}, true) })
	b.Run("apply-patch-flush", func(b *testing.B) {
		h := sourcefacts.HashBytes(readFile(b, dir, rel))
		for b.Loop() {
			var err error
			h, err = s.ApplyPatch(ctx, rel, h, Patch{Edits: []Edit{{Start: 0, End: 0, Text: []byte("// edit\n")}}})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.Flush(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Logf("edited %s (%d bytes) in a tree of %d files", rel, len(base), len(paths))
}
