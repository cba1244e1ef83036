// Command tsfloor measures the floor a tree-sitter extractor cannot go
// under: the time tree-sitter itself takes to parse every Go file of a
// tree (-query none) and, in addition, to run tree-sitter-go's own tags
// query over each tree to its last match (-query tags), on -workers
// goroutines, each with its own parser and query cursor. Nothing is
// built from the matches and nothing is stored: it is the library's work
// only, the part of `rlm index` that no change to rlm's own code can
// remove. The files are the .go files outside testdata, vendor and
// hidden directories (the set bench/index.sh reads for its I/O floor).
//
// It prints one line:
//
//	TSFLOOR query Q workers W files N MB M wall S s cpu C s matches K
//
// where cpu is the process's user + system time (getrusage), the steadier
// measure on a shared machine. Compare it, in the same run, against
// Universal Ctags over the same files (bench/tsfloor.sh does both).
//
//	go build -o /tmp/tsfloor ./bench/tsfloor
//	/tmp/tsfloor -root /tmp/gosrc -query tags
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
)

// checkFlags is the error of flags that give no measurement: no root, an
// unknown query, fewer than one worker (no file would be parsed, and the
// line would report a tree's files parsed in no time).
func checkFlags(root, query string, workers int) error {
	switch {
	case root == "":
		return errors.New("-root is required")
	case query != "none" && query != "tags":
		return fmt.Errorf("-query %q: want none or tags", query)
	case workers < 1:
		return fmt.Errorf("-workers %d: want at least 1", workers)
	}
	return nil
}

func main() {
	root := flag.String("root", "", "tree whose .go files are parsed")
	query := flag.String("query", "tags", "none (parse only) or tags (parse, then tree-sitter-go's tags query to the end)")
	tagsFile := flag.String("tags-query", "sourcefacts/queries/go-tags.scm", "the tags query file (tree-sitter-go's own, as rlm embeds it)")
	workers := flag.Int("workers", runtime.NumCPU(), "goroutines, each with its own parser")
	flag.Parse()
	if err := checkFlags(*root, *query, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "tsfloor:", err)
		fmt.Fprintln(os.Stderr, "usage: tsfloor -root DIR [-query none|tags] [-workers N]")
		os.Exit(2)
	}
	files, err := goFiles(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsfloor:", err)
		os.Exit(1)
	}
	lang := ts.NewLanguage(tsgo.Language())
	var q *ts.Query
	if *query == "tags" {
		src, err := os.ReadFile(*tagsFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tsfloor:", err)
			os.Exit(1)
		}
		var qerr *ts.QueryError
		q, qerr = ts.NewQuery(lang, string(src))
		if qerr != nil {
			fmt.Fprintln(os.Stderr, "tsfloor: query:", qerr)
			os.Exit(1)
		}
		defer q.Close()
	}

	start := time.Now()
	cpu0 := cpuTime()
	var next, bytes, matches, failed atomic.Int64
	var wg sync.WaitGroup
	for range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := ts.NewParser()
			defer p.Close()
			if err := p.SetLanguage(lang); err != nil {
				failed.Add(1)
				return
			}
			qc := ts.NewQueryCursor()
			defer qc.Close()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(files) {
					return
				}
				src, err := os.ReadFile(files[i])
				if err != nil {
					failed.Add(1)
					continue
				}
				bytes.Add(int64(len(src)))
				tree := p.Parse(src, nil)
				if tree == nil {
					failed.Add(1)
					continue
				}
				if q != nil {
					ms := qc.Matches(q, tree.RootNode(), src)
					n := int64(0)
					for m := ms.Next(); m != nil; m = ms.Next() {
						n++
					}
					matches.Add(n)
				}
				tree.Close()
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	cpu := cpuTime() - cpu0
	fmt.Printf("TSFLOOR query %s workers %d files %d MB %.1f wall %.2f s cpu %.2f s matches %d failed %d\n",
		*query, *workers, len(files), float64(bytes.Load())/1e6, wall.Seconds(), cpu.Seconds(), matches.Load(), failed.Load())
}

// goFiles lists root's .go files outside testdata, vendor and hidden
// directories, in walk order.
func goFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
