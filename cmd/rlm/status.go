package main

import (
	"context"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/rlm-dev/rlm"
)

// cmdStatus validates the knowledge base against the files' bytes (no
// watcher: every file is hashed) and reports its generation, counts, every
// file that is not current, and every file skipped (over the size cap, not
// ours, no language) with its reason and how its language was decided.
func cmdStatus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("status", stderr)
	root := fs.String("root", "", "source tree")
	db := fs.String("db", "", "knowledge base file (default ROOT/.rlm/kb.sqlite)")
	asJSON := fs.Bool("json", false, "print JSON")
	var maxFileBytes int64
	addMaxFileBytesFlag(fs, &maxFileBytes)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkRoot(*root); err != nil {
		return err
	}
	s, err := rlm.ReadStatus(ctx, *root, rlm.Options{DBPath: *db, MaxFileBytes: maxFileBytes})
	if err != nil {
		return err
	}
	type fileOut struct {
		Path   string `json:"path"`
		Status string `json:"status"`
		Error  string `json:"error,omitempty"`
	}
	files := []fileOut{}
	for _, f := range s.NotCurrent {
		files = append(files, fileOut{Path: f.Path, Status: f.Status, Error: f.Error})
	}
	type skipOut struct {
		Path       string `json:"path"`
		Reason     string `json:"reason"`
		LanguageBy string `json:"language_by,omitempty"`
	}
	skipped := []skipOut{}
	for _, f := range s.Skipped {
		skipped = append(skipped, skipOut{Path: f.Path, Reason: f.Error, LanguageBy: f.LanguageBy})
	}
	decided := []decidedOut{}
	for _, f := range s.ByContent {
		decided = append(decided, decidedOut{Path: f.Path, Language: f.Language, LanguageBy: f.LanguageBy})
	}
	id, stats := s.Snapshot, s.Stats
	if *asJSON {
		return writeJSON(stdout, map[string]any{
			"db": s.DBPath, "generation": id.Generation, "fingerprint": fmt.Sprintf("%016x", id.Fingerprint),
			"published": id.Published, "files": stats.Files, "bytes": stats.SourceBytes, "symbols": stats.Symbols,
			"references": stats.References, "imports": stats.Imports, "dirty": stats.Dirty, "db_bytes": stats.DBBytes,
			"not_current": files, "skipped": skipped, "language_by_content": decided, "unreadable": faultsOut(s.Faults), "read_only": s.ReadOnly,
			"vectors_unavailable": s.VectorFailure, "search_index_bytes": s.SearchIndexBytes,
		})
	}
	fmt.Fprintf(stdout, "%s\n%s, published %s\n%d files (%.1f MB), %d symbols, %d references, %d imports; %d dirty; database %.1f MB, search index %.1f MB\n",
		s.DBPath, id, id.Published.Format("2006-01-02 15:04:05"), stats.Files, float64(stats.SourceBytes)/1e6,
		stats.Symbols, stats.References, stats.Imports, stats.Dirty, float64(stats.DBBytes)/1e6, float64(s.SearchIndexBytes)/1e6)
	if s.ReadOnly {
		fmt.Fprintf(stdout, "read-only: %s cannot be written; answers come from generation %d\n", s.DBPath, id.Generation)
	}
	if f := s.VectorFailure; f != nil {
		fmt.Fprintf(stdout, "no vectors: %s for generation %d at %s (%s); commands answer without vectors until the retry interval has passed or the embedder changes\n",
			printable(f.Note), f.Generation, f.At.Format("2006-01-02 15:04:05"), printable(f.Reason))
	}
	if len(files) == 0 {
		fmt.Fprintln(stdout, "every file is current")
	}
	for _, f := range files {
		fmt.Fprintf(stdout, "  %-8s %s %s\n", f.Status, printable(f.Path), printable(f.Error))
	}
	printDecided(stdout, decided)
	if len(skipped) > 0 {
		fmt.Fprintf(stdout, "%d skipped (not parsed, not errors):\n", len(skipped))
	}
	for _, f := range skipped {
		fmt.Fprintf(stdout, "  skipped  %s %s\n", printable(f.Path), printable(f.Reason))
	}
	printFaults(stdout, faultsOut(s.Faults))
	return nil
}

// faultOut is a path the walk could not see, and why.
type faultOut struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

func faultsOut(fs []rlm.PathFault) []faultOut {
	out := []faultOut{}
	for _, f := range fs {
		out = append(out, faultOut{Path: f.Path, Reason: f.Reason()})
	}
	return out
}

// printFaults lists the paths the walk could not see, one a line:
// "  unreadable locked open: permission denied".
func printFaults(w io.Writer, fs []faultOut) {
	if len(fs) > 0 {
		fmt.Fprintf(w, "%d could not be read (the rest of the tree is indexed):\n", len(fs))
	}
	for _, f := range fs {
		fmt.Fprintf(w, "  unreadable %s %s\n", printable(f.Path), printable(f.Reason))
	}
}

// decidedOut is a file whose language its content decided.
type decidedOut struct {
	Path       string `json:"path"`
	Language   string `json:"language"`
	LanguageBy string `json:"language_by"`
}

// printDecided summarises the files whose language their content decided:
// "language by content: 12 .h as cpp (C++ constructs), 3 .h as c, 2 by #!
// or mode line (release, serve)".
func printDecided(w io.Writer, fs []decidedOut) {
	if len(fs) == 0 {
		return
	}
	type group struct {
		n     int
		paths []string
	}
	groups := map[string]*group{}
	var keys []string
	for _, f := range fs {
		key := "by #! or mode line"
		switch {
		case strings.HasPrefix(f.LanguageBy, "content: C++"):
			key = ".h as C++ (C++ constructs)"
		case strings.HasPrefix(f.LanguageBy, "content: no C++"):
			key = ".h as C (no C++ constructs)"
		case strings.HasPrefix(f.LanguageBy, "mode line") && path.Ext(f.Path) != "":
			key = "by mode line"
		}
		g := groups[key]
		if g == nil {
			g = &group{}
			groups[key] = g
			keys = append(keys, key)
		}
		g.n++
		if len(g.paths) < 3 {
			g.paths = append(g.paths, printable(f.Path))
		}
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		g := groups[k]
		more := ""
		if g.n > len(g.paths) {
			more = ", ..."
		}
		parts = append(parts, fmt.Sprintf("%d %s (%s%s)", g.n, k, strings.Join(g.paths, ", "), more))
	}
	fmt.Fprintf(w, "language by content: %s\n", strings.Join(parts, "; "))
}
