package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/hostile"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestBadArgumentsGetClearErrors: malformed, mistyped, missing, extra,
// oversized and ambiguous arguments are refused by the executor (or the
// handler, for what only it can know) with a tool error whose kind and
// message say what is wrong; an unknown tool is a protocol error.
func TestBadArgumentsGetClearErrors(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{AllowWrite: true}, "")
	h, _ := f.proj.FileHash("server.go")
	deep := strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100)
	for _, c := range []struct {
		name, tool string
		args       any
		kind, path string
		message    string
	}{
		{"not an object", "search", json.RawMessage(`"where is handle"`), "invalid_json", "", "one JSON object"},
		{"an array", "search", json.RawMessage(`["handle"]`), "invalid_json", "", "one JSON object"},
		{"duplicate keys", "search", json.RawMessage(`{"query":"handle","query":"x"}`), "invalid_json", "", "duplicate"},
		{"keys equal up to case", "search", json.RawMessage(`{"query":"handle","QUERY":"x"}`), "invalid_json", "", "duplicate"},
		{"too deep", "search", json.RawMessage(`{"query":"handle","x":` + deep + `}`), "invalid_json", "", "deep"},
		{"too large", "search", map[string]any{"query": strings.Repeat("a", MaxArgBytes)}, "too_large", "", "limit"},
		{"missing query", "search", map[string]any{}, "invalid_arguments", "root", "query"},
		{"query of the wrong type", "search", map[string]any{"query": 5}, "invalid_arguments", "/properties/query", "string"},
		{"empty query", "search", map[string]any{"query": ""}, "invalid_arguments", "/properties/query", ""},
		{"query over the limit", "search", map[string]any{"query": strings.Repeat("é", MaxQueryChars+1)}, "invalid_arguments", "/properties/query", ""},
		{"limit zero", "search", map[string]any{"query": "handle", "limit": 0}, "invalid_arguments", "/properties/limit", "minimum"},
		{"limit over the maximum", "search", map[string]any{"query": "handle", "limit": 1001}, "invalid_arguments", "/properties/limit", "maximum"},
		{"limit not an integer", "search", map[string]any{"query": "handle", "limit": 2.5}, "invalid_arguments", "/properties/limit", ""},
		{"an unknown argument", "search", map[string]any{"query": "handle", "root": "/"}, "invalid_arguments", "", "root"},
		{"a name that is words", "definition", map[string]any{"name": "what calls halt"}, "invalid_arguments", "/properties/name", "pattern"},
		{"a name with a newline", "callers", map[string]any{"name": "a\nb"}, "invalid_arguments", "/properties/name", ""},
		{"read with id and path", "read", map[string]any{"id": "server.go:1-2@" + h, "path": "server.go"}, "invalid_arguments", "root", "oneOf"},
		{"read with neither", "read", map[string]any{"start_line": 1}, "invalid_arguments", "root", "oneOf"},
		{"read of a malformed id", "read", map[string]any{"id": "server.go@nothing"}, "invalid_arguments", "/properties/id", "pattern"},
		{"read past the end", "read", map[string]any{"path": "server.go", "start_line": 999}, "handler_failed", "", "past its end"},
		{"read backwards", "read", map[string]any{"path": "server.go", "start_line": 9, "end_line": 2}, "handler_failed", "", "before start_line"},
		{"read outside the root", "read", map[string]any{"path": "../../go.mod"}, "handler_failed", "", "not inside the tool's root"},
		{"read of an absolute path", "read", map[string]any{"path": "/etc/passwd"}, "handler_failed", "", "absolute"},
		{"read of a file not in the snapshot", "read", map[string]any{"path": "nope.go"}, "handler_failed", "", "not a file of the current snapshot"},
		{"read of an id outside the root", "read", map[string]any{"id": "../../go.mod:1-2@" + h}, "handler_failed", "", "not inside the tool's root"},
		{"patch with a diff and edits", "apply_patch", map[string]any{"path": "server.go", "expected_hash": h, "unified_diff": addZebra,
			"edits": []map[string]any{{"start": 0, "end": 0, "text": "x"}}}, "invalid_arguments", "root", "oneOf"},
		{"patch with a malformed hash", "apply_patch", map[string]any{"path": "server.go", "expected_hash": "abc", "unified_diff": addZebra},
			"invalid_arguments", "/properties/expected_hash", "pattern"},
		{"patch with a negative offset", "apply_patch", map[string]any{"path": "server.go", "expected_hash": h,
			"edits": []map[string]any{{"start": -1, "end": 0, "text": "x"}}}, "invalid_arguments", "/properties/edits/items/properties/start", "minimum"},
		{"explain without a query", "explain", map[string]any{"q": "x"}, "invalid_arguments", "", ""},
		{"status with arguments", "status", map[string]any{"verbose": true}, "invalid_arguments", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := f.fail(c.tool, c.args)
			if string(e.Kind) != c.kind || c.path != "" && e.Path != c.path || !strings.Contains(e.Message, c.message) {
				t.Errorf("%s %s: %+v; want kind %s, path %q, a message with %q", c.tool, c.name, e, c.kind, c.path, c.message)
			}
			if len(e.Message) > 600 || strings.Contains(e.Message, f.root) {
				t.Errorf("the message is long or names the host path: %q", e.Message)
			}
		})
	}
	if _, err := f.cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "rm_rf", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "rm_rf") {
		t.Errorf("an unknown tool: %v", err)
	}
	if !strings.HasPrefix(f.readFile("server.go"), "// Package sample") {
		t.Error("a refused call changed a file")
	}
}

func hostileLines(t *testing.T) []string {
	return append(hostile.Queries(t, "../testdata/hostile-queries.txt"),
		strings.Repeat("(", 2000)+"halt"+strings.Repeat(")", 2000), "what calls \x00halt\x00?", strings.Repeat("halt. ", 200000))
}

// TestHostileQueriesReachPrologOnlyAsData: every line of
// testdata/hostile-queries.txt, sent as a query, a name or a task, is
// answered or refused with a clear error, and no goal built from it runs
// (tripwire host predicates stay silent); the server keeps answering.
func TestHostileQueriesReachPrologOnlyAsData(t *testing.T) {
	var tw hostile.Tripwires
	f := newFixture(t, rlm.Options{HostPredicates: tw.Predicates()}, withCompile(t, Options{}), "")
	answered := 0
	for _, q := range hostileLines(t) {
		for _, c := range []struct{ tool, arg string }{{"search", "query"}, {"explain", "query"}, {"definition", "name"}, {"callers", "name"}, {"compile", "query"}} {
			res := f.call(c.tool, map[string]any{c.arg: q})
			text := resultText(t, res)
			if !res.IsError {
				answered++
				continue
			}
			var body struct{ Error errorBody }
			if err := json.Unmarshal([]byte(text), &body); err != nil || body.Error.Kind == "handler_failed" && body.Error.Message == "the tool failed" {
				t.Errorf("%s(%.40q): an unclear error %s", c.tool, q, text)
			}
		}
	}
	if answered < 50 {
		t.Errorf("only %d hostile calls were answered (the rest refused): the tools should treat them as text", answered)
	}
	if fired := tw.Fired(); len(fired) > 0 {
		t.Fatalf("goals built from client text ran: %v", fired)
	}
	var s SearchResult
	f.ok("search", map[string]any{"query": "what calls handle?"}, &s)
	hitNamed(t, s, "ServeHTTP")
}

// TestASlowCallHonoursTheClientsCancellation: a search blocked in the
// embedder is cancelled when the client cancels the call (the handler's
// context is done well before the tool's timeout), and the session keeps
// serving.
func TestASlowCallHonoursTheClientsCancellation(t *testing.T) {
	emb := &testfixture.WordEmbedder{ModelID: "words", Dims: 32}
	var block atomic.Bool
	entered, saw := make(chan struct{}, 1), make(chan error, 1)
	emb.Before = func(ctx context.Context, _ int64) error {
		if !block.Load() {
			return nil
		}
		entered <- struct{}{}
		<-ctx.Done()
		saw <- ctx.Err()
		return ctx.Err()
	}
	f := newFixture(t, rlm.Options{Embedder: emb}, Options{}, "")
	block.Store(true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := f.cs.CallTool(ctx, &sdk.CallToolParams{Name: "search", Arguments: map[string]any{"query": "how are greetings written for paths"}})
		done <- err
	}()
	select {
	case <-entered:
	case <-time.After(30 * time.Second):
		t.Fatal("the search never reached the embedder (is the query planned as hybrid?)")
	}
	start := time.Now()
	cancel()
	select {
	case err := <-saw:
		if err != context.Canceled || time.Since(start) > 5*time.Second {
			t.Fatalf("the handler saw %v after %v", err, time.Since(start))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler was not cancelled 10s after the client cancelled")
	}
	if err := <-done; err == nil {
		t.Error("the cancelled call returned no error to the client")
	}
	block.Store(false)
	var s SearchResult
	f.ok("search", map[string]any{"query": "how are greetings written for paths"}, &s)
	hitNamed(t, s, "handle")
}

// TestConcurrentCallsAreSafe: many clients' searches, reads, status and
// explain calls run at once with a chain of patches; all succeed, each
// patch sees the previous one's hash, and the last edit is searchable.
func TestConcurrentCallsAreSafe(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{AllowWrite: true}, "")
	other := connect(t, f.srv, "2025-06-18")
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for g := range 8 {
		cs := f.cs
		if g%2 == 1 {
			cs = other
		}
		wg.Go(func() {
			for i := range 5 {
				for _, c := range []struct {
					tool string
					args map[string]any
				}{
					{"definition", map[string]any{"name": "handle"}},
					{"search", map[string]any{"query": "greeting for a path", "kinds": []string{"function"}}},
					{"status", map[string]any{}},
					{"explain", map[string]any{"query": fmt.Sprintf("what calls f%d?", i)}},
					{"read", map[string]any{"path": "server.go", "start_line": 1, "end_line": 5}},
				} {
					res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
					if err != nil || res.IsError {
						errs <- fmt.Errorf("%s: %v %v", c.tool, err, res)
					}
				}
			}
		})
	}
	hash, _ := f.proj.FileHash("sub/client.go")
	for i := range 5 {
		var p PatchResult
		f.ok("apply_patch", map[string]any{"path": "sub/client.go", "expected_hash": hash,
			"edits": []map[string]any{{"start": 0, "end": 0, "text": fmt.Sprintf("// edit %d\n", i)}}}, &p)
		hash = p.NewHash
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := f.readFile("sub/client.go"); !strings.HasPrefix(got, "// edit 4\n// edit 3\n// edit 2\n// edit 1\n// edit 0\npackage sub") {
		t.Fatalf("the chain of patches: %q", got[:80])
	}
	var s SearchResult
	f.ok("definition", map[string]any{"name": "Retry"}, &s)
	if hitNamed(t, s, "Retry").ContentHash != hash {
		t.Errorf("the last edit is not what search shows")
	}
}
