package store

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/sourcefacts"
)

func TestHostileSourceNeverCrashesHangsOrExecutes(t *testing.T) {
	const bound = 90 * time.Second // generous for a loaded 2-core CI; typical runs take a few seconds
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	root := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	binary := make([]byte, 4096)
	for i := range binary {
		binary[i] = byte(rng.UintN(256))
	}
	binary[100] = 0
	minified := append(append([]byte("package p;func f(){"), bytes.Repeat([]byte("x++;"), 10<<20/4)...), '}')
	rep := func(s string, n int) string { return strings.Repeat(s, n) }

	cases := []struct {
		path   string
		src    []byte
		status []string // acceptable statuses
		errSub string   // substring of FileState.Error, if any
	}{
		{"binary.go", binary, []string{sourcefacts.StatusError}, "binary file"},
		{"minified.go", minified, []string{sourcefacts.StatusSkipped}, "too large"}, // 10 MiB on one line, over the 4 MiB default
		{"invalid_utf8.go", []byte("package p\n\nfunc \xff\xfe() {}\n\nvar s = \"\xc3\x28\"\n\nfunc After() {}\n"), []string{sourcefacts.StatusPartial}, "syntax error"},
		{"deep_parens.go", []byte("package p\n\nvar x = " + rep("(", 50000) + "1" + rep(")", 50000) + "\n"), []string{sourcefacts.StatusCurrent, sourcefacts.StatusPartial}, ""},
		{"deep_braces.go", []byte("package p\n\nfunc f() " + rep("{", 50000) + rep("}", 50000) + "\n"), []string{sourcefacts.StatusCurrent, sourcefacts.StatusPartial}, ""},
		{"open_parens.go", []byte("package p\n\nvar x = " + rep("(", 50000)), []string{sourcefacts.StatusPartial, sourcefacts.StatusError}, ""},
		{"open_braces.go", []byte("package p\n\nfunc f() " + rep("{", 50000)), []string{sourcefacts.StatusPartial, sourcefacts.StatusError}, ""},
		{"empty.go", nil, []string{sourcefacts.StatusCurrent, sourcefacts.StatusPartial}, ""},
		// Nothing in a file is ever run: not go:generate, not cgo, not init.
		{"generate.go", []byte("//go:generate touch PWNED\n\npackage main\n\n// #include <stdlib.h>\n// static void f() { system(\"touch PWNED\"); }\nimport \"C\"\n\nimport \"os\"\n\nfunc init() { os.WriteFile(\"PWNED\", nil, 0o644) }\n"), []string{sourcefacts.StatusCurrent}, ""},
		{"we\nird ü name.go", []byte("package p\n\nfunc Weird() {}\n"), []string{sourcefacts.StatusCurrent}, ""},
	}
	for _, tc := range cases {
		writeFile(t, root, tc.path, tc.src)
	}
	// A FIFO named like source must not block the reader.
	if err := mkfifo(filepath.Join(root, "fifo.go")); err != nil {
		t.Log("no FIFO:", err)
	}

	ex, err := sourcefacts.NewGoExtractor()
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ex.SetParseTimeout(2 * time.Second)
	s := openStore(t, root, &Options{Extractor: ex, ExtractorVersion: sourcefacts.ExtractorVersion})

	start := time.Now()
	snap, err := s.Snapshot(ctx, All(), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	t.Logf("indexed hostile tree in %v", time.Since(start))
	files := fileMap(t, snap)
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.path, "\n", `\n`), func(t *testing.T) {
			f, ok := files[tc.path]
			if !ok {
				t.Fatal("not recorded")
			}
			if !slices.Contains(tc.status, f.Status) || !strings.Contains(f.Error, tc.errSub) {
				t.Fatalf("status %s %q, want one of %v with %q", f.Status, f.Error, tc.status, tc.errSub)
			}
			if f.Hash != sourcefacts.HashBytes(tc.src) {
				t.Fatalf("hash %s, want the exact bytes' %s", f.Hash, sourcefacts.HashBytes(tc.src))
			}
			if _, err := snap.Facts(ctx, tc.path); err != nil {
				t.Fatal(err)
			}
		})
	}
	if _, ok := files["fifo.go"]; ok {
		t.Fatal("a FIFO was indexed")
	}
	if _, err := os.Stat(filepath.Join(root, "PWNED")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("indexing executed something from a source file")
	}

	// Without the size limit the 10 MiB line reaches the parser, whose
	// budget bounds it.
	big := openStore(t, root, &Options{Extractor: ex, ExtractorVersion: sourcefacts.ExtractorVersion, MaxFileBytes: -1, DBPath: filepath.Join(t.TempDir(), "big.sqlite")})
	start = time.Now()
	bs, err := big.Snapshot(ctx, Scope{Paths: []string{"minified.go"}}, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer bs.Close()
	f := fileMap(t, bs)["minified.go"]
	t.Logf("10 MiB line without size limit: %s %q in %v", f.Status, f.Error, time.Since(start))
	if f.Status == sourcefacts.StatusCurrent && f.Error != "" || f.Status == "" {
		t.Fatalf("unrecorded: %+v", f)
	}

	// Hostile query strings are data.
	for _, q := range []string{"'; DROP TABLE files; --", strings.Repeat("(", 1<<20), "\x00", "a.b.c", "."} {
		if _, err := snap.Symbols(ctx, q); err != nil {
			t.Fatalf("Symbols(%.20q): %v", q, err)
		}
		if _, err := snap.Callers(ctx, q); err != nil {
			t.Fatalf("Callers(%.20q): %v", q, err)
		}
		if _, err := snap.Importers(ctx, q); err != nil {
			t.Fatalf("Importers(%.20q): %v", q, err)
		}
	}
	// Current evidence is refused, naming the non-current files.
	_, err = s.Snapshot(ctx, All(), SnapshotOptions{RequireCurrent: true})
	if nce := asErr[*NotCurrentError](t, err); len(nce.Files) < 3 {
		t.Fatalf("NotCurrentError names %d files", len(nce.Files))
	}
	if err := s.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > bound {
		t.Fatalf("took %v", el)
	}
}
