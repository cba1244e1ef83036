package intent_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/intent"
)

// TestAValueTheHostsCatalogLacksIsAskedFor: a slot with a catalog
// (catalog/2; the example's music player has genre stations) takes only
// values that name an entry, whoever decided: the resolver's "play the
// dishwasher" and a repair's pick of it are asked for again; a genre is
// played. Slots without a catalog are not checked.
func TestAValueTheHostsCatalogLacksIsAskedFor(t *testing.T) {
	for _, tc := range []struct {
		utterance, answer string
		kind              intent.Kind
		by, reason, rule  string
	}{
		{"play the dishwasher", "", intent.Clarify, "resolver", "unknown_value", "val_not_in_catalog"},
		{"play some hard rock", "", intent.Accept, "resolver", "", "val_in_catalog"},
		{"some music now: the dishwasher", `{"result":"accept","intent":"music_play","args":{"what":"the dishwasher"}}`, intent.Clarify, "repair", "repair_refused", "val_not_in_catalog"},
		{"some music now: hard rock", `{"result":"accept","intent":"music_play","args":{"what":"hard rock"}}`, intent.Accept, "repair", "", "val_in_catalog"},
		{"write down the dishwasher", "", intent.Accept, "resolver", "", "val_passed"},
	} {
		m, _, _ := scripted(t, says(tc.answer))
		r := newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t)})
		res := route(t, r, tc.utterance)
		if res.Kind != tc.kind || res.By != tc.by || res.Reason != tc.reason || !slices.Contains(rules(res), tc.rule) {
			t.Errorf("%q: %s by %s (%s) %v; want %s by %s (%s) with %s", tc.utterance, res.Kind, res.By, res.Reason, rules(res), tc.kind, tc.by, tc.reason, tc.rule)
		}
		if tc.kind == intent.Clarify && tc.by == "resolver" && (res.Intent != "music_play" || !strings.Contains(res.Question, `"the dishwasher"`)) {
			t.Errorf("%q: the question %q (about %s) does not ask again for the value", tc.utterance, res.Question, res.Intent)
		}
	}
}

// TestTheHostsValueCheckRunsWhoeverDecided: Options.CheckValue sees every
// value the slot's constraints let through, the resolver's and a
// repair's; a refusal asks for the value again with the host's reason as
// evidence, and nothing is accepted.
func TestTheHostsValueCheckRunsWhoeverDecided(t *testing.T) {
	var seen []string
	check := func(_ context.Context, in, slot string, v any) error {
		seen = append(seen, in+"."+slot+"="+v.(string))
		if v == "attic" {
			return errors.New("this home has no attic")
		}
		return nil
	}
	m, _, _ := scripted(t, says(`{"result":"accept","intent":"lights_on","args":{"room":"attic"}}`))
	r := newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t), CheckValue: check})
	if res := route(t, r, "turn on the lights in the hall"); res.Kind != intent.Accept || res.Args["room"] != "hall" {
		t.Errorf("a value the host knows: %s %v %v", res.Kind, res.Args, rules(res))
	}
	res := route(t, r, "turn on the lights in the attic")
	if res.Kind != intent.Clarify || res.Reason != "unknown_value" || res.By != "resolver" || !slices.Contains(rules(res), "val_unknown_value") ||
		!strings.Contains(strings.Join(res.Evidence[len(res.Evidence)-1].Premises, " "), "this home has no attic") {
		t.Errorf("the resolver's value the host refused: %s by %s (%s) %+v", res.Kind, res.By, res.Reason, res.Evidence)
	}
	res = route(t, r, "the attic lights should be on please")
	if res.Kind != intent.Clarify || res.By != "repair" || !slices.Contains(rules(res), "val_unknown_value") {
		t.Errorf("a repair's value the host refused: %s by %s (%s) %v", res.Kind, res.By, res.Reason, rules(res))
	}
	want := []string{"lights_on.room=hall", "lights_on.room=attic", "lights_on.room=attic"}
	if !slices.Equal(seen, want) {
		t.Errorf("the host's check saw %v, want %v", seen, want)
	}
}
