package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// cmdStatus validates the knowledge base against the files' bytes (no
// watcher: every file is hashed) and reports its generation, counts and
// every file that is not current.
func cmdStatus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("status", stderr)
	root := fs.String("root", "", "source tree")
	db := fs.String("db", "", "knowledge base file (default ROOT/.rlm/kb.sqlite)")
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	if *root == "" {
		return usageError{"--root DIR is required"}
	}
	if st, err := os.Stat(*root); err != nil || !st.IsDir() {
		return usageError{fmt.Sprintf("--root %s is not a directory", *root)}
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		return err
	}
	st, done, err := rlm.OpenStore(ctx, abs, *db)
	if err != nil {
		return err
	}
	defer done()
	defer st.Close()
	sn, err := st.Snapshot(ctx, store.All(), store.SnapshotOptions{})
	if err != nil {
		return err
	}
	defer sn.Close()
	stats, err := st.Stats(ctx)
	if err != nil {
		return err
	}
	bad, err := sn.NotCurrent(ctx)
	if err != nil {
		return err
	}
	type fileOut struct {
		Path   string `json:"path"`
		Status string `json:"status"`
		Error  string `json:"error,omitempty"`
	}
	files := []fileOut{}
	for _, f := range bad {
		files = append(files, fileOut{Path: f.Path, Status: f.Status, Error: f.Error})
	}
	id := sn.Identity()
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{
			"db": st.DBPath(), "generation": id.Generation, "fingerprint": fmt.Sprintf("%016x", id.Fingerprint),
			"published": id.Published, "files": stats.Files, "bytes": stats.SourceBytes, "symbols": stats.Symbols,
			"references": stats.References, "imports": stats.Imports, "dirty": stats.Dirty, "db_bytes": stats.DBBytes,
			"not_current": files,
		})
	}
	fmt.Fprintf(stdout, "%s\n%s, published %s\n%d files (%.1f MB), %d symbols, %d references, %d imports; %d dirty; database %.1f MB\n",
		st.DBPath(), id, id.Published.Format("2006-01-02 15:04:05"), stats.Files, float64(stats.SourceBytes)/1e6,
		stats.Symbols, stats.References, stats.Imports, stats.Dirty, float64(stats.DBBytes)/1e6)
	if len(files) == 0 {
		fmt.Fprintln(stdout, "every file is current")
	}
	for _, f := range files {
		fmt.Fprintf(stdout, "  %-8s %s %s\n", f.Status, f.Path, f.Error)
	}
	return nil
}
