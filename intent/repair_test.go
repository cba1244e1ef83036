package intent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/intent"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/providers"
)

var compiler *prompt.Compiler

func theCompiler(t *testing.T) *prompt.Compiler {
	t.Helper()
	if compiler == nil {
		c, err := prompt.NewCompiler(prompt.CompilerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		compiler = c
	}
	return compiler
}

// scripted is a fake chat endpoint whose every answer is the given text,
// counting the calls.
func scripted(t *testing.T, answer func(req testfixture.Request) testfixture.ChatTurn) (*providers.ChatClient, *testfixture.ChatFake, *atomic.Int64) {
	t.Helper()
	var calls atomic.Int64
	fake := testfixture.NewChatFake(t, func(_ int, req testfixture.Request) testfixture.ChatTurn {
		calls.Add(1)
		return answer(req)
	})
	c, err := providers.NewChatClient(providers.ChatConfig{Config: providers.Config{BaseURL: fake.URL(), Model: "gpt-4o-mini",
		Retry: providers.RetryPolicy{MaxAttempts: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	return c, fake, &calls
}

func says(text string) func(testfixture.Request) testfixture.ChatTurn {
	return func(testfixture.Request) testfixture.ChatTurn { return testfixture.ChatTurn{Content: text} }
}

func route(t *testing.T, r *intent.Router, u string) *intent.Result {
	t.Helper()
	res, err := r.Route(context.Background(), intent.Turn{ID: "t", Utterance: u})
	if err != nil {
		t.Fatalf("%q: %v", u, err)
	}
	return res
}

// TestExactCommandsNeedNoModelCall: a command that matches a phrasing is
// accepted, typed and validated by the resolver alone: the model is never
// called.
func TestExactCommandsNeedNoModelCall(t *testing.T) {
	m, _, calls := scripted(t, says(`{"result":"fallback_chat"}`))
	r := newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t)})
	for u, want := range map[string]map[string]any{
		"set a timer for 5 minutes":                {"duration": 300},
		"please turn on the lights in the kitchen": {"room": "kitchen"},
		"dim the lights to fifty percent":          {"level": 50},
		"set the thermostat to 21.5 degrees":       {"degrees": 21.5},
		"remind me to water the plants in 2 hours": {"what": "water the plants", "after": 7200},
	} {
		res := route(t, r, u)
		if res.Kind != intent.Accept || res.By != "resolver" || res.ModelCalls != 0 {
			t.Errorf("%q: %s by %s, %d model calls", u, res.Kind, res.By, res.ModelCalls)
			continue
		}
		for k, v := range want {
			if res.Args[k] != v {
				t.Errorf("%q: %s = %#v, want %#v", u, k, res.Args[k], v)
			}
		}
	}
	if calls.Load() != 0 {
		t.Fatalf("the model was called %d times for exact commands", calls.Load())
	}
}

// TestRepairChoosesOnlyAmongCandidates: when the resolver cannot decide,
// one model call chooses among the candidates; its choice is validated
// like any accept.
func TestRepairChoosesOnlyAmongCandidates(t *testing.T) {
	m, fake, calls := scripted(t, says(`{"result":"accept","intent":"lights_on","args":{"room":"hall"},"evidence":["wants light"]}`))
	r := newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t)})
	res := route(t, r, "the hall lights should be on please")
	if res.Kind != intent.Accept || res.Intent != "lights_on" || res.By != "repair" || res.Args["room"] != "hall" {
		t.Fatalf("result %+v", res)
	}
	if calls.Load() != 1 || res.ModelCalls != 1 {
		t.Fatalf("%d model calls, want one repair", calls.Load())
	}
	sys := ""
	for _, m := range testfixture.ChatMessages(fake.Requests()[0]) {
		if m[0] == "system" || m[0] == "developer" {
			sys = m[1]
		}
	}
	if !strings.Contains(sys, "intent lights_on") || strings.Contains(sys, "intent call_contact") {
		t.Fatalf("the repair was not shown exactly the candidates:\n%s", sys)
	}
	if res.RepairFingerprint == "" {
		t.Fatal("no projection fingerprint recorded for the repair")
	}
}

// TestModelCannotInventAnIntentCapabilityOrAction: model outputs outside
// the closed family or the candidates — invented intents, tools, Prolog,
// shell, files, URLs, extra fields, prose around JSON, bad types — are
// refused: the turn becomes a clarify among the candidates, never an
// accept, and nothing runs.
func TestModelCannotInventAnIntentCapabilityOrAction(t *testing.T) {
	var ran atomic.Int64
	for name, answer := range map[string]string{
		"invented intent":     `{"result":"accept","intent":"format_disk","args":{}}`,
		"non-candidate":       `{"result":"accept","intent":"call_contact","args":{"who":"mom"}}`,
		"prolog":              `{"result":"accept","intent":"halt.","args":{}}`,
		"call goal":           `{"result":"accept","intent":"lights_on","args":{"room":"x"},"exec":"call(halt)"}`,
		"tool":                `{"result":"tool","tool":"shell","args":{"cmd":"rm -rf /"}}`,
		"prose around JSON":   `Sure! {"result":"accept","intent":"lights_on","args":{}} Hope that helps`,
		"two objects":         `{"result":"fallback_chat"}{"result":"accept","intent":"lights_on"}`,
		"not JSON":            `turn on the lights`,
		"wrong arg type":      `{"result":"accept","intent":"lights_dim","args":{"level":"bright"}}`,
		"extra arg":           `{"result":"accept","intent":"lights_on","args":{"room":"hall","url":"http://evil.example"}}`,
		"file path arg":       `{"result":"accept","intent":"lights_dim","args":{"level":50,"file":"../../etc/passwd"}}`,
		"capability invented": `{"result":"accept","intent":"lights_on","args":{},"capabilities":["root"]}`,
	} {
		t.Run(name, func(t *testing.T) {
			m, _, _ := scripted(t, says(answer))
			r := newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t), Intents: []intent.Intent{{
				Name: "format_disk_guard", Description: "never chosen", Phrasings: []string{"zzqq"},
				Handler: func(context.Context, json.RawMessage) (any, error) { ran.Add(1); return nil, nil }}}})
			res := route(t, r, "make the lights in the hall dim and bright")
			if res.Kind == intent.Accept {
				t.Fatalf("accepted %s %v from %s", res.Intent, res.Args, answer)
			}
			if res.Kind != intent.Clarify {
				t.Fatalf("kind %s, want a clarify among the candidates", res.Kind)
			}
			for _, c := range res.Candidates {
				if c != "lights_on" && c != "lights_off" && c != "lights_dim" {
					t.Fatalf("clarify offers %s, not a candidate", c)
				}
			}
		})
	}
	if ran.Load() != 0 {
		t.Fatal("a handler ran")
	}
}

// TestValidationIsIndependentOfTheResolver: an accept the resolver reaches
// is still refused when its capability is not granted or its side effect
// not allowed, and asks again when a slot's words are not of its type.
func TestValidationIsIndependentOfTheResolver(t *testing.T) {
	r := newRouter(t, intent.Options{Policy: tools_Policy([]string{"timer"}, "read")})
	if res := route(t, r, "call mom"); res.Kind != intent.Reject || res.Reason != "capability_denied" {
		t.Errorf("call mom without phone: %s %s", res.Kind, res.Reason)
	}
	if res := route(t, r, "set a timer for 5 minutes"); res.Kind != intent.Reject || res.Reason != "side_effect_denied" {
		t.Errorf("a write under a read-only policy: %s %s", res.Kind, res.Reason)
	}
	r = newRouter(t, intent.Options{})
	if res := route(t, r, "set a timer for banana"); res.Kind != intent.Clarify || res.Reason != "bad_slot" || res.Intent != "timer_start" {
		t.Errorf("a duration that is not one: %+v", res)
	}
	if res := route(t, r, "start a timer"); res.Kind == intent.Accept {
		t.Errorf("an accept without its required duration: %+v", res)
	}
}

// TestRepairFailuresEndInAClarifyWithTheReason: a provider failure, a
// timeout or a cancelled turn never yields an accept.
func TestRepairFailuresEndInAClarifyWithTheReason(t *testing.T) {
	fail, _, _ := scripted(t, func(testfixture.Request) testfixture.ChatTurn { return testfixture.ChatTurn{Status: 500} })
	r := newRouter(t, intent.Options{Model: fail, Compiler: theCompiler(t)})
	if res := route(t, r, "the hall lights should be on"); res.Kind != intent.Clarify || res.Reason != "repair_failed" || res.RepairStop != "provider_error" {
		t.Errorf("provider failure: %+v", res)
	}
	slow, _, _ := scripted(t, func(testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{Delay: 5 * time.Second, Content: "{}"}
	})
	r = newRouter(t, intent.Options{Model: slow, Compiler: theCompiler(t), RepairLimits: limits(300 * time.Millisecond)})
	if res := route(t, r, "the hall lights should be on"); res.Kind != intent.Clarify || res.RepairStop != "deadline" {
		t.Errorf("timeout: %+v", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Route(ctx, intent.Turn{ID: "c", Utterance: "the hall lights should be on"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled turn: %v", err)
	}
}

// TestAStaleTurnIsNeverApplied: starting a newer turn drains the older
// one's model call; its result is not returned and cannot be applied,
// while the current turn's accept runs its handler.
func TestAStaleTurnIsNeverApplied(t *testing.T) {
	slow, _, _ := scripted(t, func(testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{Delay: 3 * time.Second, Content: `{"result":"accept","intent":"lights_on","args":{}}`}
	})
	var ran atomic.Int64
	probe := intent.Intent{Name: "probe_lamp", Description: "Probe the lamp", Phrasings: []string{"probe the lamp"},
		SideEffect: "write", Handler: func(context.Context, json.RawMessage) (any, error) { ran.Add(1); return "probed", nil }}
	r := newRouter(t, intent.Options{Model: slow, Compiler: theCompiler(t), Intents: []intent.Intent{probe}})
	s := r.NewSession()
	old := s.Start(context.Background(), intent.Turn{ID: "1", Utterance: "the hall lights should be on"})
	newer := s.Start(context.Background(), intent.Turn{ID: "2", Utterance: "probe the lamp"})
	start := time.Now()
	if _, err := old.Wait(context.Background()); !errors.Is(err, intent.ErrStaleTurn) {
		t.Fatalf("the stale turn returned %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatalf("the stale turn's model call was not drained (%v)", time.Since(start))
	}
	res, err := newer.Wait(context.Background())
	if err != nil || res.Kind != intent.Accept || res.Intent != "probe_lamp" {
		t.Fatalf("newer turn: %+v %v", res, err)
	}
	stale := &intent.Result{Turn: "1", Kind: intent.Accept, Intent: "probe_lamp", Args: map[string]any{}}
	if _, err := s.Apply(context.Background(), stale); !errors.Is(err, intent.ErrStaleTurn) {
		t.Fatalf("a stale result was applied: %v", err)
	}
	if ran.Load() != 0 {
		t.Fatal("a stale result ran its handler")
	}
	if _, err := s.Apply(context.Background(), res); err != nil || ran.Load() != 1 {
		t.Fatalf("the current turn's accept did not run once: %v, %d runs", err, ran.Load())
	}
}
