package intent_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rlm-dev/rlm/intent"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/loop"
)

// TestSyncAndAsyncRoutingAgree: routing a turn synchronously (Route) and
// asynchronously (Session.Start, then Wait) gives the same result — by the
// rules, by a repair through the provider, or a fallback — with the same
// model calls.
func TestSyncAndAsyncRoutingAgree(t *testing.T) {
	m, fake, _ := scripted(t, says(`{"result":"accept","intent":"lights_on","args":{"room":"hall"}}`))
	r := newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t)})
	s := r.NewSession()
	ignore := cmpopts.IgnoreFields(intent.Result{}, "Elapsed")
	for i, u := range []string{"set a timer for 5 minutes", "the hall lights should be on", "what is love"} {
		turn := intent.Turn{ID: string(rune('a' + i)), Utterance: u}
		before := len(fake.Requests())
		direct, err := r.Route(context.Background(), turn)
		if err != nil {
			t.Fatal(err)
		}
		directCalls := len(fake.Requests()) - before
		async, err := s.Start(context.Background(), turn).Wait(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(direct, async, ignore); diff != "" {
			t.Errorf("%q: sync and async differ (-Route +Session):\n%s", u, diff)
		}
		if sessionCalls := len(fake.Requests()) - before - directCalls; sessionCalls != directCalls || directCalls != direct.ModelCalls {
			t.Errorf("%q: %d model calls by Route, %d by Session, result says %d", u, directCalls, sessionCalls, direct.ModelCalls)
		}
	}
	if len(fake.Requests()) != 2 {
		t.Fatalf("%d model calls, want one repair in each mode", len(fake.Requests()))
	}
}

// TestARepairNeverExceedsItsBudget: a model that answers with a tool call
// instead of a decision gets no second call (the repair's one model call
// is spent: stop "budget"), and a prompt budget too small for the
// candidates sends nothing; both turns end in a clarify, never an accept.
func TestARepairNeverExceedsItsBudget(t *testing.T) {
	m, fake, calls := scripted(t, func(testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{ToolCalls: []testfixture.FakeToolCall{{ID: "c1", Name: "lights_on", Arguments: `{"room":"hall"}`}}}
	})
	r := newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t)})
	res := route(t, r, "the hall lights should be on")
	if res.Kind != intent.Clarify || res.Reason != "repair_failed" || res.RepairStop != string(loop.StopBudget) || res.ModelCalls != 1 || calls.Load() != 1 {
		t.Fatalf("a tool call instead of a decision: %+v, %d calls", res, calls.Load())
	}
	if tools := testfixture.ChatToolNames(fake.Requests()[0]); len(tools) != 0 {
		t.Fatalf("the repair offered tools %v", tools)
	}
	r = newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t), RepairLimits: loop.Limits{PromptBudget: 20}})
	res = route(t, r, "the hall lights should be on")
	if res.Kind != intent.Clarify || res.RepairStop != string(loop.StopCompileError) || res.ModelCalls != 0 || calls.Load() != 1 {
		t.Fatalf("a prompt budget too small: %+v, %d calls", res, calls.Load())
	}
}

// TestCancellingATurnDrainsItsModelCall: cancelling the context while the
// repair's model call is in flight ends Route promptly with the context's
// error, and a cancelled session turn returns no result.
func TestCancellingATurnDrainsItsModelCall(t *testing.T) {
	m, _, _ := scripted(t, func(testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{Delay: 5 * time.Second, Content: `{"result":"accept","intent":"lights_on","args":{}}`}
	})
	r := newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t)})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(150*time.Millisecond, cancel)
	start := time.Now()
	res, err := r.Route(ctx, intent.Turn{ID: "c", Utterance: "the hall lights should be on"})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("cancelled mid-call: %+v, %v", res, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("the model call was not drained: %v", d)
	}
	ctx, cancel = context.WithCancel(context.Background())
	p := r.NewSession().Start(ctx, intent.Turn{ID: "d", Utterance: "the hall lights should be on"})
	time.AfterFunc(150*time.Millisecond, cancel)
	if res, err := p.Wait(context.Background()); !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("cancelled session turn: %+v, %v", res, err)
	}
}
