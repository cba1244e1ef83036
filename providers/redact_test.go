package providers

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAKeyTheServerEchoesNeverReachesTheCaller: whatever a server sends
// back is data that may quote the request's Authorization header; the key
// is replaced by [REDACTED] in every delta and in the answer, whole or
// split across deltas, and nothing else is lost.
func TestAKeyTheServerEchoesNeverReachesTheCaller(t *testing.T) {
	half := len(testKey) / 2
	tests := []struct {
		name        string
		events      []string
		wantContent string
		wantArgs    string
	}{
		{
			name:        "whole in one delta",
			events:      []string{chunk(`{"role":"assistant","content":"key is `+testKey+` ok"}`, "")},
			wantContent: "key is [REDACTED] ok",
		},
		{
			name: "split across content deltas",
			events: []string{
				chunk(`{"role":"assistant","content":"Bearer `+testKey[:half]+`"}`, ""),
				chunk(`{"content":"`+testKey[half:]+`, bye"}`, ""),
			},
			wantContent: "Bearer [REDACTED], bye",
		},
		{
			name: "a tail that only looks like the key's start is released",
			events: []string{
				chunk(`{"role":"assistant","content":"two `+testKey[:3]+`"}`, ""),
				chunk(`{"content":"x and a last s"}`, ""),
			},
			wantContent: "two " + testKey[:3] + "x and a last s",
		},
		{
			name: "split across tool call arguments",
			events: []string{
				chunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"`+testKey[:half]+`"}}]}`, ""),
				chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"`+testKey[half:]+`\"}"}}]}`, ""),
			},
			wantArgs: `{"city":"[REDACTED]"}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
				finish := "stop"
				if tc.wantArgs != "" {
					finish = "tool_calls"
				}
				sse(w, append(append([]string{}, tc.events...), chunk(`{}`, finish), usageChunk, "[DONE]")...)
			})
			c := newTestChat(t, f, nil)
			var content, args strings.Builder
			res, err := c.Stream(context.Background(), ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}, Tools: []Tool{weatherTool}},
				func(d StreamDelta) error {
					content.WriteString(d.Content)
					for _, tcd := range d.ToolCalls {
						args.WriteString(tcd.Arguments)
					}
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			got := []string{content.String(), args.String(), res.Content}
			want := []string{tc.wantContent, tc.wantArgs, tc.wantContent}
			if tc.wantArgs != "" {
				if len(res.ToolCalls) != 1 {
					t.Fatalf("tool calls = %+v", res.ToolCalls)
				}
				got = append(got, res.ToolCalls[0].Arguments)
				want = append(want, tc.wantArgs)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("streamed content, streamed arguments, answer (-want +got):\n%s", d)
			}
		})
	}
	t.Run("complete", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
			writeJSON(w, 200, completionJSON(`{"role":"assistant","content":"`+testKey+`","tool_calls":[{"id":"`+testKey+`","type":"function","function":{"name":"get_weather","arguments":"{\"k\":\"`+testKey+`\"}"}}]}`, "tool_calls"))
		})
		c := newTestChat(t, f, nil)
		res, err := c.Complete(context.Background(), ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}, Tools: []Tool{weatherTool}})
		if err != nil {
			t.Fatal(err)
		}
		want := []ToolCall{{ID: "[REDACTED]", Name: "get_weather", Arguments: `{"k":"[REDACTED]"}`}}
		if d := cmp.Diff(want, res.ToolCalls); d != "" || res.Content != "[REDACTED]" {
			t.Errorf("content %q; tool calls (-want +got):\n%s", res.Content, d)
		}
	})
}

// TestRedactEscapedRedactsTheDecodedFormOfEveryJSONString: a JSON string
// literal whose decoded value holds the key is rewritten with the key
// redacted, wherever the literal stands (a whole document, a value, a
// key, JSON inside prose); every other byte, and every literal that does
// not decode to the key, is kept as it was.
func TestRedactEscapedRedactsTheDecodedFormOfEveryJSONString(t *testing.T) {
	var esc strings.Builder
	for _, r := range testKey {
		fmt.Fprintf(&esc, `\u%04x`, r)
	}
	e := esc.String()
	tests := []struct{ in, want string }{
		{`{"query":"where is ` + e + ` defined?"}`, `{"query":"where is [REDACTED] defined?"}`},
		{`{"` + e + `":1}`, `{"[REDACTED]":1}`},
		{`note: {"a":"\u0073` + testKey[1:] + `"} done`, `note: {"a":"[REDACTED]"} done`},
		{`{"a":"\"quoted\" ` + e + `\n"}`, `{"a":"\"quoted\" [REDACTED]\n"}`},
		{`{"a":"\u00e9t\u00e9","b":"` + e + `"}`, `{"a":"\u00e9t\u00e9","b":"[REDACTED]"}`},
		{`{"a":"no key \u0041"}`, `{"a":"no key \u0041"}`},
		{`unterminated "` + e, `unterminated "` + e},
		{`plain, no escapes`, `plain, no escapes`},
	}
	for _, tc := range tests {
		if got := redactEscaped(tc.in, testKey); got != tc.want {
			t.Errorf("redactEscaped(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
