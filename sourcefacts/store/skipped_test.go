package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// TestSkippedFilesAreCurrentWithTheirReasonAndFollowTheSizeCap: a Perl
// .pl, a bash script and a file over the size cap are recorded as skipped
// with their reasons — current evidence, never refused — and changing the
// cap re-reads the files it now admits or excludes; a store opened without
// a cap keeps the one it was given last.
func TestSkippedFilesAreCurrentWithTheirReasonAndFollowTheSizeCap(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	big := "package p\n\nfunc Big() {}\n" + strings.Repeat("// padding\n", 20)
	for p, b := range map[string]string{
		"big.go":       big,
		"ok.go":        "package p\n\nfunc OK() {}\n",
		"mksyscall.pl": "#!/usr/bin/env perl\nuse strict;\n",
		"deploy":       "#!/bin/bash\necho hi\n",
	} {
		writeFile(t, root, p, []byte(b))
	}
	type row struct{ Path, Status, Error, LanguageBy string }
	skippedRows := func(s *Store) []row {
		t.Helper()
		sn := snapshot(t, s, All(), SnapshotOptions{RequireCurrent: true})
		var out []row
		for _, f := range mustSkipped(t, sn) {
			out = append(out, row{f.Path, f.Status, f.Error, f.LanguageBy})
		}
		if nc, err := sn.NotCurrent(ctx); err != nil || len(nc) != 0 {
			t.Fatalf("NotCurrent: %v, %v", nc, err)
		}
		return out
	}
	open := func(max int64) *Store {
		ex, err := sourcefacts.NewExtractor()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ex.Close)
		return openStore(t, root, &Options{DBPath: filepath.Join(root, ".rlm", "kb.sqlite"), Extractor: ex,
			ExtractorVersion: sourcefacts.ExtractorVersion, Lister: sourcefacts.Lister{}, MaxFileBytes: max})
	}

	s := open(100)
	want := []row{
		{"big.go", sourcefacts.StatusSkipped, "too large: 245 bytes, over the size cap of 100", "extension .go"},
		{"deploy", sourcefacts.StatusSkipped, "no language: a bash script", "#! bash"},
		{"mksyscall.pl", sourcefacts.StatusSkipped, "not ours: a Perl script", "content: Perl"},
	}
	if d := cmp.Diff(want, skippedRows(s)); d != "" {
		t.Errorf("skipped under a 100-byte cap (-want +got):\n%s", d)
	}
	if hits := mustSymbols(t, snapshot(t, s, All(), SnapshotOptions{}), "Big"); len(hits) != 0 {
		t.Errorf("a file over the cap has facts: %+v", hits)
	}
	s.Close()

	// A command that gives no cap keeps the one the knowledge base was
	// built with: the snapshot does not change.
	s = open(0)
	if d := cmp.Diff(want, skippedRows(s)); d != "" {
		t.Errorf("skipped with no cap given (-want +got):\n%s", d)
	}
	s.Close()

	// The default cap admits big.go: it is read now, unchanged bytes or not.
	s = open(sourcefacts.DefaultMaxFileBytes)
	if d := cmp.Diff(want[1:], skippedRows(s)); d != "" {
		t.Errorf("skipped under the default cap (-want +got):\n%s", d)
	}
	if hits := mustSymbols(t, snapshot(t, s, All(), SnapshotOptions{}), "Big"); len(hits) != 1 {
		t.Errorf("Big after raising the cap: %+v", hits)
	}
	s.Close()

	// Lowering it again skips it again.
	s = open(100)
	if d := cmp.Diff(want, skippedRows(s)); d != "" {
		t.Errorf("skipped after lowering the cap (-want +got):\n%s", d)
	}
}

func mustSkipped(t *testing.T, sn *Snapshot) []FileState {
	t.Helper()
	fs, err := sn.Skipped(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func mustSymbols(t *testing.T, sn *Snapshot, name string) []SymbolHit {
	t.Helper()
	hits, err := sn.Symbols(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return hits
}
