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

// TestConsideredCandidatesAreRankedPercentagesOfTheBest: a turn's
// considered candidates come best first, the best at exactly 100 % of
// itself (a truncated quotient read 99 % for about one score in 15), the
// others between 0 and 100 and never rising.
func TestConsideredCandidatesAreRankedPercentagesOfTheBest(t *testing.T) {
	r := newRouter(t, intent.Options{})
	withCandidates := 0
	for _, u := range []string{"set a timer for 5 minutes", "please turn on the lights in the kitchen", "play some jazz",
		"it is too dark here", "what is love", "dim the lights to fifty percent", "call grandma", "remind me to water the plants",
		"turn the heating up a little", "what is on my calendar tomorrow", "note that the milk is gone", "wake me at seven"} {
		res, err := r.Route(context.Background(), intent.Turn{ID: "t1", Utterance: u})
		if err != nil {
			t.Fatal(err)
		}
		cs := res.Considered
		if len(cs) == 0 {
			continue
		}
		withCandidates++
		if cs[0].Score != 100 {
			t.Errorf("%q: the best candidate %s scores %d %% of itself, want 100", u, cs[0].Intent, cs[0].Score)
		}
		for i, c := range cs {
			if c.Score < 0 || c.Score > 100 || (i > 0 && c.Score > cs[i-1].Score) {
				t.Errorf("%q: candidate %d %s scores %d after %d: not a falling percentage", u, i, c.Intent, c.Score, cs[max(0, i-1)].Score)
			}
		}
	}
	if withCandidates < 8 {
		t.Fatalf("only %d utterances had candidates: the check proves little", withCandidates)
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
