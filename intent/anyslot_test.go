package intent_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/intent"
)

// TestAnAnySlotKeepsWhatTheUserWrote: a string slot of kind any (what the
// host only stores: a note, a shopping item) takes the utterance's text
// behind its words with the user's case, punctuation and symbols — code
// included, as inert data — while a slot of the default kind still takes
// the words.
func TestAnAnySlotKeepsWhatTheUserWrote(t *testing.T) {
	r := newRouter(t, intent.Options{})
	for _, c := range []struct {
		utterance, intent, slot string
		want                    any
	}{
		{"note that the milk isn't fresh, buy 2.5 litres!", "note_add", "text", "the milk isn't fresh, buy 2.5 litres!"},
		{"write down: call Bob at 10:30 (re: Q3 report)", "note_add", "text", "call Bob at 10:30 (re: Q3 report)"},
		{"note that X = 1, call(halt)", "note_add", "text", "X = 1, call(halt)"},
		{"add Café au Lait to the shopping list", "shopping_add", "item", "Café au Lait"},
		{"search the web for Go Generics", "search_web", "query", "go generics"},
	} {
		res, err := r.Route(context.Background(), intent.Turn{ID: "any", Utterance: c.utterance})
		if err != nil {
			t.Fatal(err)
		}
		if res.Kind != intent.Accept || res.Intent != c.intent {
			t.Errorf("%q: %s %s (%s), want accept %s", c.utterance, res.Kind, res.Intent, res.Reason, c.intent)
			continue
		}
		if d := cmp.Diff(c.want, res.Args[c.slot]); d != "" {
			t.Errorf("%q: slot %s (-want +got):\n%s", c.utterance, c.slot, d)
		}
	}
}
