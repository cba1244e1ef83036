package testfixture

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Request is one request an HTTPFake received.
type Request struct {
	Call    int // 0-based arrival number
	Method  string
	Path    string
	Header  http.Header
	Body    map[string]any // the JSON object body; nil when empty or not an object
	BodyErr error          // why a non-empty body did not decode into Body
}

// HTTPFake is an httptest server that records every request (decoding its
// JSON body) before handing it to the test's handler. It stops when the
// test ends.
type HTTPFake struct {
	Server *httptest.Server
	mu     sync.Mutex
	reqs   []Request
}

// NewHTTPFake starts a fake whose handle answers each request; req is what
// was recorded for it.
func NewHTTPFake(tb testing.TB, handle func(w http.ResponseWriter, r *http.Request, req Request)) *HTTPFake {
	tb.Helper()
	f := &HTTPFake{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()}
		if raw, _ := io.ReadAll(r.Body); len(raw) > 0 {
			req.BodyErr = json.Unmarshal(raw, &req.Body)
		}
		f.mu.Lock()
		req.Call = len(f.reqs)
		f.reqs = append(f.reqs, req)
		f.mu.Unlock()
		handle(w, r, req)
	}))
	tb.Cleanup(f.Server.Close)
	return f
}

// Requests returns a copy of the requests received so far, in arrival
// order.
func (f *HTTPFake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.reqs...)
}
