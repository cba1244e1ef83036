package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"
)

func cmdIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("index", stderr)
	root := fs.String("root", "", "source tree to index")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile (pprof format) of the whole index run to this file")
	bf := addBackendFlags(fs)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	p, err := openProject(ctx, *root, bf, stderr)
	if err != nil {
		return err
	}
	defer p.Close()
	st, id, faults := p.Stats(), p.Snapshot(), p.Faults()
	vs, chroma := p.VectorState()
	if *asJSON {
		out := map[string]any{
			"root": p.Root(), "files": st.Files, "bytes": st.Bytes, "symbols": st.Symbols, "refs": st.Refs,
			"partial": st.Partial, "errors": st.Errors, "stale": st.Stale, "skipped": st.Skipped,
			"extract_ms": st.Check.Milliseconds(), "store_ms": st.Build.Milliseconds(),
			"generation": id.Generation, "fingerprint": fmt.Sprintf("%016x", id.Fingerprint),
			"search_index_reused": st.Reused, "search_index_derived_from": st.DerivedFrom, "search_index_files": st.IndexFiles,
			"search_index_changed": st.IndexChanged, "search_index_resolved": st.IndexResolved,
			"in_memory": bf.inMemory, "unreadable": faultsOut(faults),
			"knowledge_base": p.DBPath(),
		}
		if chroma {
			out["vector_store"] = vs
		}
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "indexed %s: %d files, %.1f MB, %d symbols, %d references (%d partial, %d errors, %d stale, %d skipped) in %s\n",
		p.Root(), st.Files, float64(st.Bytes)/1e6, st.Symbols, st.Refs, st.Partial, st.Errors, st.Stale, st.Skipped,
		(st.Check + st.Build).Round(time.Millisecond))
	printFaults(stdout, faultsOut(faults))
	how := "built"
	switch {
	case st.Reused:
		how = "reused"
	case st.DerivedFrom != 0:
		how = fmt.Sprintf("updated from generation %d's (%d files changed, %d resolved again, %d written)",
			st.DerivedFrom, st.IndexChanged, st.IndexResolved, st.IndexFiles)
	}
	where := ""
	if bf.inMemory {
		where = " (in memory: removed on exit)"
	} else {
		fmt.Fprintf(stdout, "knowledge base: %s\n", p.DBPath())
	}
	fmt.Fprintf(stdout, "snapshot: %s; search index %s%s (snapshot check %s, search index %s)\n",
		id, how, where, st.Check.Round(time.Millisecond), st.Build.Round(time.Millisecond))
	if chroma {
		fmt.Fprintf(stdout, "vector store: %s\n", vs)
	}
	return nil
}

// startCPUProfile starts a CPU profile written to path and returns the
// function that stops it and closes the file. An error creating the file
// or starting the profiler is returned wrapped, with nothing started.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
