package mcp

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-dev/rlm"
)

// TestHTTPSessionsAreCappedAndIdleOnesClosed: with MaxSessions open over
// HTTP (the fixture's in-memory session does not count), a request for
// another is refused with HTTP 503, Retry-After and a JSON-RPC error
// saying why; a session with no request for SessionIdleTimeout is closed
// (one that pings stays), which makes room for a new one.
func TestHTTPSessionsAreCappedAndIdleOnesClosed(t *testing.T) {
	const idle = 500 * time.Millisecond
	f := newFixture(t, rlm.Options{}, Options{MaxSessions: 2, SessionIdleTimeout: idle}, "")
	hs := httptest.NewServer(f.srv.Handler())
	defer hs.Close()
	connect := func() (*sdk.ClientSession, error) {
		client := sdk.NewClient(&sdk.Implementation{Name: "http-test", Version: "1"}, nil)
		return client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: hs.URL, DisableStandaloneSSE: true}, nil)
	}
	var sessions []*sdk.ClientSession
	for range 2 {
		cs, err := connect()
		if err != nil {
			t.Fatalf("a session within the cap: %v", err)
		}
		defer cs.Close()
		sessions = append(sessions, cs)
	}
	req, _ := http.NewRequest("POST", hs.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var m struct {
		Error struct {
			Code    int
			Message string
		}
	}
	if json.Unmarshal(body, &m) != nil || resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" ||
		m.Error.Code != CodeTooManySessions || !strings.Contains(m.Error.Message, "too many sessions: 2 are open") {
		t.Fatalf("a third session: HTTP %d, Retry-After %q, %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if cs, err := connect(); err == nil {
		cs.Close()
		t.Fatal("a third client connected")
	}
	// Session 0 pings, session 1 is idle.
	for deadline := time.Now().Add(3 * idle); time.Now().Before(deadline); time.Sleep(idle / 5) {
		if err := sessions[0].Ping(t.Context(), nil); err != nil {
			t.Fatalf("a session that pings was closed: %v", err)
		}
	}
	if err := sessions[1].Ping(t.Context(), nil); err == nil {
		t.Error("an idle session still answers")
	}
	cs, err := connect()
	if err != nil {
		t.Fatalf("a new session after one idled out: %v", err)
	}
	cs.Close()
}
