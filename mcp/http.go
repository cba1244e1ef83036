package mcp

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of the HTTP transport's sessions (Options.MaxSessions,
// Options.SessionIdleTimeout).
const (
	DefaultMaxSessions        = 16
	DefaultSessionIdleTimeout = 30 * time.Minute
)

// CodeTooManySessions is the JSON-RPC error code (in the server-defined
// range) of a new HTTP session refused because MaxSessions are open.
const CodeTooManySessions = -32001

// Handler serves the streamable HTTP transport (one session per client,
// Mcp-Session-Id). It refuses requests that reach a loopback address with
// a non-loopback Host header (DNS rebinding) and cross-origin browser
// requests. At most Options.MaxSessions sessions are open: a request that
// would start another gets HTTP 503 with Retry-After and a JSON-RPC error
// (CodeTooManySessions, id null). A session without a request for
// Options.SessionIdleTimeout is closed; its id then gets HTTP 404.
func (s *Server) Handler() http.Handler {
	max, idle := s.opts.MaxSessions, s.opts.SessionIdleTimeout
	if max <= 0 {
		max = DefaultMaxSessions
	}
	if idle <= 0 {
		idle = DefaultSessionIdleTimeout
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv },
		&sdk.StreamableHTTPOptions{Logger: s.opts.Logger, MaxRequestBodyBytes: MaxMessageBytes, SessionTimeout: idle})
	return http.NewCrossOriginProtection().Handler(&sessionCap{next: h, srv: s.srv, max: max, idle: idle})
}

// sessionCap refuses a request that would open a session (a POST without
// Mcp-Session-Id) when max HTTP sessions are open or being opened.
type sessionCap struct {
	next      http.Handler
	srv       *sdk.Server
	max       int
	idle      time.Duration
	mu        sync.Mutex
	admitting int // new-session requests under way
}

func (c *sessionCap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
		c.next.ServeHTTP(w, r)
		return
	}
	c.mu.Lock()
	if c.open()+c.admitting >= c.max {
		c.mu.Unlock()
		c.waitForClosing(r.Context())
		c.mu.Lock()
	}
	if c.open()+c.admitting >= c.max {
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", strconv.Itoa(int(min(c.idle, time.Minute)/time.Second)))
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write(errorResponse(nil, CodeTooManySessions, fmt.Sprintf(
			"too many sessions: %d are open, the most this server allows; end one (DELETE with its Mcp-Session-Id) or retry after one has been idle for %s", c.max, c.idle)))
		return
	}
	c.admitting++
	c.mu.Unlock()
	var once sync.Once
	admitted := func() {
		once.Do(func() {
			c.mu.Lock()
			c.admitting--
			c.mu.Unlock()
		})
	}
	defer admitted()
	// The session counts in open() once the SDK answers the request (it
	// registers the session first), while the response may stay open as a
	// stream: it stops counting as admitting then, or it would count twice.
	c.next.ServeHTTP(&admittedWriter{ResponseWriter: w, admitted: admitted}, r)
}

// closingGrace is how long a request for a new session waits, at the cap,
// for a session that is closing to leave: the SDK closes a session (idle
// timeout, DELETE) at once but drops it from Server.Sessions only when its
// connection has wound down, an instant later.
const closingGrace = 50 * time.Millisecond

// waitForClosing waits up to closingGrace for the count of open or
// admitted sessions to fall below the cap.
func (c *sessionCap) waitForClosing(ctx context.Context) {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	deadline := time.After(closingGrace)
	for {
		select {
		case <-ctx.Done():
			return
		case <-deadline:
			return
		case <-t.C:
			c.mu.Lock()
			below := c.open()+c.admitting < c.max
			c.mu.Unlock()
			if below {
				return
			}
		}
	}
}

// admittedWriter calls admitted when the response starts.
type admittedWriter struct {
	http.ResponseWriter
	admitted func()
}

func (w *admittedWriter) WriteHeader(code int) {
	w.admitted()
	w.ResponseWriter.WriteHeader(code)
}

func (w *admittedWriter) Write(b []byte) (int, error) {
	w.admitted()
	return w.ResponseWriter.Write(b)
}

// Flush and Unwrap keep streaming working through the wrapper
// (http.ResponseController).
func (w *admittedWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *admittedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// open counts the server's HTTP sessions (those with a session id: stdio
// and in-memory sessions have none).
func (c *sessionCap) open() int {
	n := 0
	for ss := range c.srv.Sessions() {
		if ss.ID() != "" {
			n++
		}
	}
	return n
}
