package mcp

import (
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/tools"
)

// TestWritesAreOffUnlessAllowed: without AllowWrite apply_patch is not
// listed and a call to it is refused without touching the file; with it,
// it is listed (marked as not read-only). compile is listed only with a
// catalog.
func TestWritesAreOffUnlessAllowed(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
		want []string
	}{
		{"read-only", Options{}, []string{"callees", "callers", "definition", "explain", "read", "search", "status"}},
		{"allow write", Options{AllowWrite: true}, []string{"apply_patch", "callees", "callers", "definition", "explain", "read", "search", "status"}},
		{"with a catalog", withCompile(t, Options{}), []string{"callees", "callers", "compile", "definition", "explain", "read", "search", "status"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, rlm.Options{}, c.opts, "")
			var listed []string
			for tool, err := range f.cs.Tools(t.Context(), nil) {
				if err != nil {
					t.Fatal(err)
				}
				listed = append(listed, tool.Name)
				if tool.Annotations == nil || tool.Annotations.ReadOnlyHint != (tool.Name != "apply_patch") {
					t.Errorf("%s: annotations %+v", tool.Name, tool.Annotations)
				}
			}
			slices.Sort(listed)
			if !slices.Equal(listed, c.want) || !slices.Equal(f.srv.Tools(), c.want) {
				t.Fatalf("listed %v (Tools %v), want %v", listed, f.srv.Tools(), c.want)
			}
			if c.opts.AllowWrite {
				return
			}
			before := f.readFile("server.go")
			h, _ := f.proj.FileHash("server.go")
			_, err := f.cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "apply_patch",
				Arguments: map[string]any{"path": "server.go", "expected_hash": h, "edits": []map[string]any{{"start": 0, "end": 0, "text": "// x\n"}}}})
			if err == nil || !strings.Contains(err.Error(), "apply_patch") {
				t.Errorf("apply_patch without AllowWrite: %v", err)
			}
			if f.readFile("server.go") != before {
				t.Fatal("the file changed")
			}
		})
	}
}

// TestTheExecutorRefusesWritesThePolicyDoesNotAllow: even called directly
// (not through the list), apply_patch runs only under a policy that allows
// writes.
func TestTheExecutorRefusesWritesThePolicyDoesNotAllow(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	h, _ := f.proj.FileHash("server.go")
	out := f.srv.exec.Execute(t.Context(), tools.Call{Name: "apply_patch", Arguments: `{"path":"server.go","expected_hash":"` + h + `","edits":[{"start":0,"end":0,"text":"// x\n"}]}`},
		[]string{"apply_patch"})
	if out.OK || out.Err.Kind != "side_effect_denied" || !strings.HasPrefix(f.readFile("server.go"), "// Package") {
		t.Fatalf("outcome %+v", out)
	}
}

const addZebra = `--- a/server.go
+++ b/server.go
@@ -22,3 +22,6 @@
 type Writer interface {
 	Write(p []byte) (int, error)
 }
+
+// Zebra stripes the output.
+func Zebra() {}
`

// TestAnEditThroughApplyPatchIsSeenByTheNextSearch: a unified diff and
// byte edits each change the file, return its new hash, and the next
// search finds what they added, with that hash; the old hit id no longer
// reads.
func TestAnEditThroughApplyPatchIsSeenByTheNextSearch(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{AllowWrite: true}, "")
	var s SearchResult
	f.ok("definition", map[string]any{"name": "handle"}, &s)
	old := hitNamed(t, s, "handle")
	var p PatchResult
	f.ok("apply_patch", map[string]any{"path": "server.go", "expected_hash": old.ContentHash, "unified_diff": addZebra}, &p)
	if p.OldHash != old.ContentHash || p.NewHash == old.ContentHash || !strings.Contains(f.readFile("server.go"), "func Zebra() {}") {
		t.Fatalf("patch result %+v", p)
	}
	if p.Snapshot.Generation <= s.Snapshot.Generation {
		t.Errorf("the edit was not published: %+v then %+v", s.Snapshot, p.Snapshot)
	}
	f.ok("definition", map[string]any{"name": "Zebra"}, &s)
	z := hitNamed(t, s, "Zebra")
	if z.ContentHash != p.NewHash || z.Doc != "Zebra stripes the output." {
		t.Fatalf("the next search: %+v, patched to %s", z, p.NewHash)
	}
	if e := f.fail("read", map[string]any{"id": old.ID}); !strings.Contains(e.Message, "no longer has the bytes") {
		t.Errorf("reading a hit of the old bytes: %+v", e)
	}

	src := f.readFile("server.go")
	at := strings.Index(src, "func Zebra() {}")
	var p2 PatchResult
	f.ok("apply_patch", map[string]any{"path": "./server.go", "expected_hash": p.NewHash, "edits": []map[string]any{
		{"start": at + len("func "), "end": at + len("func Zebra"), "text": "Okapi"},
	}}, &p2)
	if p2.Path != "server.go" || p2.OldHash != p.NewHash || !strings.Contains(f.readFile("server.go"), "func Okapi() {}") {
		t.Fatalf("byte edit: %+v", p2)
	}
	f.ok("search", map[string]any{"query": "Okapi"}, &s)
	if hitNamed(t, s, "Okapi").ContentHash != p2.NewHash {
		t.Fatalf("the next search does not show the byte edit: %+v", s.Hits)
	}
}

// TestAConflictingPatchIsRefusedAndNothingChanges: a stale expected hash,
// a missing file, a patch that does not apply and a path outside the
// root are refused with clear errors (a structured conflict for the
// first two) and leave every file as it was.
func TestAConflictingPatchIsRefusedAndNothingChanges(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{AllowWrite: true}, "")
	h, _ := f.proj.FileHash("server.go")
	f.writeFile("server.go", f.readFile("server.go")+"\n// edited by someone else\n")
	before := f.readFile("server.go")
	var st Status
	f.ok("status", nil, &st)
	actual, _ := f.proj.FileHash("server.go")
	if actual == h {
		t.Fatal("the external edit was not seen")
	}
	e := f.fail("apply_patch", map[string]any{"path": "server.go", "expected_hash": h, "unified_diff": addZebra})
	if e.Conflict == nil || *e.Conflict != (conflict{Path: "server.go", Expected: h, Actual: actual}) || !strings.Contains(e.Message, "conflict") {
		t.Fatalf("stale hash: %+v (conflict %+v), the file is %s", e, e.Conflict, actual)
	}
	e = f.fail("apply_patch", map[string]any{"path": "gone.go", "expected_hash": h, "edits": []map[string]any{{"start": 0, "end": 0, "text": "x"}}})
	if e.Conflict == nil || !e.Conflict.Missing || e.Conflict.Path != "gone.go" {
		t.Fatalf("missing file: %+v (conflict %+v)", e, e.Conflict)
	}
	for _, c := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"a diff that does not apply", map[string]any{"path": "server.go", "expected_hash": actual,
			"unified_diff": "--- a/server.go\n+++ b/server.go\n@@ -1,1 +1,1 @@\n-no such line\n+x\n"}, "bad patch"},
		{"overlapping edits", map[string]any{"path": "server.go", "expected_hash": actual,
			"edits": []map[string]any{{"start": 0, "end": 5, "text": "a"}, {"start": 3, "end": 8, "text": "b"}}}, "bad patch"},
		{"an edit past the end", map[string]any{"path": "server.go", "expected_hash": actual,
			"edits": []map[string]any{{"start": 0, "end": 1 << 20, "text": "a"}}}, "out of range"},
		{"a path that climbs out", map[string]any{"path": "../outside.go", "expected_hash": actual, "unified_diff": addZebra}, "not inside"},
		{"an absolute path", map[string]any{"path": "/etc/passwd", "expected_hash": actual, "unified_diff": addZebra}, "not inside"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := f.fail("apply_patch", c.args)
			if e.Kind != "handler_failed" || !strings.Contains(e.Message, c.want) || e.Conflict != nil {
				t.Errorf("%+v, want a message with %q", e, c.want)
			}
		})
	}
	if f.readFile("server.go") != before {
		t.Fatal("a refused patch changed the file")
	}
}

// TestEveryAnswerReflectsTheFilesAtCallTime: files changed behind the
// server's back (no watcher) are seen by the next search and read by
// path, and a hit of the old bytes no longer reads.
func TestEveryAnswerReflectsTheFilesAtCallTime(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	var s SearchResult
	f.ok("definition", map[string]any{"name": "handle"}, &s)
	old := hitNamed(t, s, "handle")
	f.writeFile("server.go", f.readFile("server.go")+"\n// Giraffe is tall.\nfunc Giraffe() {}\n")
	var s2 SearchResult
	f.ok("definition", map[string]any{"name": "Giraffe"}, &s2)
	if g := hitNamed(t, s2, "Giraffe"); g.ContentHash == old.ContentHash || s2.Snapshot.Generation <= s.Snapshot.Generation {
		t.Fatalf("the search did not see the new bytes: %+v at %+v", g, s2.Snapshot)
	}
	if e := f.fail("read", map[string]any{"id": old.ID}); !strings.Contains(e.Message, "no longer has the bytes of "+old.ContentHash) {
		t.Errorf("a hit of the old bytes read: %+v", e)
	}
	f.writeFile("sub/client.go", "package sub\n\n// Hippo is new.\nfunc Hippo() {}\n")
	var r ReadResult
	f.ok("read", map[string]any{"path": "sub/client.go"}, &r)
	if !strings.Contains(r.Text, "Hippo") {
		t.Fatalf("read by path did not see the new bytes: %q", r.Text)
	}
}
