package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/tools"
)

const hashPattern = `xxh64:[0-9a-f]{16}:(0|[1-9][0-9]{0,18})`

// idPattern is a hit id's: PATH:START-END@CONTENT_HASH, lines from 1.
// The path may hold any character, a newline included (as JSON text:
// [\\s\\S] is any character in Go's and ECMAScript's regular expressions).
const idPattern = `^[\\s\\S]+:[1-9][0-9]{0,8}-[1-9][0-9]{0,8}@` + hashPattern + `$`

var (
	readSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"id":{"type":"string","maxLength":8192,"pattern":"` + idPattern + `","description":"a hit's id (from search): its lines, if the file still has the hit's bytes"},` +
		`"path":{"type":"string","minLength":1,"maxLength":4096,"description":"a file of the current snapshot, relative to the root (slash-separated)"},` +
		`"start_line":{"type":"integer","minimum":1,"maximum":100000000,"description":"first line (1-based; default: the hit's, or 1)"},` +
		`"end_line":{"type":"integer","minimum":1,"maximum":100000000,"description":"last line, inclusive (default: the hit's, or as many as allowed)"}},` +
		`"oneOf":[{"required":["id"]},{"required":["path"]}],"additionalProperties":false}`)
	patchSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string","minLength":1,"maxLength":4096,"description":"the file to edit, relative to the root (slash-separated)"},` +
		`"expected_hash":{"type":"string","pattern":"^` + hashPattern + `$","description":"the content hash the file must have now (a hit's content_hash, read's or status's)"},` +
		`"unified_diff":{"type":"string","minLength":1,"description":"a unified (or git) diff of this one file, applied strictly"},` +
		`"edits":{"type":"array","minItems":1,"maxItems":1000,"description":"byte edits: each replaces bytes [start, end) of the current file (UTF-8 byte offsets) with text; they must not overlap",` +
		`"items":{"type":"object","properties":{"start":{"type":"integer","minimum":0,"maximum":` + maxOffset + `},"end":{"type":"integer","minimum":0,"maximum":` + maxOffset + `},"text":{"type":"string"}},` +
		`"required":["start","end","text"],"additionalProperties":false}}},` +
		`"required":["path","expected_hash"],"oneOf":[{"required":["unified_diff"]},{"required":["edits"]}],"additionalProperties":false}`)
)

// maxOffset bounds apply_patch's byte offsets (1 TiB).
const maxOffset = "1099511627776"

// hitID is a hit's id: PATH:START-END@CONTENT_HASH.
func hitID(path string, start, end int, hash string) string {
	return fmt.Sprintf("%s:%d-%d@%s", path, start, end, hash)
}

// parseHitID reads an id back (the schema has checked its shape; the path
// may itself hold ':' and '@', the lines and the hash cannot).
func parseHitID(id string) (path, hash string, start, end int, err error) {
	bad := func() (string, string, int, int, error) {
		return "", "", 0, 0, tools.ModelErrorf("read: %q is not a hit id (PATH:START-END@CONTENT_HASH)", textclip.Clean(id, 80))
	}
	at := strings.LastIndexByte(id, '@')
	if at < 0 {
		return bad()
	}
	loc, hash := id[:at], id[at+1:]
	colon := strings.LastIndexByte(loc, ':')
	if colon <= 0 {
		return bad()
	}
	a, b, ok := strings.Cut(loc[colon+1:], "-")
	if start, err = strconv.Atoi(a); !ok || err != nil {
		return bad()
	}
	if end, err = strconv.Atoi(b); err != nil {
		return bad()
	}
	return loc[:colon], hash, start, end, nil
}

// inside cleans a path the client sent and refuses one that is not
// inside the project root (a clear, model-safe error).
func (s *Server) inside(p string) (string, error) {
	if _, err := tools.ResolveInside(s.proj.Root(), filepath.FromSlash(p)); err != nil {
		return "", tools.ModelErrorf("%v", err)
	}
	return path.Clean(filepath.ToSlash(p)), nil
}

// ReadResult is read's answer: lines of a file whose bytes were verified
// against ContentHash.
type ReadResult struct {
	Path        string   `json:"path"`
	StartLine   int      `json:"start_line"`
	EndLine     int      `json:"end_line"` // the last line returned
	Lines       int      `json:"lines"`    // lines in the file
	ContentHash string   `json:"content_hash"`
	Snapshot    Snapshot `json:"snapshot"`
	// Truncated: fewer lines than asked for (by default, the rest of the
	// file) were returned (MaxReadLines); read again from EndLine+1.
	Truncated bool   `json:"truncated,omitempty"`
	Text      string `json:"text"` // the lines, each ending in "\n"; lines over MaxReadLineBytes are clipped (…)
}

func (s *Server) read(ctx context.Context, raw json.RawMessage) (any, error) {
	var a struct {
		ID        string  `json:"id"`
		Path      string  `json:"path"`
		StartLine integer `json:"start_line"`
		EndLine   integer `json:"end_line"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, err
	}
	p, hash, start, end := a.Path, "", 1, 0
	if a.ID != "" {
		var err error
		if p, hash, start, end, err = parseHitID(a.ID); err != nil {
			return nil, err
		}
	}
	p, err := s.inside(p)
	if err != nil {
		return nil, err
	}
	if a.ID == "" {
		// The current snapshot, validated now.
		if _, err := s.proj.Refresh(ctx); err != nil {
			return nil, err
		}
		h, ok := s.proj.FileHash(p)
		if !ok {
			return nil, tools.ModelErrorf("read: %q is not a file of the current snapshot", textclip.Clean(p, 200))
		}
		hash = h
	}
	if a.StartLine > 0 {
		start, end = int(a.StartLine), 0 // 0: to the end of the file
	}
	if a.EndLine > 0 {
		end = int(a.EndLine)
	}
	if end != 0 && end < start {
		return nil, tools.ModelErrorf("read: end_line %d is before start_line %d", end, start)
	}
	src, err := s.proj.ReadSource(ctx, p, hash)
	if errors.Is(err, rlm.ErrStale) {
		return nil, &tools.ModelError{Err: err, Message: fmt.Sprintf("read: %s no longer has the bytes of %s (it changed or is gone): search again, or read it by path",
			textclip.Clean(p, 200), hash)}
	}
	if err != nil {
		return nil, err
	}
	lines := countLines(src)
	if lines == 0 && start == 1 {
		return &ReadResult{Path: p, StartLine: 1, EndLine: 0, Lines: 0, ContentHash: hash, Snapshot: s.current()}, nil
	}
	if start > lines {
		return nil, tools.ModelErrorf("read: %s has %d lines; start_line %d is past its end", textclip.Clean(p, 200), lines, start)
	}
	if end == 0 || end > lines {
		end = lines
	}
	text, last := textclip.Lines(src, start, end, MaxReadLines, MaxReadLineBytes)
	return &ReadResult{Path: p, StartLine: start, EndLine: last, Lines: lines, ContentHash: hash, Snapshot: s.current(),
		Truncated: last < end, Text: text}, nil
}

// countLines counts src's lines: a final "\n" ends the last line, it does
// not start another one.
func countLines(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// PatchResult is apply_patch's answer: the file's new content hash, and
// the snapshot that holds the edit.
type PatchResult struct {
	Path     string   `json:"path"`
	OldHash  string   `json:"old_hash"`
	NewHash  string   `json:"new_hash"`
	Snapshot Snapshot `json:"snapshot"`
}

func (s *Server) applyPatch(ctx context.Context, raw json.RawMessage) (any, error) {
	var a struct {
		Path         string `json:"path"`
		ExpectedHash string `json:"expected_hash"`
		UnifiedDiff  string `json:"unified_diff"`
		Edits        []struct {
			Start integer `json:"start"`
			End   integer `json:"end"`
			Text  string  `json:"text"`
		} `json:"edits"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, err
	}
	p, err := s.inside(a.Path)
	if err != nil {
		return nil, err
	}
	patch := rlm.Patch{UnifiedDiff: []byte(a.UnifiedDiff)}
	for _, e := range a.Edits {
		patch.Edits = append(patch.Edits, rlm.PatchEdit{Start: int(e.Start), End: int(e.End), Text: []byte(e.Text)})
	}
	h, err := s.proj.ApplyPatch(ctx, p, a.ExpectedHash, patch)
	if err == nil {
		return &PatchResult{Path: p, OldHash: a.ExpectedHash, NewHash: h, Snapshot: s.current()}, nil
	}
	var msg string
	if ce, ok := errors.AsType[*rlm.ConflictError](err); ok {
		msg = fmt.Sprintf("conflict: %s is %s, not the expected %s: read it again and patch its current bytes", ce.Path, ce.Actual, ce.Expected)
		if ce.Missing {
			msg = fmt.Sprintf("conflict: %s does not exist", ce.Path)
		}
	} else if errors.Is(err, rlm.ErrBadPatch) {
		msg = err.Error()
	} else if h != "" {
		msg = fmt.Sprintf("%s was written (its hash is now %s) but is not yet searchable; it is published with the next apply_patch", p, h)
	} else {
		return nil, err
	}
	return nil, &tools.ModelError{Message: msg, Err: err}
}
