package testfixture

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// FakeToolCall is a tool call a ChatFake turn makes.
type FakeToolCall struct {
	ID, Name, Arguments string
}

// ChatTurn is one scripted answer of a ChatFake to a chat completion
// request, streamed as OpenAI-compatible server-sent events.
type ChatTurn struct {
	Content   string         // streamed in pieces of at most 8 bytes
	Refusal   string         // the model's refusal message, streamed after the content
	ToolCalls []FakeToolCall // sent after the content
	Finish    string         // finish_reason; default "tool_calls" with tool calls, else "stop"
	Status    int            // non-zero and not 200: answer with this HTTP status and an error body
	Delay     time.Duration  // wait before answering (the request's context can end first)
	Hang      bool           // stream the first piece, then block until the request ends
	Usage     [3]int         // prompt, completion, total tokens (default 10, 5, 15)
}

// ChatFake is a scripted fake of an OpenAI-compatible /chat/completions
// endpoint over HTTPFake: every request is recorded; script gives the turn
// for the 0-based call number. It speaks both streaming and plain JSON.
type ChatFake struct {
	*HTTPFake
}

// NewChatFake starts a ChatFake.
func NewChatFake(tb testing.TB, script func(call int, req Request) ChatTurn) *ChatFake {
	tb.Helper()
	return &ChatFake{NewHTTPFake(tb, func(w http.ResponseWriter, r *http.Request, req Request) {
		turn := script(req.Call, req)
		if turn.Delay > 0 {
			select {
			case <-time.After(turn.Delay):
			case <-r.Context().Done():
				return
			}
		}
		if turn.Status != 0 && turn.Status != http.StatusOK {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(turn.Status)
			fmt.Fprintf(w, `{"error":{"message":"scripted failure %d","type":"server_error"}}`, turn.Status)
			return
		}
		if turn.Usage == [3]int{} {
			turn.Usage = [3]int{10, 5, 15}
		}
		if turn.Finish == "" {
			turn.Finish = "stop"
			if len(turn.ToolCalls) > 0 {
				turn.Finish = "tool_calls"
			}
		}
		if stream, _ := req.Body["stream"].(bool); !stream {
			writeCompletion(w, turn)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		fl, _ := w.(http.Flusher)
		send := func(s string) {
			_, _ = io.WriteString(w, "data: "+s+"\n\n")
			if fl != nil {
				fl.Flush()
			}
		}
		send(chatChunk(`{"role":"assistant","content":""}`, ""))
		for i, piece := range pieces(turn.Content, 8) {
			b, _ := json.Marshal(map[string]string{"content": piece})
			send(chatChunk(string(b), ""))
			if turn.Hang && i == 0 {
				<-r.Context().Done()
				return
			}
		}
		if turn.Hang {
			<-r.Context().Done()
			return
		}
		for _, piece := range pieces(turn.Refusal, 8) {
			b, _ := json.Marshal(map[string]string{"refusal": piece})
			send(chatChunk(string(b), ""))
		}
		for i, tc := range turn.ToolCalls {
			b, _ := json.Marshal(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": tc.ID, "type": "function",
				"function": map[string]any{"name": tc.Name, "arguments": tc.Arguments}}}})
			send(chatChunk(string(b), ""))
		}
		send(chatChunk(`{}`, turn.Finish))
		send(fmt.Sprintf(`{"id":"chatcmpl-f","object":"chat.completion.chunk","created":1,"model":"fake-chat","choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`,
			turn.Usage[0], turn.Usage[1], turn.Usage[2]))
		send("[DONE]")
	})}
}

// URL is the base URL to configure a client with (…/v1).
func (f *ChatFake) URL() string { return f.Server.URL + "/v1" }

func chatChunk(delta, finish string) string {
	fr := "null"
	if finish != "" {
		fr = `"` + finish + `"`
	}
	return fmt.Sprintf(`{"id":"chatcmpl-f","object":"chat.completion.chunk","created":1,"model":"fake-chat","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`, delta, fr)
}

func writeCompletion(w http.ResponseWriter, t ChatTurn) {
	msg := map[string]any{"role": "assistant", "content": t.Content}
	if t.Refusal != "" {
		msg["refusal"] = t.Refusal
	}
	if len(t.ToolCalls) > 0 {
		var tcs []any
		for _, tc := range t.ToolCalls {
			tcs = append(tcs, map[string]any{"id": tc.ID, "type": "function", "function": map[string]any{"name": tc.Name, "arguments": tc.Arguments}})
		}
		msg["tool_calls"] = tcs
	}
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-f", "object": "chat.completion", "created": 1, "model": "fake-chat",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": t.Finish}},
		"usage":   map[string]any{"prompt_tokens": t.Usage[0], "completion_tokens": t.Usage[1], "total_tokens": t.Usage[2]}})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

func pieces(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut > 0 && cut < len(s) && (s[cut]&0xC0) == 0x80 {
			cut--
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// ChatMessages returns the messages of a recorded chat request as
// role → content pairs, in order (tool messages included).
func ChatMessages(req Request) [][2]string {
	var out [][2]string
	msgs, _ := req.Body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		role, _ := mm["role"].(string)
		content := ""
		switch c := mm["content"].(type) {
		case string:
			content = c
		case []any:
			var b strings.Builder
			for _, p := range c {
				if pm, ok := p.(map[string]any); ok {
					if t, ok := pm["text"].(string); ok {
						b.WriteString(t)
					}
				}
			}
			content = b.String()
		}
		out = append(out, [2]string{role, content})
	}
	return out
}

// ChatToolNames returns the names of the tools a recorded chat request
// offered the model, in order.
func ChatToolNames(req Request) []string {
	var out []string
	ts, _ := req.Body["tools"].([]any)
	for _, t := range ts {
		tm, _ := t.(map[string]any)
		fn, _ := tm["function"].(map[string]any)
		name, _ := fn["name"].(string)
		out = append(out, name)
	}
	return out
}
