package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm"
)

// TestAMalformedLineIsAnsweredAndTheSessionGoesOn: over stdio, a line
// that is not JSON gets a -32700 response, and one that is JSON but not a
// message the SDK takes (an id that is an object or a boolean, another
// version tag, an empty batch, a batch the protocol version does not
// allow, two values on one line, a line over MaxLineBytes) gets -32600
// — with the request's id when it has a valid one — and the session
// answers the next request. Under a protocol version that has them, a
// batch is answered as a batch.
func TestAMalformedLineIsAnsweredAndTheSessionGoesOn(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	init := func(v string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + v + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	}
	r := serveRaw(t, f.srv)
	r.send(init("2025-06-18"))
	r.reply()
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	huge := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":{"query":"` + strings.Repeat("a", MaxLineBytes) + `"}}}`
	for _, c := range []struct {
		name, line string
		code       float64
		id         any
	}{
		{"not JSON", "garbage", -32700, nil},
		{"an id that is an object", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, -32600, nil},
		{"an id that is a boolean", `{"jsonrpc":"2.0","id":true,"method":"tools/list"}`, -32600, nil},
		{"another version tag", `{"jsonrpc":"1.0","id":7,"method":"tools/list"}`, -32600, 7.0},
		{"an empty batch", `[]`, -32600, nil},
		{"a batch in 2025-06-18", `[{"jsonrpc":"2.0","id":8,"method":"ping"}]`, -32600, nil},
		{"two values on a line", `{"jsonrpc":"2.0","id":9,"method":"ping"} {"jsonrpc":"2.0","id":10,"method":"ping"}`, -32700, nil},
		{"a line over the limit", huge, -32600, nil},
	} {
		r.send(c.line)
		m := r.reply()
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != c.code || m["id"] != c.id || m["jsonrpc"] != "2.0" {
			t.Errorf("%s: %.300v; want error %v with id %v", c.name, m, c.code, c.id)
		}
		r.send(`{"jsonrpc":"2.0","id":100,"method":"ping"}`)
		if m := r.reply(); m["id"] != 100.0 || m["result"] == nil {
			t.Fatalf("after %s, ping: %v", c.name, m)
		}
	}
	old := serveRaw(t, f.srv)
	old.send(init("2025-03-26"))
	old.reply()
	old.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	old.send(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`)
	if !old.out.Scan() || !strings.HasPrefix(old.out.Text(), "[") || strings.Count(old.out.Text(), `"result"`) != 2 {
		t.Fatalf("a batch under 2025-03-26: %s", old.out.Text())
	}
}

// TestEveryRequestReadBeforeTheInputEndsIsAnswered: a client that writes
// its requests and closes stdin at once (a pipe, a script) gets a
// response to each request the server read — initialize, two tool calls
// and a ping — before the session ends; notifications get none.
func TestEveryRequestReadBeforeTheInputEndsIsAnswered(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"where is Server defined?"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"status","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":"four","method":"ping"}`,
	}, "\n") + "\n"
	var out strings.Builder
	if err := f.srv.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	var ids []any
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %q", err, l)
		}
		if m["error"] != nil {
			t.Errorf("an error response: %s", l)
		}
		ids = append(ids, m["id"])
	}
	sort.Slice(ids, func(i, j int) bool { return fmt.Sprint(ids[i]) < fmt.Sprint(ids[j]) })
	if diff := cmp.Diff([]any{1.0, 2.0, 3.0, "four"}, ids); diff != "" {
		t.Errorf("response ids (-want +got):\n%s", diff)
	}
}
