package tools

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
)

// TestCheckValidatesLikeExecuteAndRunsNothing: Check refuses exactly what
// Execute refuses, with the same kind, and never calls the handler.
func TestCheckValidatesLikeExecuteAndRunsNothing(t *testing.T) {
	var runs atomic.Int64
	reg := NewRegistry()
	if err := reg.Register(Tool{Name: "set_timer", SideEffect: SideEffectWrite, Capabilities: []string{"timer"},
		Schema:  json.RawMessage(`{"type":"object","properties":{"seconds":{"type":"integer","minimum":1}},"required":["seconds"],"additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (any, error) { runs.Add(1); return "ok", nil }}); err != nil {
		t.Fatal(err)
	}
	allowed := Policy{Capabilities: []string{"timer"}, SideEffects: []SideEffect{SideEffectWrite}}
	for _, tc := range []struct {
		policy Policy
		args   string
		want   ErrorKind // "" = accepted
	}{
		{allowed, `{"seconds": 60}`, ""},
		{allowed, `{"seconds": "60"}`, KindInvalidArguments},
		{allowed, `{"seconds": 0}`, KindInvalidArguments},
		{allowed, `{}`, KindInvalidArguments},
		{allowed, `{"seconds": 1, "x": 2}`, KindInvalidArguments},
		{allowed, `not json`, KindInvalidJSON},
		{Policy{SideEffects: []SideEffect{SideEffectWrite}}, `{"seconds": 60}`, KindCapabilityDenied},
		{Policy{Capabilities: []string{"timer"}}, `{"seconds": 60}`, KindSideEffectDenied},
	} {
		e := &Executor{Registry: reg, Policy: tc.policy}
		call := Call{ID: "1", Name: "set_timer", Arguments: tc.args}
		got := e.Check(context.Background(), call, []string{"set_timer"})
		switch {
		case tc.want == "" && got != nil:
			t.Errorf("%s: Check refused: %v", tc.args, got)
		case tc.want != "" && (got == nil || got.Kind != tc.want):
			t.Errorf("%s: Check = %v, want %s", tc.args, got, tc.want)
		}
		before := runs.Load()
		out := e.Execute(context.Background(), call, []string{"set_timer"})
		if (out.Err == nil) != (got == nil) || out.Err != nil && out.Err.Kind != got.Kind {
			t.Errorf("%s: Check %v but Execute %v", tc.args, got, out.Err)
		}
		if tc.want != "" && runs.Load() != before {
			t.Errorf("%s: a refused call ran", tc.args)
		}
	}
	if runs.Load() != 1 {
		t.Fatalf("the handler ran %d times; Execute once with valid arguments, Check never", runs.Load())
	}
}
