package mcp

import (
	"encoding/json"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-dev/rlm"
)

// TestReadAgreesWithItsOwnIDsAndCountsLinesExactly: every hit id search
// returns is one read accepts, even for a path holding a newline; lines
// counts a file's lines (a final newline ends the last line, it starts no
// other) and text is the file's bytes, with no line added; an empty file
// reads as no lines; line 0 is no line; and an integer argument written
// 1.0 or 1e1 is the integer it is.
func TestReadAgreesWithItsOwnIDsAndCountsLinesExactly(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	const newline, final, noFinal = "package sample\n\nfunc NewlineFn() {}\n", "package sample\n\nfunc Final() {}\n", "package sample\n\nfunc NoFinal() {}"
	f.writeFile("final.go", final)
	f.writeFile("nofinal.go", noFinal)
	f.writeFile("empty.go", "")
	if runtime.GOOS != "windows" {
		f.writeFile("odd\nname.go", newline)
		var s SearchResult
		f.ok("definition", map[string]any{"name": "NewlineFn"}, &s)
		h := hitNamed(t, s, "NewlineFn")
		var r ReadResult
		f.ok("read", map[string]any{"id": h.ID}, &r)
		if r.Path != "odd\nname.go" || r.Text != "func NewlineFn() {}\n" {
			t.Errorf("read %q = %+v", h.ID, r)
		}
	}
	for _, c := range []struct {
		path, text string
		lines      int
	}{
		{"final.go", final, 3},
		{"nofinal.go", noFinal + "\n", 3},
		{"empty.go", "", 0},
	} {
		var r ReadResult
		f.ok("read", map[string]any{"path": c.path}, &r)
		if r.Lines != c.lines || r.Text != c.text || r.EndLine != c.lines || r.Truncated {
			t.Errorf("read %s: lines %d (end %d, truncated %v), text %q; want %d lines, %q", c.path, r.Lines, r.EndLine, r.Truncated, r.Text, c.lines, c.text)
		}
	}
	var r ReadResult
	f.ok("read", map[string]any{"path": "final.go", "start_line": 2, "end_line": 99}, &r)
	if r.Text != "\nfunc Final() {}\n" || r.EndLine != 3 {
		t.Errorf("read final.go 2-99: end %d, %q", r.EndLine, r.Text)
	}
	h, _ := f.proj.FileHash("final.go")
	for _, id := range []string{":0-0@" + h, "final.go:0-0@" + h, "final.go:0-2@" + h, "final.go:1-0@" + h} {
		if e := f.fail("read", map[string]any{"id": id}); e.Kind != "invalid_arguments" {
			t.Errorf("read %q: %+v; want invalid_arguments", id, e)
		}
	}
	for _, n := range []string{"3.0", "3e0", "0.3e1"} {
		f.ok("read", json.RawMessage(`{"path":"final.go","start_line":`+n+`,"end_line":`+n+`}`), &r)
		if r.Text != "func Final() {}\n" {
			t.Errorf("read final.go line %s: %q", n, r.Text)
		}
	}
	var s SearchResult
	f.ok("search", json.RawMessage(`{"query":"where is handle defined?","limit":1e0}`), &s)
	if len(s.Hits) != 1 {
		t.Errorf("search with limit 1e0: %d hits", len(s.Hits))
	}
	if e := f.fail("read", json.RawMessage(`{"path":"final.go","start_line":1.5}`)); e.Kind != "invalid_arguments" {
		t.Errorf("start_line 1.5: %+v", e)
	}
}

// TestTheLogKeepsFailedCallsShort: a failed call whose cause quotes a
// megabyte argument is logged in at most MaxLoggedCauseBytes of cause.
func TestTheLogKeepsFailedCallsShort(t *testing.T) {
	var log strings.Builder
	var mu sync.Mutex
	f := newFixture(t, rlm.Options{}, Options{Logger: slog.New(slog.NewTextHandler(lockedWriter{&mu, &log}, nil))}, "")
	f.fail("read", map[string]any{"path": strings.Repeat("x", MaxArgBytes-100)})
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(log.String(), "maxLength") || log.Len() > MaxLoggedCauseBytes+500 {
		t.Fatalf("logged %d bytes: %.300s…", log.Len(), log.String())
	}
}
