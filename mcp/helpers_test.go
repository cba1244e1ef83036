package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

const sample = "../testdata/gosample"

// fixture is a server over a copy of testdata/gosample and a client
// connected to it in memory.
type fixture struct {
	t    *testing.T
	root string
	proj *rlm.Project
	srv  *Server
	cs   *sdk.ClientSession
}

// newFixture opens a copy of the sample tree (in memory) with popts and
// connects a client to a server built with sopts, speaking version ("":
// the SDK's latest).
func newFixture(t *testing.T, popts rlm.Options, sopts Options, version string) *fixture {
	t.Helper()
	root := testfixture.CopyTree(t, sample)
	popts.InMemory = true
	p, err := rlm.Open(t.Context(), root, popts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	srv, err := New(p, sopts)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, root: root, proj: p, srv: srv}
	f.cs = connect(t, srv, version)
	return f
}

// connect runs srv on one end of an in-memory pipe and returns a client
// session on the other.
func connect(t *testing.T, srv *Server, version string) *sdk.ClientSession {
	t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.SDK().Run(ctx, st)
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "rlm-test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), ct, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		cancel()
		t.Fatalf("connect (protocol %q): %v", version, err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs
}

// call calls a tool with args (any JSON value; a json.RawMessage is sent
// as it is) and fails the test on a protocol error.
func (f *fixture) call(name string, args any) *sdk.CallToolResult {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := f.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		f.t.Fatalf("%s: %v", name, err)
	}
	return res
}

// ok calls a tool that must succeed and decodes its result into out.
func (f *fixture) ok(name string, args, out any) {
	f.t.Helper()
	res := f.call(name, args)
	text := resultText(f.t, res)
	if res.IsError {
		f.t.Fatalf("%s(%v) failed: %s", name, args, text)
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		f.t.Fatalf("%s: %v in %s", name, err, text)
	}
	if sc, err := json.Marshal(res.StructuredContent); err != nil || !jsonEqual(sc, []byte(text)) {
		f.t.Fatalf("%s: structured content %s differs from the text %s", name, sc, text)
	}
}

// fail calls a tool that must fail and returns its error body.
func (f *fixture) fail(name string, args any) errorBody {
	f.t.Helper()
	res := f.call(name, args)
	text := resultText(f.t, res)
	if !res.IsError {
		f.t.Fatalf("%s(%v) succeeded, want an error: %s", name, args, text)
	}
	var body struct{ Error errorBody }
	if err := json.Unmarshal([]byte(text), &body); err != nil || body.Error.Kind == "" || body.Error.Message == "" {
		f.t.Fatalf("%s: error content %s is not {\"error\":{\"kind\",\"message\"}} (%v)", name, text, err)
	}
	return body.Error
}

func resultText(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("want one content item, got %d", len(res.Content))
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	return tc.Text
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// readFile returns a file of the fixture's tree.
func (f *fixture) readFile(rel string) string {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.root, filepath.FromSlash(rel)))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

// writeFile changes a file of the tree behind the server's back.
func (f *fixture) writeFile(rel, text string) {
	f.t.Helper()
	testfixture.WriteFiles(f.t, f.root, map[string]string{rel: text})
}

// hitNamed returns the first hit whose symbol is name.
func hitNamed(t *testing.T, r SearchResult, name string) Hit {
	t.Helper()
	for _, h := range r.Hits {
		if h.Symbol == name {
			return h
		}
	}
	var got []string
	for _, h := range r.Hits {
		got = append(got, h.Path+":"+h.Symbol)
	}
	t.Fatalf("%q: no hit for %s among %s", r.Query, name, strings.Join(got, ", "))
	return Hit{}
}
