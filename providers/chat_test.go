package providers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func newTestChat(t *testing.T, f *fake, mod func(*ChatConfig)) *ChatClient {
	t.Helper()
	t.Setenv(testKeyEnv, testKey)
	cfg := ChatConfig{Config: testConfig(f, "fake-chat")}
	if mod != nil {
		mod(&cfg)
	}
	c, err := NewChatClient(cfg)
	if err != nil {
		t.Fatalf("NewChatClient: %v", err)
	}
	return c
}

func TestChatComplete(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		writeJSON(w, 200, completionJSON(`{"role":"assistant","content":"hello there"}`, "stop"))
	})
	c := newTestChat(t, f, nil)
	temp := 0.2
	res, err := c.Complete(context.Background(), ChatRequest{
		Messages:    []Message{{Role: RoleSystem, Content: "be brief"}, {Role: RoleUser, Content: "hi"}},
		Temperature: &temp,
		MaxTokens:   50,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := &ChatResponse{Provider: "fake", Model: "fake-chat", ID: "chatcmpl-9", Content: "hello there", FinishReason: "stop",
		Usage: Usage{PromptTokens: 5, CompletionTokens: 3, TotalTokens: 8}}
	if d := cmp.Diff(want, res); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
	req := f.requests()[0]
	if req.Path != "/v1/chat/completions" {
		t.Errorf("path %s", req.Path)
	}
	wantBody := map[string]any{
		"model":                 "fake-chat",
		"temperature":           0.2,
		"max_completion_tokens": float64(50),
		"messages": []any{
			map[string]any{"role": "system", "content": "be brief"},
			map[string]any{"role": "user", "content": "hi"},
		},
	}
	if d := cmp.Diff(wantBody, req.Body); d != "" {
		t.Errorf("request body (-want +got):\n%s", d)
	}
}

var weatherTool = Tool{
	Name:        "get_weather",
	Description: "Weather for a city",
	Parameters: map[string]any{
		"type":       "object",
		"properties": map[string]any{"city": map[string]any{"type": "string"}},
		"required":   []any{"city"},
	},
	Strict: true,
}

func TestChatToolCallRoundTrip(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		if call == 0 {
			writeJSON(w, 200, completionJSON(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]}`, "tool_calls"))
			return
		}
		writeJSON(w, 200, completionJSON(`{"role":"assistant","content":"It is cold in Oslo."}`, "stop"))
	})
	c := newTestChat(t, f, nil)
	msgs := []Message{{Role: RoleUser, Content: "Weather in Oslo?"}}
	res, err := c.Complete(context.Background(), ChatRequest{Messages: msgs, Tools: []Tool{weatherTool}, ToolChoice: "get_weather"})
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := []ToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Oslo"}`}}
	if d := cmp.Diff(wantCalls, res.ToolCalls); d != "" || res.FinishReason != "tool_calls" {
		t.Fatalf("tool calls (-want +got):\n%s finish=%q", d, res.FinishReason)
	}
	wantTools := []any{map[string]any{"type": "function", "function": map[string]any{
		"name": "get_weather", "description": "Weather for a city", "strict": true,
		"parameters": weatherTool.Parameters,
	}}}
	if d := cmp.Diff(wantTools, f.requests()[0].Body["tools"]); d != "" {
		t.Errorf("tools sent (-want +got):\n%s", d)
	}
	wantChoice := map[string]any{"type": "function", "function": map[string]any{"name": "get_weather"}}
	if d := cmp.Diff(wantChoice, f.requests()[0].Body["tool_choice"]); d != "" {
		t.Errorf("tool_choice sent (-want +got):\n%s", d)
	}

	msgs = append(msgs,
		Message{Role: RoleAssistant, ToolCalls: res.ToolCalls},
		Message{Role: RoleTool, ToolCallID: "call_1", Content: `{"temp_c":-3}`})
	res, err = c.Complete(context.Background(), ChatRequest{Messages: msgs, Tools: []Tool{weatherTool}, ToolChoice: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Content != "It is cold in Oslo." {
		t.Errorf("content %q", res.Content)
	}
	wantHistory := []any{
		map[string]any{"role": "user", "content": "Weather in Oslo?"},
		map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
			"id": "call_1", "type": "function", "function": map[string]any{"name": "get_weather", "arguments": `{"city":"Oslo"}`}}}},
		map[string]any{"role": "tool", "tool_call_id": "call_1", "content": `{"temp_c":-3}`},
	}
	if d := cmp.Diff(wantHistory, f.requests()[1].Body["messages"]); d != "" {
		t.Errorf("history sent (-want +got):\n%s", d)
	}
	if f.requests()[1].Body["tool_choice"] != "auto" {
		t.Errorf("tool_choice = %v", f.requests()[1].Body["tool_choice"])
	}
}

func TestChatStructuredOutput(t *testing.T) {
	schema := &JSONSchema{Name: "answer", Schema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}}, Strict: true}
	cases := []struct {
		name     string
		content  string
		finish   string
		wantErr  Kind
		wantText string
	}{
		{"valid JSON", `{\"ok\":true}`, "stop", "", `{"ok":true}`},
		{"not JSON", `sure! ok`, "stop", KindInvalidResponse, ""},
		{"truncated by length is passed through", `{\"ok\":`, "length", "", `{"ok":`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
				writeJSON(w, 200, completionJSON(`{"role":"assistant","content":"`+tc.content+`"}`, tc.finish))
			})
			c := newTestChat(t, f, nil)
			res, err := c.Complete(context.Background(), ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}, ResponseSchema: schema})
			if tc.wantErr != "" {
				if !IsKind(err, tc.wantErr) {
					t.Fatalf("err = %v, want %s", err, tc.wantErr)
				}
			} else if err != nil || res.Content != tc.wantText {
				t.Fatalf("res=%+v err=%v", res, err)
			}
			wantRF := map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "answer", "strict": true, "schema": schema.Schema}}
			if d := cmp.Diff(wantRF, f.requests()[0].Body["response_format"]); d != "" {
				t.Errorf("response_format (-want +got):\n%s", d)
			}
		})
	}
}

func TestChatBadRequestBeforeNetwork(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		t.Error("no request expected")
	})
	c := newTestChat(t, f, nil)
	user := []Message{{Role: RoleUser, Content: "q"}}
	cases := []struct {
		name string
		req  ChatRequest
	}{
		{"no messages", ChatRequest{}},
		{"unknown role", ChatRequest{Messages: []Message{{Role: "robot", Content: "x"}}}},
		{"tool without id", ChatRequest{Messages: []Message{{Role: RoleTool, Content: "x"}}}},
		{"assistant call without id", ChatRequest{Messages: []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{{Name: "f"}}}}}},
		{"duplicate tool", ChatRequest{Messages: user, Tools: []Tool{{Name: "a"}, {Name: "a"}}}},
		{"choice names no tool", ChatRequest{Messages: user, ToolChoice: "nope"}},
		{"schema without name", ChatRequest{Messages: user, ResponseSchema: &JSONSchema{Schema: map[string]any{}}}},
		{"negative max tokens", ChatRequest{Messages: user, MaxTokens: -1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Complete(context.Background(), tc.req)
			if !IsKind(err, KindConfiguration) {
				t.Errorf("Complete: err = %v, want configuration", err)
			}
			_, err = c.Stream(context.Background(), tc.req, nil)
			if !IsKind(err, KindConfiguration) {
				t.Errorf("Stream: err = %v, want configuration", err)
			}
		})
	}
}

func TestChatStream(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		sse(w,
			chunk(`{"role":"assistant","content":""}`, ""),
			chunk(`{"content":"Hel"}`, ""),
			chunk(`{"content":"lo"}`, ""),
			chunk(`{"tool_calls":[{"index":0,"id":"call_7","type":"function","function":{"name":"get_weather","arguments":""}}]}`, ""),
			chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}`, ""),
			chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"Oslo\"}"}}]}`, ""),
			chunk(`{}`, "tool_calls"),
			usageChunk,
			"[DONE]")
	})
	c := newTestChat(t, f, nil)
	var deltas []StreamDelta
	res, err := c.Stream(context.Background(), ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}, Tools: []Tool{weatherTool}},
		func(d StreamDelta) error { deltas = append(deltas, d); return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := &ChatResponse{Provider: "fake", Model: "fake-chat", ID: "chatcmpl-1", Content: "Hello", FinishReason: "tool_calls",
		ToolCalls: []ToolCall{{ID: "call_7", Name: "get_weather", Arguments: `{"city":"Oslo"}`}},
		Usage:     Usage{PromptTokens: 11, CompletionTokens: 7, TotalTokens: 18}}
	if d := cmp.Diff(want, res); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
	wantDeltas := []StreamDelta{
		{Content: "Hel"}, {Content: "lo"},
		{ToolCalls: []ToolCallDelta{{Index: 0, ID: "call_7", Name: "get_weather"}}},
		{ToolCalls: []ToolCallDelta{{Index: 0, Arguments: `{"city":`}}},
		{ToolCalls: []ToolCallDelta{{Index: 0, Arguments: `"Oslo"}`}}},
	}
	if d := cmp.Diff(wantDeltas, deltas); d != "" {
		t.Errorf("deltas (-want +got):\n%s", d)
	}
	body := f.requests()[0].Body
	if body["stream"] != true {
		t.Errorf("stream = %v", body["stream"])
	}
	if d := cmp.Diff(map[string]any{"include_usage": true}, body["stream_options"]); d != "" {
		t.Errorf("stream_options (-want +got):\n%s", d)
	}
}

func TestChatStreamNoUsageOption(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		sse(w, chunk(`{"content":"x"}`, "stop"), "[DONE]")
	})
	c := newTestChat(t, f, func(c *ChatConfig) { c.NoStreamUsage = true })
	if _, err := c.Stream(context.Background(), ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.requests()[0].Body["stream_options"]; ok {
		t.Error("stream_options sent with NoStreamUsage")
	}
}

func TestChatStreamInvalid(t *testing.T) {
	cases := []struct {
		name     string
		serve    func(w http.ResponseWriter)
		wantKind Kind
		wantMsg  string
	}{
		{"truncated: no finish, no DONE", func(w http.ResponseWriter) {
			sse(w, chunk(`{"content":"Hel"}`, ""))
		}, KindInvalidStream, "[DONE]"},
		{"finish but no DONE", func(w http.ResponseWriter) {
			sse(w, chunk(`{"content":"Hel"}`, "stop"))
		}, KindInvalidStream, "[DONE]"},
		{"DONE but no finish_reason", func(w http.ResponseWriter) {
			sse(w, chunk(`{"content":"Hel"}`, ""), "[DONE]")
		}, KindInvalidStream, "finish_reason"},
		{"DONE without any chunk", func(w http.ResponseWriter) {
			sse(w, "[DONE]")
		}, KindInvalidStream, "no choices"},
		{"cut inside an event", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "data: "+chunk(`{"content":"Hel"}`, "")+"\n\ndata: {\"id\":\"chatcmpl-1\",\"cho")
		}, KindInvalidStream, "[DONE]"},
		{"malformed chunk JSON", func(w http.ResponseWriter) {
			sse(w, chunk(`{"content":"Hel"}`, ""), `{"id":`, "[DONE]")
		}, KindInvalidStream, "malformed chunk JSON"},
		{"bad choice index", func(w http.ResponseWriter) {
			sse(w, `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":500,"delta":{"content":"x"},"finish_reason":null}]}`, "[DONE]")
		}, KindInvalidStream, "accumulated"},
		{"error event", func(w http.ResponseWriter) {
			sse(w, chunk(`{"content":"Hel"}`, ""), `{"error":{"message":"upstream overloaded","code":"overloaded"}}`)
		}, KindProvider, "upstream overloaded"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) { tc.serve(w) })
			c := newTestChat(t, f, nil)
			_, err := c.Stream(context.Background(), ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}}, func(StreamDelta) error { return nil })
			var pe *Error
			if !errors.As(err, &pe) || pe.Kind != tc.wantKind || !strings.Contains(pe.Message, tc.wantMsg) {
				t.Fatalf("err = %v, want %s containing %q", err, tc.wantKind, tc.wantMsg)
			}
			if n := len(f.requests()); n != 1 {
				t.Errorf("%d requests; invalid streams must not be retried", n)
			}
		})
	}
}

func TestChatStreamRetriedOnlyBeforeDeltas(t *testing.T) {
	t.Run("503 before the stream is retried", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
			if call == 0 {
				w.Header().Set("Retry-After-Ms", "10")
				writeJSON(w, 503, `{"error":{"message":"busy"}}`)
				return
			}
			sse(w, chunk(`{"content":"ok"}`, "stop"), "[DONE]")
		})
		c := newTestChat(t, f, nil)
		res, err := c.Stream(context.Background(), ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}}, nil)
		if err != nil || res.Content != "ok" || len(f.requests()) != 2 {
			t.Fatalf("res=%+v err=%v requests=%d", res, err, len(f.requests()))
		}
	})
	t.Run("break after a delta is not retried", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "data: "+chunk(`{"content":"partial"}`, "")+"\n\n")
			w.(http.Flusher).Flush()
			// hijack and drop the connection mid-stream
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close()
			}
		})
		c := newTestChat(t, f, nil)
		var got []string
		_, err := c.Stream(context.Background(), ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}},
			func(d StreamDelta) error { got = append(got, d.Content); return nil })
		var pe *Error
		if !errors.As(err, &pe) || pe.Retryable() {
			t.Fatalf("err = %v, want a non-retryable *Error", err)
		}
		if pe.Kind != KindTransport && pe.Kind != KindInvalidStream {
			t.Errorf("kind %s, want transport or invalid_stream", pe.Kind)
		}
		if len(f.requests()) != 1 || len(got) != 1 || got[0] != "partial" {
			t.Errorf("requests=%d deltas=%q", len(f.requests()), got)
		}
	})
}

func TestChatStreamCallbackErrorPassesThrough(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		sse(w, chunk(`{"content":"a"}`, ""), chunk(`{"content":"b"}`, "stop"), "[DONE]")
	})
	c := newTestChat(t, f, nil)
	stop := errors.New("host says stop")
	_, err := c.Stream(context.Background(), ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}},
		func(d StreamDelta) error { return stop })
	if err != stop {
		t.Fatalf("err = %v, want the callback's error unchanged", err)
	}
	if len(f.requests()) != 1 {
		t.Errorf("requests = %d", len(f.requests()))
	}
}

func TestChatInvalidResponses(t *testing.T) {
	cases := []struct {
		name, body string
		wantKind   Kind
	}{
		{"malformed JSON", `{"choices":[`, KindInvalidResponse},
		{"no choices", `{"id":"x","object":"chat.completion","model":"m","choices":[]}`, KindInvalidResponse},
		{"no finish_reason", `{"id":"x","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"}}]}`, KindInvalidResponse},
		{"tool call without id", completionJSON(`{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"f","arguments":"{}"}}]}`, "tool_calls"), KindInvalidResponse},
		{"error object in 200", `{"error":{"message":"bad things","type":"server_error"}}`, KindProvider},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
				writeJSON(w, 200, tc.body)
			})
			c := newTestChat(t, f, nil)
			_, err := c.Complete(context.Background(), ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}})
			if !IsKind(err, tc.wantKind) {
				t.Fatalf("err = %v, want %s", err, tc.wantKind)
			}
		})
	}
}
