package providers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestAnAnswerLargerThanTheLimitFailsWithoutReadingTheRest: a server that
// streams without end, or answers with one huge JSON body, costs the
// client at most MaxAnswerBytes of reading and ends in KindTooLarge after
// one attempt; an answer under the limit is untouched.
func TestAnAnswerLargerThanTheLimitFailsWithoutReadingTheRest(t *testing.T) {
	const limit = 64 << 10
	piece := strings.Repeat("x", 1000)
	cases := []struct {
		name   string
		stream bool
		serve  func(w http.ResponseWriter, r *http.Request)
	}{
		{name: "endless stream of content", stream: true, serve: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for i := 0; i < 100_000 && r.Context().Err() == nil; i++ {
				if _, err := fmt.Fprintf(w, "data: %s\n\n", chunk(`{"content":"`+piece+`"}`, "")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}},
		{name: "endless tool-call arguments", stream: true, serve: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\n", chunk(`{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":""}}]}`, ""))
			for i := 0; i < 100_000 && r.Context().Err() == nil; i++ {
				if _, err := fmt.Fprintf(w, "data: %s\n\n", chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"`+piece+`"}}]}`, "")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}},
		{name: "one huge JSON answer", serve: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, completionJSON(`{"role":"assistant","content":"`+strings.Repeat(piece, 10_000)+`"}`, "stop"))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) { c.serve(w, r) })
			cl := newTestChat(t, f, func(cfg *ChatConfig) { cfg.MaxAnswerBytes = limit })
			req := ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}}
			var err error
			delivered := 0
			if c.stream {
				_, err = cl.Stream(context.Background(), req, func(d StreamDelta) error { delivered += len(d.Content); return nil })
			} else {
				_, err = cl.Complete(context.Background(), req)
			}
			var pe *Error
			if !errors.As(err, &pe) || pe.Kind != KindTooLarge {
				t.Fatalf("err = %v, want kind %s", err, KindTooLarge)
			}
			if pe.Attempts != 1 || len(f.requests()) != 1 {
				t.Errorf("%d attempts, %d requests: an oversized answer must not be retried", pe.Attempts, len(f.requests()))
			}
			if delivered > limit {
				t.Errorf("%d bytes of content delivered, more than the %d-byte limit", delivered, limit)
			}
			if !strings.Contains(pe.Error(), fmt.Sprint(limit)) {
				t.Errorf("error %q does not name the limit", pe.Error())
			}
		})
	}
	t.Run("an answer under the limit passes", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
			sse(w, chunk(`{"content":"`+piece+`"}`, "stop"), "[DONE]")
		})
		cl := newTestChat(t, f, func(cfg *ChatConfig) { cfg.MaxAnswerBytes = limit })
		res, err := cl.Stream(context.Background(), ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}}, nil)
		if err != nil || res.Content != piece {
			t.Fatalf("got %v, %v", res, err)
		}
	})
	t.Run("a negative limit is a configuration error", func(t *testing.T) {
		_, err := NewChatClient(ChatConfig{Config: Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}, MaxAnswerBytes: -1})
		var pe *Error
		if !errors.As(err, &pe) || pe.Kind != KindConfiguration {
			t.Fatalf("err = %v, want kind %s", err, KindConfiguration)
		}
	})
}
