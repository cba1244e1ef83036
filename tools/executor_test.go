package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var pathSchema = json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)

func TestHiddenBindingIsRetainedAndRunsWhenVisibleAgain(t *testing.T) {
	diff, search := &recorder{}, &recorder{}
	r := NewRegistry()
	mustRegister(t, r,
		Tool{Name: "git_diff", SideEffect: SideEffectRead, Handler: diff.handler()},
		Tool{Name: "project_search", SideEffect: SideEffectRead, Handler: search.handler()},
	)
	e := &Executor{Registry: r}
	ctx := context.Background()
	turns := []struct {
		visible []string
		wantOK  bool
		runs    int
	}{
		{[]string{"git_diff"}, false, 0},      // A: hidden
		{[]string{"project_search"}, true, 1}, // B: shown, runs
		{[]string{"git_diff"}, false, 1},      // C: hidden again
		{nil, false, 1},                       // nothing shown
		{[]string{"git_diff", "project_search"}, true, 2},
	}
	for i, turn := range turns {
		out := e.Execute(ctx, Call{ID: fmt.Sprint(i), Name: "project_search"}, turn.visible)
		if out.OK != turn.wantOK {
			t.Fatalf("turn %d (visible %v): OK = %v, content %s", i, turn.visible, out.OK, out.Content)
		}
		if !turn.wantOK {
			checkRefused(t, out, KindNotVisible)
		}
		if got := search.count(); got != turn.runs {
			t.Fatalf("turn %d: handler ran %d times, want %d", i, got, turn.runs)
		}
		if out.CallID != fmt.Sprint(i) || out.Name != "project_search" {
			t.Errorf("turn %d: outcome names call %q tool %q", i, out.CallID, out.Name)
		}
	}
	if r.Len() != 2 || diff.count() != 0 {
		t.Errorf("registry holds %d tools, git_diff ran %d times", r.Len(), diff.count())
	}
}

// TestChecksRunInTheDocumentedOrder gives calls that break two checks at
// once and expects the earlier one to be reported.
func TestChecksRunInTheDocumentedOrder(t *testing.T) {
	rec := &recorder{}
	r := NewRegistry()
	mustRegister(t, r,
		Tool{Name: "write", SideEffect: SideEffectWrite, Capabilities: []string{"fs"}, Schema: pathSchema, Handler: rec.handler()},
		Tool{Name: "writer", SideEffect: SideEffectWrite, Schema: pathSchema, Handler: rec.handler()},
		Tool{Name: "read", SideEffect: SideEffectRead, Schema: pathSchema, Handler: rec.handler()},
	)
	huge := `{"path":"` + strings.Repeat("x", DefaultMaxArgBytes) + `"`
	all := []string{"write", "writer", "read"}
	cases := []struct {
		name    string
		call    Call
		visible []string
		want    ErrorKind
	}{
		{"bad name before anything", Call{Name: "no such", Arguments: huge}, nil, KindUnknownTool},
		{"unknown before visibility", Call{Name: "halt", Arguments: huge}, nil, KindUnknownTool},
		{"visibility before policy", Call{Name: "write", Arguments: huge}, []string{"read"}, KindNotVisible},
		{"capability before side effect", Call{Name: "write", Arguments: huge}, all, KindCapabilityDenied},
		{"side effect before size", Call{Name: "writer", Arguments: huge}, all, KindSideEffectDenied},
		{"size before JSON", Call{Name: "read", Arguments: huge}, all, KindTooLarge},
		{"JSON before schema", Call{Name: "read", Arguments: `{"path":1,"path":2}`}, all, KindInvalidJSON},
		{"schema last", Call{Name: "read", Arguments: `{"path":1}`}, all, KindInvalidArguments},
	}
	e := &Executor{Registry: r}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := e.Execute(context.Background(), c.call, c.visible)
			checkRefused(t, out, c.want)
			// Only a name that breaks the naming rule is told the rule.
			if tells := strings.Contains(out.Err.Message, "[A-Za-z0-9_-]"); tells != !ValidName(c.call.Name) {
				t.Errorf("message %q; the name %q breaks the rule: %v", out.Err.Message, c.call.Name, !ValidName(c.call.Name))
			}
		})
	}
	if rec.count() != 0 {
		t.Errorf("a refused call ran a handler %d times", rec.count())
	}
}

func TestPolicyGrantsCapabilitiesAndSideEffects(t *testing.T) {
	rec := &recorder{}
	r := NewRegistry()
	mustRegister(t, r,
		Tool{Name: "pure", SideEffect: SideEffectNone, Handler: rec.handler()},
		Tool{Name: "read", SideEffect: SideEffectRead, Handler: rec.handler()},
		Tool{Name: "write", SideEffect: SideEffectWrite, Handler: rec.handler()},
		Tool{Name: "fetch", SideEffect: SideEffectExternal, Capabilities: []string{"net"}, Handler: rec.handler()},
		Tool{Name: "fsnet", SideEffect: SideEffectRead, Capabilities: []string{"fs", "net"}, Handler: rec.handler()},
	)
	visible := []string{"pure", "read", "write", "fetch", "fsnet"}
	cases := []struct {
		name   string
		policy Policy
		tool   string
		want   ErrorKind // "" = runs
	}{
		{"read-only default runs none", Policy{}, "pure", ""},
		{"read-only default runs read", Policy{}, "read", ""},
		{"read-only default refuses write", Policy{}, "write", KindSideEffectDenied},
		{"empty side-effect list is the default", Policy{SideEffects: []SideEffect{}}, "write", KindSideEffectDenied},
		{"write allowed", Policy{SideEffects: []SideEffect{SideEffectWrite}}, "write", ""},
		{"write allowed does not allow read", Policy{SideEffects: []SideEffect{SideEffectWrite}}, "read", KindSideEffectDenied},
		{"capability missing", Policy{SideEffects: SideEffects()}, "fetch", KindCapabilityDenied},
		{"capability granted but external not allowed", Policy{Capabilities: []string{"net"}}, "fetch", KindSideEffectDenied},
		{"capability and side effect granted", Policy{Capabilities: []string{"net"}, SideEffects: SideEffects()}, "fetch", ""},
		{"every capability is needed", Policy{Capabilities: []string{"net"}}, "fsnet", KindCapabilityDenied},
		{"all capabilities granted", Policy{Capabilities: []string{"fs", "net", "extra"}}, "fsnet", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := rec.count()
			out := (&Executor{Registry: r, Policy: c.policy}).Execute(context.Background(), Call{Name: c.tool, Arguments: "{}"}, visible)
			tool, _ := r.Lookup(c.tool)
			allows := c.policy.Allows(tool)
			if c.want == "" {
				if !out.OK || rec.count() != before+1 || allows != nil {
					t.Fatalf("refused: %s (Allows: %v)", out.Content, allows)
				}
				return
			}
			checkRefused(t, out, c.want)
			var cerr *CallError
			if !errors.As(allows, &cerr) || cerr.Kind != c.want || !errors.Is(allows, ErrRefused) {
				t.Errorf("Allows = %v, want a *CallError of kind %s", allows, c.want)
			}
			if rec.count() != before {
				t.Errorf("a refused call ran its handler")
			}
		})
	}
}

func TestHandlerFailuresBecomeStructuredErrors(t *testing.T) {
	const secret = "sk-live-0123456789"
	started := make(chan struct{}, 1)
	cases := []struct {
		name    string
		timeout time.Duration
		handler Handler
		ctx     func() (context.Context, context.CancelFunc)
		policy  Policy
		want    ErrorKind
		cause   error  // errors.Is(out.Err, cause)
		message string // substring of the model-visible message
	}{
		{name: "timeout with a handler that honours ctx", timeout: 20 * time.Millisecond,
			handler: func(ctx context.Context, _ json.RawMessage) (any, error) { <-ctx.Done(); return nil, ctx.Err() },
			want:    KindTimeout, cause: context.DeadlineExceeded, message: "timeout"},
		{name: "timeout with a handler that ignores ctx", timeout: 20 * time.Millisecond,
			handler: func(context.Context, json.RawMessage) (any, error) { time.Sleep(2 * time.Second); return "late", nil },
			want:    KindTimeout, cause: context.DeadlineExceeded, message: "timeout"},
		{name: "caller cancels mid-handler",
			handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
				started <- struct{}{}
				time.Sleep(2 * time.Second)
				return "late", nil
			},
			ctx: func() (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				go func() { <-started; cancel() }()
				return ctx, cancel
			},
			want: KindCanceled, cause: context.Canceled, message: "canceled"},
		{name: "caller deadline mid-handler",
			handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
				<-ctx.Done()
				return nil, fmt.Errorf("stopped: %w", ctx.Err())
			},
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 20*time.Millisecond)
			},
			want: KindTimeout, cause: context.DeadlineExceeded},
		{name: "panic",
			handler: func(context.Context, json.RawMessage) (any, error) { panic("boom " + secret) },
			want:    KindHandlerFailed, message: "panicked"},
		{name: "error with a secret",
			handler: func(context.Context, json.RawMessage) (any, error) {
				return nil, fmt.Errorf("GET https://api.example.com/?key=%s: 401", secret)
			},
			want: KindHandlerFailed, message: "the tool failed"},
		{name: "model error is shown",
			handler: func(context.Context, json.RawMessage) (any, error) {
				return nil, ModelErrorf("no file %q: %w", "notes.txt", errors.ErrUnsupported)
			},
			want: KindHandlerFailed, cause: errors.ErrUnsupported, message: `no file "notes.txt"`},
		{name: "result too large", policy: Policy{MaxResultBytes: 100},
			handler: func(context.Context, json.RawMessage) (any, error) { return strings.Repeat("x", 99), nil },
			want:    KindTooLarge, message: "result"},
		{name: "result too large by default",
			handler: func(context.Context, json.RawMessage) (any, error) {
				return strings.Repeat("x", DefaultMaxResultBytes), nil
			},
			want: KindTooLarge, message: "result"},
		{name: "result a channel",
			handler: func(context.Context, json.RawMessage) (any, error) { return make(chan int), nil },
			want:    KindResultInvalid},
		{name: "result NaN",
			handler: func(context.Context, json.RawMessage) (any, error) { return math.NaN(), nil },
			want:    KindResultInvalid},
		{name: "result whose MarshalJSON panics",
			handler: func(context.Context, json.RawMessage) (any, error) { return panicky{}, nil },
			want:    KindHandlerFailed},
		{name: "result raw JSON that is not JSON",
			handler: func(context.Context, json.RawMessage) (any, error) { return json.RawMessage(`{"a":`), nil },
			want:    KindResultInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewRegistry()
			mustRegister(t, r, Tool{Name: "t", SideEffect: SideEffectNone, Timeout: c.timeout, Handler: c.handler})
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if c.ctx != nil {
				ctx, cancel = c.ctx()
			}
			defer cancel()
			out := (&Executor{Registry: r, Policy: c.policy}).Execute(ctx, Call{Name: "t"}, []string{"t"})
			checkRefused(t, out, c.want)
			if out.Elapsed > time.Second {
				t.Errorf("Execute took %v: it waited for a handler it had given up on", out.Elapsed)
			}
			if c.cause != nil && !errors.Is(out.Err, c.cause) {
				t.Errorf("error %v does not wrap %v", out.Err, c.cause)
			}
			if !strings.Contains(out.Err.Message, c.message) {
				t.Errorf("message %q does not say %q", out.Err.Message, c.message)
			}
			for _, leak := range []string{secret, "goroutine", ".go:"} {
				if strings.Contains(out.Content, leak) {
					t.Errorf("the model is shown %q: %s", leak, out.Content)
				}
			}
			if !errors.Is(out.Err, ErrRefused) {
				t.Errorf("%v does not match ErrRefused", out.Err)
			}
		})
	}
}

type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("marshal") }

func TestCancelledContextRunsNothing(t *testing.T) {
	ran := make(chan struct{}, 1)
	r := NewRegistry()
	mustRegister(t, r, Tool{Name: "t", SideEffect: SideEffectNone, Handler: func(context.Context, json.RawMessage) (any, error) {
		ran <- struct{}{}
		return "ran", nil
	}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := (&Executor{Registry: r}).Execute(ctx, Call{Name: "t", Arguments: "{}"}, []string{"t"})
	checkRefused(t, out, KindCanceled)
	select {
	case <-ran:
		t.Errorf("the handler ran under a cancelled context")
	case <-time.After(100 * time.Millisecond):
	}
}

func TestOutcomeContentIsTheResultJSON(t *testing.T) {
	cases := []struct {
		name   string
		result any
		want   string
	}{
		{"object", map[string]any{"b": 1, "a": []string{"x"}}, `{"a":["x"],"b":1}`},
		{"nil", nil, `null`},
		{"string with markup", "<b>&</b>", `"\u003cb\u003e\u0026\u003c/b\u003e"`},
		{"raw JSON", json.RawMessage(`{"k": true}`), `{"k":true}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewRegistry()
			var got json.RawMessage
			mustRegister(t, r, Tool{Name: "t", SideEffect: SideEffectNone, Schema: pathSchema,
				Handler: func(_ context.Context, args json.RawMessage) (any, error) { got = args; return c.result, nil }})
			args := ` {"path": "a/b"} `
			out := (&Executor{Registry: r}).Execute(context.Background(), Call{ID: "c1", Name: "t", Arguments: args}, []string{"t"})
			if !out.OK || out.Err != nil {
				t.Fatalf("refused: %s", out.Content)
			}
			if diff := cmp.Diff(c.want, out.Content); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
			if string(got) != args {
				t.Errorf("handler got %q, want the arguments as sent %q", got, args)
			}
		})
	}
}

func TestEmptyArgumentsMeanNoArguments(t *testing.T) {
	rec := &recorder{}
	r := NewRegistry()
	mustRegister(t, r,
		Tool{Name: "none", SideEffect: SideEffectNone, Handler: rec.handler()},
		Tool{Name: "path", SideEffect: SideEffectNone, Schema: pathSchema, Handler: rec.handler()},
	)
	e := &Executor{Registry: r}
	for _, args := range []string{"", "  \n", "{}"} {
		out := e.Execute(context.Background(), Call{Name: "none", Arguments: args}, []string{"none"})
		if !out.OK || string(rec.last()) != "{}" {
			t.Errorf("arguments %q: %s, handler got %q", args, out.Content, rec.last())
		}
		checkRefused(t, e.Execute(context.Background(), Call{Name: "path", Arguments: args}, []string{"path"}), KindInvalidArguments)
	}
}

// TestAHandlerStoppedByItsContextReportsTheContext: when a handler's
// result arrives with its context's error (the race Execute's select can
// lose to the handler), the call is a timeout or a cancellation, not a
// handler failure.
func TestAHandlerStoppedByItsContextReportsTheContext(t *testing.T) {
	expired, cancel := context.WithTimeout(context.Background(), -time.Second)
	defer cancel()
	canceled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	cases := []struct {
		name string
		ctx  context.Context
		want ErrorKind
	}{
		{"deadline", expired, KindTimeout},
		{"cancel", canceled, KindCanceled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tool := Tool{Name: "t", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
				return nil, fmt.Errorf("stopped: %w", ctx.Err())
			}}
			r := (&Executor{}).finish(c.ctx, tool, json.RawMessage(`{}`))
			if r.err == nil || r.err.Kind != c.want {
				t.Fatalf("finish = %+v, want kind %s", r.err, c.want)
			}
		})
	}
}
