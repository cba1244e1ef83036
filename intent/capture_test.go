package intent_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/intent"
)

// TestACommandInsideAnOpenValueIsAskedAbout: when the words an open slot
// takes ("play {what}") are another intent's command ("next song", or
// "next track" by the example's synonym), the resolver asks which was
// meant instead of playing music called "the next song" — without a
// model. Words a slot keeps as written (a note, kind any), a command less
// specific than the phrasing and one that is only part of the value stay
// values.
func TestACommandInsideAnOpenValueIsAskedAbout(t *testing.T) {
	m, _, calls := scripted(t, says(`{"result":"fallback_chat"}`))
	r := newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t)})
	type got struct {
		Kind       intent.Kind
		Intent     string
		Candidates []string
		Rule       string
	}
	for u, want := range map[string]got{
		"play the next song":             {Kind: intent.Clarify, Candidates: []string{"music_play", "music_skip"}, Rule: "in_command_in_value"},
		"put on the next track":          {Kind: intent.Clarify, Candidates: []string{"music_play", "music_skip"}, Rule: "in_command_in_value"},
		"write down turn off the lights": {Kind: intent.Accept, Intent: "note_add", Rule: "val_passed"},
		"look up skip":                   {Kind: intent.Accept, Intent: "search_web", Rule: "val_passed"},
		"look up the next song lyrics":   {Kind: intent.Accept, Intent: "search_web", Rule: "val_passed"},
	} {
		res := route(t, r, u)
		g := got{Kind: res.Kind, Intent: res.Intent, Candidates: res.Candidates}
		if len(res.Evidence) > 0 {
			g.Rule = res.Evidence[len(res.Evidence)-1].Rule
		}
		if g.Kind == intent.Accept {
			g.Candidates = nil
		}
		if diff := cmp.Diff(want, g); diff != "" {
			t.Errorf("%q (-want +got):\n%s", u, diff)
		}
		if res.By != "resolver" {
			t.Errorf("%q: decided by %s, want the resolver", u, res.By)
		}
	}
	if calls.Load() != 0 {
		t.Fatalf("%d model calls, want none", calls.Load())
	}
}
