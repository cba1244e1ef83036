package chroma

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// client is the thin JSON-over-HTTP layer: one method, do.
type client struct {
	base     string // scheme://host[:port][/prefix], no trailing slash
	http     *http.Client
	ownHTTP  bool
	timeout  time.Duration
	maxResp  int64
	tokenEnv string
}

func newClient(cfg Config) (*client, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("chroma: URL %q: want http(s)://host:port", redactURL(cfg.URL))
	}
	if u.User != nil {
		return nil, fmt.Errorf("chroma: URL must not carry credentials; use Config.TokenEnv")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("chroma: URL %q must not have a query or fragment", redactURL(cfg.URL))
	}
	c := &client{
		base:     strings.TrimRight(u.String(), "/"),
		http:     cfg.HTTPClient,
		timeout:  cfg.Timeout,
		maxResp:  cfg.MaxResponseBytes,
		tokenEnv: cfg.TokenEnv,
	}
	if c.http == nil {
		c.http = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		c.ownHTTP = true
	}
	return c, nil
}

// redactURL is s as errors may show it: without the user information, query
// and fragment, where credentials ride (each replaced by REDACTED), and
// nothing of s if it does not parse as a URL.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	if u.User != nil {
		u.User = url.User("REDACTED")
	}
	if u.RawQuery != "" || u.ForceQuery {
		u.RawQuery, u.ForceQuery = "REDACTED", false
	}
	if u.Fragment != "" {
		u.Fragment, u.RawFragment = "REDACTED", ""
	}
	return u.String()
}

func (c *client) close() {
	if c.ownHTTP {
		c.http.CloseIdleConnections()
	}
}

// do sends body (JSON-encoded unless nil) to method path and decodes a 2xx
// answer into out (unless nil). Errors are *Error.
func (c *client) do(ctx context.Context, op, method, path string, body, out any) error {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			// Only reachable through a programming error: inputs are
			// validated (finite floats, plain values) before this point.
			return &Error{Op: op, Kind: "encode", Message: err.Error(), cause: err}
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return &Error{Op: op, Kind: KindTransport, Message: err.Error(), cause: err}
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.tokenEnv != "" {
		if tok := os.Getenv(c.tokenEnv); tok != "" {
			req.Header.Set("X-Chroma-Token", tok)
		}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return transportError(op, ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxResp+1))
	if err != nil {
		return transportError(op, ctx, err)
	}
	if int64(len(data)) > c.maxResp {
		return &Error{Op: op, Status: resp.StatusCode, Kind: KindTooLarge,
			Message: fmt.Sprintf("response body over %d bytes", c.maxResp)}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return httpError(op, resp.StatusCode, data)
	}
	if out == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(out); err != nil {
		return &Error{Op: op, Status: resp.StatusCode, Kind: KindMalformed,
			Message: fmt.Sprintf("%v; body starts %q", err, excerpt(data)), cause: err}
	}
	return nil
}

// httpError builds the *Error for a non-2xx answer.
func httpError(op string, status int, data []byte) *Error {
	var body struct {
		Error   *string `json:"error"`
		Message *string `json:"message"`
	}
	if json.Unmarshal(data, &body) == nil && (body.Error != nil || body.Message != nil) {
		e := &Error{Op: op, Status: status}
		if body.Error != nil {
			e.Kind = *body.Error
		}
		if body.Message != nil {
			e.Message = *body.Message
		}
		return e
	}
	msg := excerpt(data)
	if msg == "" {
		msg = http.StatusText(status)
	}
	return &Error{Op: op, Status: status, Message: msg}
}

// excerpt returns at most 512 bytes of data as valid UTF-8 text.
func excerpt(data []byte) string {
	const max = 512
	if len(data) > max {
		data = data[:max]
	}
	return strings.ToValidUTF8(strings.TrimSpace(string(data)), "\uFFFD")
}

// isNotFound reports a 404 answer.
func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
