// Command snapcheck measures the knowledge base's snapshot check — every
// file's bytes read and hashed, compared with the stored hashes — against
// the I/O floor of the same tree in the same run, and prints a markdown
// table:
//
//   - floor: the files the project lists (sourcefacts.Lister's policy,
//     every supported language) opened, read into a reused buffer and
//     hashed with xxhash64, on one goroutine and on GOMAXPROCS; "walk +
//     read" adds a plain directory walk (os.ReadDir of every directory,
//     no skip policy) in front, the least a check that must also find new
//     and removed files does;
//   - check, unchanged tree: store.Snapshot of the whole project
//     (validation by exact bytes: list, read, hash, compare, nothing to
//     publish), then Snapshot.Files, as project.Refresh does;
//   - check, one file edited: a function appended to one Go file
//     (-target), then the same (the edited file is extracted and
//     published);
//   - with -projectdb, the next answer after a one-file edit in a
//     long-lived project (rlm.Open once, then per run: edit, Search for the
//     new function, which the answer must hold): whole, and its snapshot
//     check and search index update (project.Stats). Its knowledge base
//     and search index are built on first use.
//
// The first run indexes the tree into -db (minutes on GOROOT/src); later
// runs reuse it. The tree is edited: give it a copy
// (cp -r "$(go env GOROOT)/src" /tmp/gosrc). It refuses a tree inside a
// toolchain installation.
//
//	go run ./bench/snapcheck -root /tmp/gosrc -db /tmp/gosrc-kb.sqlite -runs 15
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

func main() {
	root := flag.String("root", "", "tree to check (a copy: -edit changes it)")
	db := flag.String("db", "", "knowledge base file (built on first use)")
	runs := flag.Int("runs", 15, "measurements per row (median, min)")
	edit := flag.Bool("edit", true, "also measure a one-file edit")
	target := flag.String("target", "sort/sort.go", "the file the edits append to, relative to -root")
	projectDB := flag.String("projectdb", "", "also measure edit → Search in a long-lived project with this knowledge base file")
	cpuprofile := flag.String("cpuprofile", "", "only profile -runs checks into this file (of an unchanged tree, or with -edit of one file edited before each); with -projectdb, -runs edits → Search of the long-lived project")
	memprofile := flag.String("memprofile", "", "with -cpuprofile, also write the allocations of the profiled runs (every 4 KiB allocated sampled) to this file")
	flag.Parse()
	if *memprofile != "" {
		runtime.MemProfileRate = 4096
	}
	err := run(*root, *db, *target, *projectDB, *runs, *edit, *cpuprofile)
	if err == nil && *memprofile != "" {
		err = writeMemProfile(*memprofile)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "snapcheck:", err)
		os.Exit(1)
	}
}

func run(root, db, rel, projectDB string, runs int, edit bool, cpuprofile string) error {
	if root == "" || db == "" {
		return fmt.Errorf("-root and -db are required")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if project.InToolchain(abs) {
		return fmt.Errorf("%s is inside a toolchain installation: give a copy", abs)
	}
	ctx := context.Background()
	st, done, err := project.OpenStore(ctx, abs, db, sourcefacts.Lister{}, 0)
	if err != nil {
		return err
	}
	defer done()
	defer st.Close()
	t := time.Now()
	if err := check(ctx, st); err != nil { // index (first use) and settle
		return err
	}
	fmt.Fprintf(os.Stderr, "first check: %v\n", time.Since(t))
	paths, err := sourcefacts.Lister{}.List(ctx, abs)
	if err != nil {
		return err
	}
	target := filepath.Join(abs, filepath.FromSlash(rel))
	if !slices.Contains(paths, rel) {
		return fmt.Errorf("-target %s is not a listed file", rel)
	}
	seq := 0
	editCheck := func() error {
		seq++
		f, err := os.OpenFile(target, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		fmt.Fprintf(f, "\n// SnapcheckProbe%d is appended by bench/snapcheck.\nfunc SnapcheckProbe%d() int { return %d }\n", seq, seq, seq)
		if err := f.Close(); err != nil {
			return err
		}
		return check(ctx, st)
	}
	type row struct {
		name string
		f    func() error
	}
	rows := []row{
		{"floor: read + xxhash64 the listed files, 1 goroutine", func() error { _, err := readAll(abs, paths, 1); return err }},
		{fmt.Sprintf("floor: read + xxhash64 the listed files, %d goroutines", runtime.GOMAXPROCS(0)), func() error { _, err := readAll(abs, paths, runtime.GOMAXPROCS(0)); return err }},
		{fmt.Sprintf("floor: walk every directory + read + xxhash64, %d goroutines", runtime.GOMAXPROCS(0)), func() error {
			if err := walkDirs(abs); err != nil {
				return err
			}
			_, err := readAll(abs, paths, runtime.GOMAXPROCS(0))
			return err
		}},
		{"lister alone (sourcefacts.Lister.List)", func() error { _, err := sourcefacts.Lister{}.List(ctx, abs); return err }},
		{"check, unchanged tree (Snapshot + Files)", func() error { return check(ctx, st) }},
	}
	if edit {
		rows = append(rows, row{"check, one file edited (Snapshot + Files: extract, publish)", editCheck})
	}
	if cpuprofile != "" && projectDB != "" {
		return profileLived(ctx, abs, projectDB, target, runs, cpuprofile)
	}
	if cpuprofile != "" {
		// Profile only: the unchanged-tree check, runs times.
		stop, err := startProfile(cpuprofile)
		if err != nil {
			return err
		}
		defer stop()
		t := time.Now()
		defer func() { fmt.Fprintf(os.Stderr, "profiled %d checks in %v\n", runs, time.Since(t)) }()
		for range runs {
			if edit {
				err = editCheck()
			} else {
				err = check(ctx, st)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	var lp *lived
	if projectDB != "" {
		if lp, err = openLived(ctx, abs, projectDB, target); err != nil {
			return err
		}
		defer lp.p.Close()
		rows = append(rows, row{"one file edited → Search, long-lived project: whole", lp.search})
	}
	fmt.Printf("tree %s: %d files listed; GOMAXPROCS %d; load %s\n\n", abs, len(paths), runtime.GOMAXPROCS(0), loadavg())
	fmt.Println("| what | median (ms) | min (ms) |")
	fmt.Println("|---|---:|---:|")
	// Interleaved: every row once per round, so load changes touch all rows.
	ds := make([][]time.Duration, len(rows))
	for range runs {
		for i, r := range rows {
			t := time.Now()
			err := r.f()
			ds[i] = append(ds[i], time.Since(t))
			if err != nil {
				return fmt.Errorf("%s: %w", r.name, err)
			}
		}
	}
	for i, r := range rows {
		slices.Sort(ds[i])
		fmt.Printf("| %s | %.1f | %.1f |\n", r.name, ms(ds[i][len(ds[i])/2]), ms(ds[i][0]))
	}
	if lp != nil {
		for _, part := range []struct {
			name string
			ds   []time.Duration
		}{{"snapshot check", lp.check}, {"search index update", lp.build}} {
			slices.Sort(part.ds)
			fmt.Printf("| … of it: %s (project.Stats) | %.1f | %.1f |\n", part.name, ms(part.ds[len(part.ds)/2]), ms(part.ds[0]))
		}
	}
	fmt.Printf("\nload after: %s\n", loadavg())
	return nil
}

// lived is a long-lived project whose next answer after each edit is
// timed.
type lived struct {
	ctx          context.Context
	p            *rlm.Project
	target       string
	seq          int
	check, build []time.Duration
}

func openLived(ctx context.Context, root, db, target string) (*lived, error) {
	t := time.Now()
	p, err := rlm.Open(ctx, root, rlm.Options{DBPath: db})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "project open: %v\n", time.Since(t))
	return &lived{ctx: ctx, p: p, target: target}, nil
}

// profileLived profiles runs edits → Search of a long-lived project
// (after one unprofiled warm-up) and prints the medians of the whole and
// its parts.
func profileLived(ctx context.Context, root, db, target string, runs int, cpuprofile string) error {
	lp, err := openLived(ctx, root, db, target)
	if err != nil {
		return err
	}
	defer lp.p.Close()
	if err := lp.search(); err != nil {
		return err
	}
	lp.check, lp.build = nil, nil
	stop, err := startProfile(cpuprofile)
	if err != nil {
		return err
	}
	defer stop()
	var whole []time.Duration
	for range runs {
		t := time.Now()
		if err := lp.search(); err != nil {
			return err
		}
		whole = append(whole, time.Since(t))
	}
	for _, part := range []struct {
		name string
		ds   []time.Duration
	}{{"whole", whole}, {"snapshot check", lp.check}, {"search index update", lp.build}} {
		slices.Sort(part.ds)
		fmt.Fprintf(os.Stderr, "profiled %d edits → Search: %s median %.1f ms, min %.1f ms\n", runs, part.name, ms(part.ds[len(part.ds)/2]), ms(part.ds[0]))
	}
	return nil
}

// writeMemProfile writes the allocations sampled since the start to path.
func writeMemProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(pprof.Lookup("allocs").WriteTo(f, 0), f.Close())
}

// startProfile starts a CPU profile into the file path; stop ends it.
func startProfile(path string) (stop func(), err error) {
	prof, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(prof); err != nil {
		prof.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); prof.Close() }, nil
}

// search appends a function to the target and fails unless the next
// answer holds it.
func (l *lived) search() error {
	l.seq++
	name := fmt.Sprintf("SnapcheckProjectProbe%d", l.seq)
	f, err := os.OpenFile(l.target, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "\n// %s is appended by bench/snapcheck.\nfunc %s() int { return %d }\n", name, name, l.seq)
	if err := f.Close(); err != nil {
		return err
	}
	ans, err := l.p.Search(l.ctx, name, 10)
	if err != nil {
		return err
	}
	st := l.p.Stats()
	l.check, l.build = append(l.check, st.Check), append(l.build, st.Build)
	for _, h := range ans.Hits {
		if h.Symbol == name {
			return nil
		}
	}
	return fmt.Errorf("the answer to %s does not have it: not current", name)
}

// check validates the whole project by exact bytes and reads the files'
// states, as project.Refresh does.
func check(ctx context.Context, st *store.Store) error {
	sn, err := st.Snapshot(ctx, store.All(), store.SnapshotOptions{})
	if err != nil {
		return err
	}
	defer sn.Close()
	_, err = sn.Files(ctx)
	return err
}

// readAll opens, reads and hashes every file on workers goroutines, each
// reusing one buffer; it returns the XOR of the hashes.
func readAll(root string, paths []string, workers int) (uint64, error) {
	var (
		next  atomic.Int64
		acc   atomic.Uint64
		wg    sync.WaitGroup
		errMu sync.Mutex
		first error
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 64<<10)
			for {
				i := int(next.Add(1) - 1)
				if i >= len(paths) {
					return
				}
				f, err := os.Open(filepath.Join(root, filepath.FromSlash(paths[i])))
				if err == nil {
					buf, err = readInto(f, buf[:0])
					f.Close()
				}
				if err != nil {
					errMu.Lock()
					first = err
					errMu.Unlock()
					return
				}
				acc.Add(xxhash.Sum64(buf))
			}
		}()
	}
	wg.Wait()
	return acc.Load(), first
}

func readInto(f *os.File, buf []byte) ([]byte, error) {
	if fi, err := f.Stat(); err == nil && int(fi.Size())+1 > cap(buf) {
		buf = make([]byte, 0, int(fi.Size())+1)
	}
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, 4096)
		}
	}
}

// walkDirs reads every directory under root.
func walkDirs(dir string) error {
	es, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range es {
		if e.IsDir() {
			if err := walkDirs(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return string(b[:len(b)-1])
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
