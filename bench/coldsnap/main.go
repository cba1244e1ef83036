// Command coldsnap measures the snapshot phase of a cold index alone: a
// new knowledge base (project.OpenStore, every supported language), one
// store.Snapshot of the whole tree — list, read, hash, extract on every
// core, then the one publish transaction — and Snapshot.Files, as
// project.Refresh runs them; no search index. It prints one line: the
// wall time and the process's CPU time (user + system, getrusage), each
// split at the moment the last file was extracted (the check's last
// progress report) into extraction and publish:
//
//	SNAP wall W s (extract E, publish+files P) cpu C s (extract CE publish CP) files N gen G
//
// On a machine shared with other jobs the CPU split is the steadier
// measure. -cpuprofile and -memprofile write profiles of the run.
//
//	go build -o /tmp/coldsnap ./bench/coldsnap
//	/usr/bin/time -f "TIME %e %U %S %M" /tmp/coldsnap -root /tmp/gosrc
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

func main() {
	root := flag.String("root", "", "tree to index")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile here")
	memProfile := flag.String("memprofile", "", "write an allocation profile here")
	dbPath := flag.String("db", "", "knowledge base file, which must not exist yet (default: in a temporary directory, removed)")
	flag.Parse()
	if err := run(*root, *dbPath, *cpuProfile, *memProfile); err != nil {
		fmt.Fprintln(os.Stderr, "coldsnap:", err)
		os.Exit(1)
	}
}

func run(root, db, cpuProfile, memProfile string) error {
	if root == "" {
		return fmt.Errorf("-root is required")
	}
	if db == "" {
		dir, err := os.MkdirTemp("", "coldsnap")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		db = filepath.Join(dir, "kb.sqlite")
	} else if _, err := os.Stat(db); err == nil {
		return fmt.Errorf("%s exists: a cold index needs a new knowledge base", db)
	}
	if memProfile != "" {
		runtime.MemProfileRate = 64 << 10
	}
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	ctx := context.Background()
	start := time.Now()
	var extracted time.Time
	var extractCPU float64
	st, done, err := project.OpenStore(ctx, abs, db, sourcefacts.Lister{}, 0)
	if err != nil {
		return err
	}
	defer done()
	defer st.Close()
	sn, err := st.Snapshot(ctx, store.All(), store.SnapshotOptions{Progress: func(d, n int) {
		if d == n {
			extracted, extractCPU = time.Now(), cpuSeconds()
		}
	}})
	if err != nil {
		return err
	}
	defer sn.Close()
	files, err := sn.Files(ctx)
	if err != nil {
		return err
	}
	wall, cpu := time.Since(start), cpuSeconds()
	if cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	if memProfile != "" {
		f, err := os.Create(memProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			return err
		}
	}
	fmt.Printf("SNAP wall %.2f s (extract %.2f, publish+files %.2f) cpu %.2f s (extract %.2f publish %.2f) files %d gen %d\n",
		wall.Seconds(), extracted.Sub(start).Seconds(), time.Since(extracted).Seconds(), cpu, extractCPU, cpu-extractCPU,
		len(files), sn.Identity().Generation)
	return nil
}

// cpuSeconds is the process's user + system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
