package tools

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
)

// recorder is a handler that records every call it receives: the proof
// that a refused call ran nothing.
type recorder struct {
	mu    sync.Mutex
	calls []json.RawMessage
}

// handler returns a Handler that records its arguments and answers with
// the argument object it was given.
func (r *recorder) handler() Handler {
	return func(_ context.Context, args json.RawMessage) (any, error) {
		r.mu.Lock()
		r.calls = append(r.calls, append(json.RawMessage(nil), args...))
		r.mu.Unlock()
		return map[string]any{"echo": args}, nil
	}
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

func (r *recorder) last() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.calls) == 0 {
		return nil
	}
	return r.calls[len(r.calls)-1]
}

func mustRegister(t testing.TB, r *Registry, tools ...Tool) {
	t.Helper()
	for _, tool := range tools {
		if err := r.Register(tool); err != nil {
			t.Fatalf("Register(%s): %v", tool.Name, err)
		}
	}
}

// errorContent decodes an Outcome's Content as the error object the model
// is sent; ok is false when it is not that shape.
func errorContent(content string) (kind ErrorKind, message string, ok bool) {
	var v struct {
		Error *struct {
			Kind    ErrorKind `json:"kind"`
			Message string    `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(content), &v); err != nil || v.Error == nil {
		return "", "", false
	}
	return v.Error.Kind, v.Error.Message, true
}

// checkRefused asserts that out is a refusal of kind want, consistently in
// Err and in the Content the model sees.
func checkRefused(t *testing.T, out Outcome, want ErrorKind) {
	t.Helper()
	if out.OK || out.Err == nil {
		t.Fatalf("outcome OK, want refusal %s; content %s", want, out.Content)
	}
	if out.Err.Kind != want {
		t.Fatalf("kind %s (%s), want %s", out.Err.Kind, out.Err.Message, want)
	}
	kind, msg, ok := errorContent(out.Content)
	if !ok || kind != want || msg != out.Err.Message {
		t.Fatalf("content %s does not carry kind %s and message %q", out.Content, want, out.Err.Message)
	}
}
