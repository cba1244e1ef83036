package intent_test

import (
	"context"
	"testing"

	"github.com/rlm-dev/rlm/intent"
)

// homeIntentList loads the example's intents.
func homeIntentList(t *testing.T) []intent.Intent {
	t.Helper()
	return newRouter(t, intent.Options{}).Intents()
}

// TestSpellingRewriterFixesOnlyClearTyposOfTheIntentsWords: a word one
// edit away from exactly one word of the intents (same first letter) is
// replaced; known words, their plurals, short words, numbers, words near
// two dictionary words and names one substitution away are left alone,
// and an unchanged utterance is returned as is.
func TestSpellingRewriterFixesOnlyClearTyposOfTheIntentsWords(t *testing.T) {
	rw := intent.SpellingRewriter(homeIntentList(t))
	for in, want := range map[string]string{
		"set a tmer for 5 minuts":            "set a timer for 5 minutes", // inserted letters; "minuts" is a substitution from "minute" too
		"paly some jazz":                     "play some jazz",            // swapped letters
		"set the thermostst to 21":           "set the thermostat to 21",  // a substitution in a long word
		"cancle the timmer":                  "cancel the timer",
		"turn on the lights in the hall":     "turn on the lights in the hall",     // "hall" → "half" would be a substitution in a short word
		"add bread to the shopping list":     "add bread to the shopping list",     // "read" starts with another letter
		"play songs by queen":                "play songs by queen",                // the plural of a known word
		"Set A Timer For 5 Minutes, Please!": "Set A Timer For 5 Minutes, Please!", // unchanged: returned as is
		"cal mom":                            "cal mom",                            // too short to tell
		"tiem 5m":                            "time 5m",                            // one swap from "time"; "item" starts with another letter
	} {
		if got := rw(in); got != want {
			t.Errorf("rewrite(%q) = %q, want %q", in, got, want)
		}
		if again := rw(in); again != rw(in) {
			t.Errorf("rewrite(%q) is not a pure function", in)
		}
	}
	// A word one edit from two dictionary words of the same kind stays.
	two := intent.SpellingRewriter([]intent.Intent{{Name: "x", Description: "store score", Phrasings: []string{"store"}}})
	if got := two("sore"); got != "sore" {
		t.Errorf("a word near two dictionary words was rewritten to %q", got)
	}
}

// TestRewrittenCommandsNeedNoModelCall: a misspelled command the rewriter
// fixes is accepted by the resolver alone; the model is never called.
func TestRewrittenCommandsNeedNoModelCall(t *testing.T) {
	m, _, calls := scripted(t, says(`{"result":"fallback_chat"}`))
	rw := intent.SpellingRewriter(homeIntentList(t))
	r := newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t), Rewriter: rw})
	for u, want := range map[string]string{"set a tmer for 5 minuts": "timer_start", "puase the music": "music_pause", "raed my notes": "note_read"} {
		res, err := r.Route(context.Background(), intent.Turn{ID: "r", Utterance: u})
		if err != nil {
			t.Fatal(err)
		}
		if res.Kind != intent.Accept || res.Intent != want || res.By != "resolver" || res.ModelCalls != 0 {
			t.Errorf("%q: %s %s by %s with %d model calls, want %s by the resolver", u, res.Kind, res.Intent, res.By, res.ModelCalls, want)
		}
	}
	if calls.Load() != 0 {
		t.Fatalf("the model was called %d times for rewritten commands", calls.Load())
	}
}
