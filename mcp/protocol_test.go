package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-dev/rlm"
)

// The spec versions the server is tested with: the current one (the
// newest the SDK speaks), the previous one (the newest of the initialize
// handshake, and the TypeScript SDK's), and the one before it.
var specVersions = []string{"2026-07-28", "2025-11-25", "2025-06-18"}

// TestProtocolVersionNegotiationCoversTheCurrentAndPreviousSpecs: a client
// asking for the current or a previous spec version gets that version,
// and the tools work in each.
func TestProtocolVersionNegotiationCoversTheCurrentAndPreviousSpecs(t *testing.T) {
	if got := sdk.SupportedProtocolVersions(); got[0] != specVersions[0] {
		t.Fatalf("the SDK's current spec version is %s; update specVersions (and the Node client test)", got[0])
	}
	f := newFixture(t, rlm.Options{}, Options{}, "")
	for _, v := range specVersions {
		t.Run(v, func(t *testing.T) {
			cs := connect(t, f.srv, v)
			if got := cs.InitializeResult().ProtocolVersion; got != v {
				t.Fatalf("asked for %s, negotiated %s", v, got)
			}
			res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "definition", Arguments: map[string]any{"name": "handle"}})
			if err != nil || res.IsError {
				t.Fatalf("definition under %s: %v %v", v, err, res)
			}
			var s SearchResult
			if err := json.Unmarshal([]byte(resultText(t, res)), &s); err != nil {
				t.Fatal(err)
			}
			hitNamed(t, s, "handle")
		})
	}
}

// rawSession is a client speaking newline-delimited JSON-RPC to Serve
// through pipes, as a process's stdio would.
type rawSession struct {
	t   *testing.T
	in  *io.PipeWriter
	out *bufio.Scanner
}

func serveRaw(t *testing.T, srv *Server) *rawSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR) // replies nobody read must not block Serve
		serveReturned(t, done, "the client closed stdin")
	})
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	return &rawSession{t: t, in: inW, out: sc}
}

func (r *rawSession) send(msg string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, msg+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rawSession) reply() map[string]any {
	r.t.Helper()
	if !r.out.Scan() {
		r.t.Fatalf("no reply: %v", r.out.Err())
	}
	var m map[string]any
	if err := json.Unmarshal(r.out.Bytes(), &m); err != nil {
		r.t.Fatalf("%v: %s", err, r.out.Bytes())
	}
	return m
}

// TestStdioHandshakeNegotiatesAVersionTheServerSpeaks: over a byte
// stream, an initialize with a supported version gets it back, one with an
// unknown version gets the newest handshake version instead, requests
// before initialization are refused, and closing stdin ends Serve cleanly.
func TestStdioHandshakeNegotiatesAVersionTheServerSpeaks(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	init := func(v string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + v + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	}
	for _, c := range []struct{ asked, want string }{
		{"2025-11-25", "2025-11-25"}, {"2025-06-18", "2025-06-18"}, {"1999-01-01", "2025-11-25"},
	} {
		t.Run(c.asked, func(t *testing.T) {
			r := serveRaw(t, f.srv)
			r.send(`{"jsonrpc":"2.0","id":0,"method":"tools/list"}`)
			if m := r.reply(); m["error"] == nil {
				t.Errorf("tools/list before initialize: %v", m)
			}
			r.send(init(c.asked))
			m := r.reply()
			res, _ := m["result"].(map[string]any)
			if res["protocolVersion"] != c.want {
				t.Fatalf("asked %s: %v", c.asked, m)
			}
			r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"status","arguments":{}}}`)
			if m := r.reply(); m["result"] == nil || m["result"].(map[string]any)["isError"] == true {
				t.Fatalf("status: %v", m)
			}
		})
	}
}

// TestStreamableHTTPServesLoopbackClientsOnly: the HTTP handler serves an
// MCP client, and refuses a request whose Host is not a loopback name (DNS
// rebinding) and a cross-origin browser request.
func TestStreamableHTTPServesLoopbackClientsOnly(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	hs := httptest.NewServer(f.srv.Handler())
	defer hs.Close()
	client := sdk.NewClient(&sdk.Implementation{Name: "http-test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: hs.URL}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "callers", Arguments: map[string]any{"name": "handle"}})
	if err != nil || res.IsError {
		t.Fatalf("callers over HTTP: %v %v", err, res)
	}
	var s SearchResult
	json.Unmarshal([]byte(resultText(t, res)), &s)
	hitNamed(t, s, "ServeHTTP")

	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, c := range []struct {
		name   string
		header map[string]string
		host   string
	}{
		{"a rebinding Host", nil, "evil.example:80"},
		{"a cross-origin browser", map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", hs.URL, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			if c.host != "" {
				req.Host = c.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("status %d, want 403", resp.StatusCode)
			}
		})
	}
}

// TestServeStopsCleanlyWhenItsContextEnds: cancelling Serve's context (an
// interrupt of rlm mcp) ends the session at once without an error, even
// with the client still connected.
func TestServeStopsCleanlyWhenItsContextEnds(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.srv.Serve(ctx, inR, io.Discard) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	serveReturned(t, done, "its context ended")
}

// serveReturned fails t unless Serve, reporting on done, returned nil
// within 10 s of why.
func serveReturned(t *testing.T, done <-chan error, why string) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after %s: %v", why, err)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("Serve did not return after %s", why)
	}
}

// TestHostErrorsAreNotShownToTheClient: a failure whose text names host
// paths (here: the project closed under the server) reaches the client as
// "the tool failed", and the cause goes to the log.
func TestHostErrorsAreNotShownToTheClient(t *testing.T) {
	var log strings.Builder
	var mu sync.Mutex
	f := newFixture(t, rlm.Options{}, Options{Logger: slog.New(slog.NewTextHandler(lockedWriter{&mu, &log}, nil))}, "")
	f.proj.Close()
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"search", map[string]any{"query": "handle"}}, {"status", map[string]any{}}, {"read", map[string]any{"path": "server.go"}}} {
		e := f.fail(c.tool, c.args)
		if e.Kind != "handler_failed" || e.Message != "the tool failed" {
			t.Errorf("%s on a closed project: %+v", c.tool, e)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(log.String(), "closed") || !strings.Contains(log.String(), "tool=search") {
		t.Errorf("the causes were not logged:\n%s", log.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
