package main

import (
	"context"
	"fmt"
	"io"

	"github.com/rlm-dev/rlm"
)

// cmdStatus validates the knowledge base against the files' bytes (no
// watcher: every file is hashed) and reports its generation, counts and
// every file that is not current.
func cmdStatus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("status", stderr)
	root := fs.String("root", "", "source tree")
	db := fs.String("db", "", "knowledge base file (default ROOT/.rlm/kb.sqlite)")
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkRoot(*root); err != nil {
		return err
	}
	s, err := rlm.ReadStatus(ctx, *root, rlm.Options{DBPath: *db})
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
	id, stats := s.Snapshot, s.Stats
	if *asJSON {
		return writeJSON(stdout, map[string]any{
			"db": s.DBPath, "generation": id.Generation, "fingerprint": fmt.Sprintf("%016x", id.Fingerprint),
			"published": id.Published, "files": stats.Files, "bytes": stats.SourceBytes, "symbols": stats.Symbols,
			"references": stats.References, "imports": stats.Imports, "dirty": stats.Dirty, "db_bytes": stats.DBBytes,
			"not_current": files,
		})
	}
	fmt.Fprintf(stdout, "%s\n%s, published %s\n%d files (%.1f MB), %d symbols, %d references, %d imports; %d dirty; database %.1f MB\n",
		s.DBPath, id, id.Published.Format("2006-01-02 15:04:05"), stats.Files, float64(stats.SourceBytes)/1e6,
		stats.Symbols, stats.References, stats.Imports, stats.Dirty, float64(stats.DBBytes)/1e6)
	if len(files) == 0 {
		fmt.Fprintln(stdout, "every file is current")
	}
	for _, f := range files {
		fmt.Fprintf(stdout, "  %-8s %s %s\n", f.Status, printable(f.Path), printable(f.Error))
	}
	return nil
}
