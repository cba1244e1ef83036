package intent_test

import (
	"context"
	"testing"

	"github.com/rlm-dev/rlm/intent"
	"github.com/rlm-dev/rlm/tools"
)

const homeIntents = "../examples/router/intents"

// allowAll grants the example's capabilities and every side effect.
var allowAll = tools.Policy{Capabilities: []string{"timer", "alarm", "lights", "heating", "music", "notes", "reminders", "network", "calendar", "phone"},
	SideEffects: tools.SideEffects()}

func newRouter(t *testing.T, opts intent.Options) *intent.Router {
	t.Helper()
	if opts.IntentsDir == "" {
		opts.IntentsDir = homeIntents
	}
	if opts.Policy.Capabilities == nil {
		opts.Policy = allowAll
	}
	r, err := intent.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestSmoke(t *testing.T) {
	r := newRouter(t, intent.Options{})
	for _, u := range []string{"set a timer for 5 minutes", "please turn on the lights in the kitchen", "play some jazz", "it is too dark here", "what is love", "dim the lights to fifty percent"} {
		res, err := r.Route(context.Background(), intent.Turn{ID: "t1", Utterance: u})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%q -> %s %s %v q=%q reason=%s by=%s cands=%v ev=%v", u, res.Kind, res.Intent, res.Args, res.Question, res.Reason, res.By, res.Considered, res.Evidence)
	}
}

// TestSynonymsLeadToTheirIntents: a word the rules declare a synonym of a
// phrasing's word finds that intent among the candidates, so the resolver
// accepts "ring grandma" (synonym("ring", "call")) without a model.
func TestSynonymsLeadToTheirIntents(t *testing.T) {
	r := newRouter(t, intent.Options{})
	for u, want := range map[string]string{"ring grandma": "grandma", "dial the office": "the office"} {
		res, err := r.Route(context.Background(), intent.Turn{ID: "s", Utterance: u})
		if err != nil {
			t.Fatal(err)
		}
		if res.Kind != intent.Accept || res.Intent != "call_contact" || res.By != "resolver" || res.Args["who"] != want {
			t.Errorf("%q: %s %s %v by %s, want call_contact who=%q by the resolver", u, res.Kind, res.Intent, res.Args, res.By, want)
		}
	}
}
