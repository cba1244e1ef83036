package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestStatusNamesSkippedFilesAndLanguageDecisionsAndAnswersNameFilesOverTheCap:
// a Perl .pl, a bash script and a file over the size cap are skipped, not
// errors (--require-current still answers); status lists each with its
// reason and says how content decided a language; an answer names the file
// over the cap it could not see.
func TestStatusNamesSkippedFilesAndLanguageDecisionsAndAnswersNameFilesOverTheCap(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{
		"ok.go":        "package p\n\n// Fine is small.\nfunc Fine() {}\n",
		"big.go":       "package p\n\nfunc Big() {}\n" + strings.Repeat("// padding\n", 30),
		"mksyscall.pl": "#!/usr/bin/env perl\nuse strict;\n",
		"deploy":       "#!/bin/bash\necho hi\n",
		"lib.h":        "namespace lib { int f(); }\n",
	})
	db := filepath.Join(t.TempDir(), "kb.sqlite")
	cap := []string{"--db", db, "--max-file-bytes", "200"}
	if _, errs, code := runCLI(t, "", append([]string{"index", "--root", root}, cap...)...); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	out, errs, code := runCLI(t, "", append([]string{"status", "--root", root}, cap...)...)
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"every file is current",
		"language by content: 1 .h as C++ (C++ constructs) (lib.h)",
		"3 skipped (not parsed, not errors):",
		"  skipped  big.go too large: 355 bytes, over the size cap of 200",
		"  skipped  deploy no language: a bash script",
		"  skipped  mksyscall.pl not ours: a Perl script",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	out, _, code = runCLI(t, "", append([]string{"status", "--root", root, "--json"}, cap...)...)
	var st struct {
		Skipped   []struct{ Path, Reason string } `json:"skipped"`
		ByContent []struct {
			Path, Language string
			LanguageBy     string `json:"language_by"`
		} `json:"language_by_content"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != 0 {
		t.Fatalf("status --json: exit %d %v: %s", code, err, out)
	}
	if len(st.Skipped) != 3 || len(st.ByContent) != 1 || st.ByContent[0].Path != "lib.h" || st.ByContent[0].Language != "cpp" ||
		st.ByContent[0].LanguageBy != "content: C++ constructs (namespace, line 1)" {
		t.Errorf("status --json: %+v", st)
	}

	// Skipped files are not errors: --require-current answers, and the
	// answer names the file it could not see.
	out, errs, code = runCLI(t, "", append([]string{"search", "--root", root, "--embedder", "none", "--require-current"}, append(cap, "Fine")...)...)
	if code != 0 || !strings.Contains(out, "note: 1 file skipped: too large (big.go); see rlm status\n") {
		t.Fatalf("search: exit %d: %s\n%s", code, errs, out)
	}
	out, _, _ = runCLI(t, "", append([]string{"search", "--root", root, "--embedder", "none", "--json"}, append(cap, "Fine")...)...)
	var a struct {
		Skipped []struct{ Path, Reason string } `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	want := []struct{ Path, Reason string }{{"big.go", "too large: 355 bytes, over the size cap of 200"}}
	if d := cmp.Diff(want, a.Skipped); d != "" {
		t.Errorf("answer's skipped files (-want +got):\n%s", d)
	}
}

// TestTheDefinitionIsAnsweredBeforeItsPrototype: a C prototype above its
// definition, a C++ in-class declaration and a forward declaration are
// declarations; "where is X defined?" and the bare name answer the
// definition, with its body, first.
func TestTheDefinitionIsAnsweredBeforeItsPrototype(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{
		"parse.c": "static int parse_value(const char *s);\n\nint parse(const char *s) {\n    return parse_value(s);\n}\n\n" +
			"static int parse_value(const char *s) {\n    return s[0];\n}\n",
		"conn.hpp": "class Conn;\n\nclass Conn {\npublic:\n    void open();\n};\n",
		"conn.cpp": "#include \"conn.hpp\"\n\nvoid Conn::open() {\n    dial();\n}\n",
	})
	tests := []struct {
		query, path string
		line        int
	}{
		{"parse_value", "parse.c", 7},
		{"where is parse_value defined?", "parse.c", 7},
		{"Conn.open", "conn.cpp", 3},
		{"Conn", "conn.hpp", 3},
	}
	for _, tt := range tests {
		out, errs, code := runCLI(t, "", "search", "--root", root, "--in-memory", "--embedder", "none", "--json", "--limit", "1", tt.query)
		var a struct {
			Hits []struct {
				Path      string `json:"path"`
				StartLine int    `json:"start_line"`
			} `json:"hits"`
		}
		if err := json.Unmarshal([]byte(out), &a); err != nil || code != 0 {
			t.Fatalf("%q: exit %d %v: %s", tt.query, code, err, errs)
		}
		if len(a.Hits) != 1 || a.Hits[0].Path != tt.path || a.Hits[0].StartLine != tt.line {
			t.Errorf("%q: first hit %+v, want %s:%d", tt.query, a.Hits, tt.path, tt.line)
		}
	}
}

// TestStatusReportsTheSearchIndexBesideTheKnowledgeBase: status gives the
// search index's size on disk as well as the knowledge base's (a new user
// read "database 1.2 MB" beside a 12.6 MB search index): the sum of the
// search index files in the knowledge base's directory, in the JSON in
// bytes and in the text in MB; other files there do not count.
func TestStatusReportsTheSearchIndexBesideTheKnowledgeBase(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{"ok.go": "package p\n\n// Fine is small.\nfunc Fine() {}\n"})
	dir := t.TempDir()
	db := filepath.Join(dir, "kb.sqlite")
	if _, errs, code := runCLI(t, "", "index", "--root", root, "--db", db, "--embedder", "none"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), make([]byte, 5<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "search-") {
			info, err := e.Info()
			if err != nil {
				t.Fatal(err)
			}
			want += info.Size()
		}
	}
	if want == 0 {
		t.Fatalf("no search index file in %s: %v", dir, entries)
	}
	out, errs, code := runCLI(t, "", "status", "--root", root, "--db", db, "--json")
	var st struct {
		SearchIndexBytes int64 `json:"search_index_bytes"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != 0 {
		t.Fatalf("status --json: exit %d %v: %s %s", code, err, out, errs)
	}
	if st.SearchIndexBytes != want {
		t.Errorf("search_index_bytes = %d, want %d (the search index files)", st.SearchIndexBytes, want)
	}
	out, _, _ = runCLI(t, "", "status", "--root", root, "--db", db)
	if line := fmt.Sprintf(", search index %.1f MB\n", float64(want)/1e6); !strings.Contains(out, line) {
		t.Errorf("status lacks %q:\n%s", line, out)
	}
}
