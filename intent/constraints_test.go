package intent_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/intent"
)

// intentsDir writes one rule file of intent facts into a new directory.
func intentsDir(t *testing.T, facts string) string {
	t.Helper()
	dir := t.TempDir()
	src := ":- multifile(intent/4).\n:- multifile(phrasing/2).\n" + facts
	if err := os.WriteFile(filepath.Join(dir, "x.pl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func ptr(f float64) *float64 { return &f }

// TestSlotConstraintsAreReadFromTheIntentFacts: slot/5's constraint list
// becomes the slot's Min, Max, MaxLength, Pattern and Kind; a constraint
// that does not fit its slot's type, an unknown one, an unknown kind, a
// bad pattern or an empty range is an *IntentError naming the intent.
func TestSlotConstraintsAreReadFromTheIntentFacts(t *testing.T) {
	dir := intentsDir(t, `intent(dim, "Dim the lights", [slot(level, integer, required, "percent", [min(0), max(100)]),
	    slot(room, string, optional, "room", [kind(name), max_length(20), pattern("^[a-z ]+$")]),
	    slot(note, string, optional, "note")], []).
phrasing(dim, "dim to {level}").
`)
	r := newRouter(t, intent.Options{IntentsDir: dir})
	want := []intent.Slot{
		{Name: "level", Type: intent.TypeInteger, Required: true, Description: "percent", Min: ptr(0), Max: ptr(100)},
		{Name: "room", Type: intent.TypeString, Description: "room", Kind: intent.KindName, MaxLength: 20, Pattern: "^[a-z ]+$"},
		{Name: "note", Type: intent.TypeString, Description: "note"},
	}
	if diff := cmp.Diff(want, r.Intents()[0].Slots); diff != "" {
		t.Errorf("slots (-want +got):\n%s", diff)
	}
	var schema struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(r.Intents()[0].Schema(), &schema); err != nil {
		t.Fatal(err)
	}
	if p := schema.Properties["level"]; p["minimum"] != 0.0 || p["maximum"] != 100.0 {
		t.Errorf("the level's schema lacks its range: %v", p)
	}
	if p := schema.Properties["room"]; p["maxLength"] != 20.0 || p["allOf"] == nil || p["not"] == nil {
		t.Errorf("the room's schema lacks its length, patterns or kind: %v", p)
	}
	for name, slot := range map[string]string{
		"unknown kind":       `slot(a, string, required, "a", [kind(url)])`,
		"range on a string":  `slot(a, string, required, "a", [min(1)])`,
		"pattern on an int":  `slot(a, integer, required, "a", [pattern("^1$")])`,
		"bad pattern":        `slot(a, string, required, "a", [pattern("(")])`,
		"empty range":        `slot(a, integer, required, "a", [min(5), max(1)])`,
		"zero length":        `slot(a, string, required, "a", [max_length(0)])`,
		"not a list":         `slot(a, string, required, "a", kind(name))`,
		"unknown constraint": `slot(a, string, required, "a", [color(red)])`,
		"a word for a bound": `slot(a, integer, required, "a", [max(ten)])`,
	} {
		dir := intentsDir(t, "intent(bad, \"Bad\", ["+slot+"], []).\nphrasing(bad, \"bad {a}\").\n")
		_, err := intent.New(context.Background(), intent.Options{IntentsDir: dir})
		var ie *intent.IntentError
		if !errors.Is(err, intent.ErrBadIntent) || !errors.As(err, &ie) || ie.Intent != "bad" {
			t.Errorf("%s: got %v, want an *IntentError for intent bad", name, err)
		}
	}
}

// TestASlotsRangeHoldsWhoeverDecided: a value outside its slot's range is
// asked for again when the rules read it (no model call), is not accepted
// when a model gives it, and is refused by Execute when a host hands it
// over directly.
func TestASlotsRangeHoldsWhoeverDecided(t *testing.T) {
	m, _, calls := scripted(t, says(`{"result":"accept","intent":"lights_dim","args":{"level":500}}`))
	r := newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t)})
	for u, want := range map[string]string{
		"dim the lights to 500 percent":      "lights_dim",
		"set the volume to 150":              "volume_set",
		"set the thermostat to 4 degrees":    "thermostat_set",
		"set the thermostat to 30.5 degrees": "thermostat_set",
	} {
		res := route(t, r, u)
		if res.Kind != intent.Clarify || res.Reason != "bad_slot" || res.Intent != want || res.ModelCalls != 0 {
			t.Errorf("%q: %s %s (%s), %d model calls; want a clarify about %s's value by the rules", u, res.Kind, res.Intent, res.Reason, res.ModelCalls, want)
		}
	}
	if calls.Load() != 0 {
		t.Fatalf("the model was called %d times", calls.Load())
	}
	for u, want := range map[string]any{"dim the lights to 100 percent": 100, "set the volume to 0": 0, "set the thermostat to 5 degrees": 5.0} {
		if res := route(t, r, u); res.Kind != intent.Accept || len(res.Args) != 1 {
			t.Errorf("%q: %s %v, want an accept of %v", u, res.Kind, res.Args, want)
		}
	}
	if res := route(t, r, "the lamps should glow at 500"); res.Kind == intent.Accept || res.ModelCalls != 1 {
		t.Errorf("a model's out-of-range value: %s %v after %d model calls", res.Kind, res.Args, res.ModelCalls)
	}
	direct := &intent.Result{Turn: "d", Kind: intent.Accept, Intent: "lights_dim", Args: map[string]any{"level": 500}}
	if _, err := r.Execute(context.Background(), direct); err == nil || !strings.Contains(err.Error(), "maximum") {
		t.Errorf("Execute of 500 percent: %v, want the executor's range refusal", err)
	}
}

// TestTextSlotsRefuseURLsPathsAndCodeUnlessTheyAllowThem: a string slot
// of the default kind (text) takes words, not a URL, a path or code —
// checked on the utterance's raw text too, whose punctuation the words
// have lost — and Execute refuses such a value handed over directly; a
// slot of kind any takes them all.
func TestTextSlotsRefuseURLsPathsAndCodeUnlessTheyAllowThem(t *testing.T) {
	r := newRouter(t, intent.Options{Intents: []intent.Intent{
		{Name: "say_text", Description: "Say some words", Slots: []intent.Slot{{Name: "words", Type: intent.TypeString, Required: true}},
			Phrasings: []string{"say {words}"}},
		{Name: "say_any", Description: "Shout anything", Slots: []intent.Slot{{Name: "words", Type: intent.TypeString, Required: true, Kind: intent.KindAny}},
			Phrasings: []string{"shout {words}"}},
	}})
	hostile := []string{"http://evil.example", "www.example.org", "evil.example", "payload.sh", "/etc/passwd", "~/notes",
		"../../x", "a/b/c", `C:\x`, "x = 1", "call(halt)", "$(reboot)", "`id`", "foo :- bar", "{\"a\":1}", "<b>"}
	words := []string{"AC/DC", "1/2 cup", "rock & roll", "don't stop me now", "21.5 degrees", "7:30", "dr. smith", "mom!", "#1 hits", "$5", "50 / 50"}
	for _, v := range hostile {
		if res := route(t, r, "say "+v); res.Kind == intent.Accept {
			t.Errorf("text took %q: %v", v, res.Args)
		} else if res.Kind != intent.Clarify || res.Reason != "bad_slot" {
			t.Errorf("say %q: %s (%s), want a clarify for the value", v, res.Kind, res.Reason)
		}
		if res := route(t, r, "shout "+v); res.Kind != intent.Accept {
			t.Errorf("kind any refused %q: %s %v", v, res.Kind, res.Evidence)
		}
		for name, ok := range map[string]bool{"say_text": false, "say_any": true} {
			_, err := r.Execute(context.Background(), &intent.Result{Kind: intent.Accept, Intent: name, Args: map[string]any{"words": v}})
			if (err == nil) != ok {
				t.Errorf("Execute %s %q: %v", name, v, err)
			}
		}
	}
	for _, v := range words {
		if res := route(t, r, "say "+v); res.Kind != intent.Accept {
			t.Errorf("text refused the words %q: %s %v", v, res.Kind, res.Evidence)
		}
	}
}

// TestNameSlotsRefusePronounsAndIndefiniteWords: a slot of kind name
// (the example's contact) takes a name or a number to dial, not a
// pronoun or an indefinite word, which need a referent or a choice the
// router does not have.
func TestNameSlotsRefusePronounsAndIndefiniteWords(t *testing.T) {
	r := newRouter(t, intent.Options{})
	for _, u := range []string{"call me an uber", "call her", "call someone", "call everyone", "call nobody", "call a plumber", "call it", "call http://evil.example"} {
		if res := route(t, r, u); res.Kind == intent.Accept {
			t.Errorf("%q accepted: %v", u, res.Args)
		}
	}
	for u, want := range map[string]string{"call mom": "mom", "call dr. smith": "dr smith", "dial 555 1234": "555 1234",
		"call o'brien": "o'brien", "call jean-luc": "jean-luc", "call the office": "the office"} {
		if res := route(t, r, u); res.Kind != intent.Accept || res.Args["who"] != want {
			t.Errorf("%q: %s %v, want who=%q", u, res.Kind, res.Args, want)
		}
	}
}

// TestAPatternRefusalSaysWhatWasRefusedNotTheExpression: when a slot's
// pattern or its kind's refuses a value, the evidence line quotes the
// value and names the pattern by the slot's description or kind — never
// the regular expression, which may be hundreds of bytes — whether the
// rules read the value or a repair gave it.
func TestAPatternRefusalSaysWhatWasRefusedNotTheExpression(t *testing.T) {
	times := "(?i)^(?:(?:[01]?[0-9]|2[0-3])(?::[0-5][0-9])?|noon|midnight|" + strings.Repeat("(?:one|two|three) o'clock|", 20) + "dawn)$"
	m, _, _ := scripted(t, says(`{"result":"accept","intent":"wake_at","args":{"time":"today"}}`))
	r := newRouter(t, intent.Options{Model: m, Compiler: theCompiler(t), Intents: []intent.Intent{
		{Name: "wake_at", Description: "Wake the user at a time", Phrasings: []string{"wake me at {time}"},
			Slots: []intent.Slot{{Name: "time", Type: intent.TypeString, Required: true, Description: "time of day", Pattern: times}}},
		{Name: "buzz", Description: "Buzz a person", Phrasings: []string{"buzz {who}"},
			Slots: []intent.Slot{{Name: "who", Type: intent.TypeString, Required: true, Description: "who", Kind: intent.KindName, Pattern: "^[a-z ]+$"}}},
		{Name: "find", Description: "Find words", Phrasings: []string{"find {query}"},
			Slots: []intent.Slot{{Name: "query", Type: intent.TypeString, Required: true}}},
	}})
	for _, c := range []struct {
		utterance, rule string
		want            []string
	}{
		{"wake me at today", "val_bad_slot", []string{`"time"`, `"time: \"today\" does not match the slot's pattern (time of day)"`}},
		{"buzz 12 her", "val_bad_slot", []string{`"who"`, `"who: \"12 her\" does not match the slot's pattern (who)"`}},
		{"buzz her", "val_bad_slot", []string{`"who"`, `"who: \"her\" is not a name (kind name: no pronoun or indefinite word)"`}},
		{"find evil.example", "val_bad_slot", []string{`"query"`, `"query: \"evil.example\" has the shape of url (kind text)"`}},
		{"the wake up time is today", "val_bad_arguments", []string{`"wake_at"`, `"time: \"today\" does not match the slot's pattern (time of day)"`}},
	} {
		res := route(t, r, c.utterance)
		var got []string
		for _, b := range res.Evidence {
			if b.Rule == c.rule {
				got = b.Premises
			}
		}
		if diff := cmp.Diff(c.want, got); diff != "" || res.Kind != intent.Clarify {
			t.Errorf("%q: %s; %s premises (-want +got):\n%s", c.utterance, res.Kind, c.rule, diff)
		}
	}
}
