package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rlm-dev/rlm"
)

var clock = func() time.Time { return time.Date(2025, 1, 2, 8, 0, 0, 0, time.UTC) }

func assist(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb, clock); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	return out.String()
}

func contains(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// exampleRouter loads the example's embedded intent files; it is closed
// when the test ends.
func exampleRouter(t *testing.T) *rlm.Router {
	t.Helper()
	dir := t.TempDir()
	if err := copyIntents(dir); err != nil {
		t.Fatal(err)
	}
	r, err := rlm.NewRouter(context.Background(), rlm.RouterOptions{IntentsDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestAOneShotRequestRunsItsHandler: one command on the command line is
// routed by the rules and its handler acts on the home.
func TestAOneShotRequestRunsItsHandler(t *testing.T) {
	contains(t, assist(t, "", "set a timer for 5 minutes"), "[accept timer_start {\"duration\":300} by rules]\nTimer set for 5m0s.")
	contains(t, assist(t, "", "call mom"), "(simulated) Calling mom.")
}

// TestAConversationChangesTheHome: lines from stdin are turns of one
// conversation; accepted requests change the home, misspellings are
// fixed by the rewriter, what the rules cannot decide is asked back, and
// a value outside its slot's range (500 percent) is asked for again
// before any handler runs.
func TestAConversationChangesTheHome(t *testing.T) {
	out := assist(t, strings.Join([]string{
		"turn on the lights in the kitchen",
		"set a tmer for 10 minutes",
		"how much time is left on the timer",
		"dim the lights to 500 percent",
		"the hall lights should be on",
		"add milk and eggs to the shopping list",
		"add bread to the shopping list",
		"weather in paris tomorrow",
		":state",
	}, "\n"))
	contains(t, out,
		"Lights on in the kitchen.",
		"[accept timer_start {\"duration\":600} by rules]",
		"10m0s left on the timer.",
		"[clarify by rules]\nI didn't get the brightness in percent; what should it be?",
		"[clarify by rules]\nShould I ",
		"Added milk and eggs to the shopping list (1 item).",
		"Added bread to the shopping list (2 items).",
		"(simulated) The weather in paris, tomorrow:",
		"lights on: kitchen", "timer: 10m0s left", "shopping list: milk and eggs, bread")
	if strings.Contains(out, "Brightness goes from") {
		t.Errorf("a handler saw the out-of-range brightness:\n%s", out)
	}
}

// TestTheIntentsRangesAreTheHandlersRanges: every min(N)/max(N) the
// example's intents declare is the range its handler holds to: the
// bounds are done, one step past either is refused by the handler too
// (defence in depth), so the router refuses exactly what the home would.
func TestTheIntentsRangesAreTheHandlersRanges(t *testing.T) {
	r := exampleRouter(t)
	ranged := 0
	for _, in := range r.Intents() {
		for _, s := range in.Slots {
			if s.Min == nil || s.Max == nil {
				continue
			}
			ranged++
			refused := func(v float64) bool {
				msg := newHome(clock).do(in.Name, map[string]any{s.Name: v})
				return strings.Contains(msg, " not ")
			}
			if refused(*s.Min) || refused(*s.Max) {
				t.Errorf("%s.%s: the handler refuses a bound of %g..%g", in.Name, s.Name, *s.Min, *s.Max)
			}
			if !refused(*s.Min-1) || !refused(*s.Max+1) {
				t.Errorf("%s.%s: the handler takes a value outside %g..%g", in.Name, s.Name, *s.Min, *s.Max)
			}
		}
	}
	if ranged < 3 {
		t.Fatalf("%d ranged slots, want the brightness, volume and thermostat ranges", ranged)
	}
}

// TestTheScriptedRepairAnswersWhatTheRulesCannot: with -scripted, a
// paraphrase the rules cannot decide is repaired by one model call.
func TestTheScriptedRepairAnswersWhatTheRulesCannot(t *testing.T) {
	contains(t, assist(t, "", "-scripted", "-explain", "countdown 10 minutes please"),
		"[accept timer_start {\"duration\":600} by repair, 1 model call(s)]", "Timer set for 10m0s.", "because in_no_phrasing")
}

// TestTheAlarmTakesWhatItsSlotDeclares: the alarm's time slot declares
// (pattern, home.pl) exactly the times of day its handler reads
// (parseClock): the same strings match and parse, to the right clock
// time, and the rest neither; so the router asks again for "today"
// before the handler could refuse it.
func TestTheAlarmTakesWhatItsSlotDeclares(t *testing.T) {
	r := exampleRouter(t)
	var pattern string
	for _, in := range r.Intents() {
		for _, s := range in.Slots {
			if in.Name == "alarm_set" && s.Name == "time" {
				pattern = s.Pattern
			}
		}
	}
	re, err := regexp.Compile(pattern)
	if pattern == "" || err != nil {
		t.Fatalf("the alarm's time slot declares no usable pattern %q: %v", pattern, err)
	}
	for text, want := range map[string]string{
		"7": "07:00", "07:30": "07:30", "19:45": "19:45", "7 am": "07:00", "7am": "07:00", "7:15 pm": "19:15",
		"12 am": "00:00", "12 pm": "12:00", "7 a.m": "07:00", "7 p.m.": "19:00", "7 o'clock": "07:00",
		"seven": "07:00", "seven pm": "19:00", "seven thirty": "07:30", "twelve o'clock": "12:00",
		"half past six": "06:30", "a quarter to seven": "06:45", "twenty five past 9": "09:25", "quarter to one": "00:45",
		"noon": "12:00", "midnight": "00:00", "6 in the evening": "18:00", "half past six tonight": "18:30",
		"7 tomorrow": "07:00", "8 tomorrow morning": "08:00", "Seven AM": "07:00",
		"today": "", "soon": "", "tomorrow": "", "24": "", "7:60": "", "7:5": "", "13 pm": "", "0 am": "",
		"+7": "", "-7": "", "half past +7": "", "7:+5": "", "a half past six": "", "half past": "", "seven thirty pm": "", "thirteen": "", "": "",
	} {
		hh, mm, ok := parseClock(text)
		got := ""
		if ok {
			got = clockText(hh, mm)
		}
		if got != want {
			t.Errorf("parseClock(%q) = %q, want %q", text, got, want)
		}
		if re.MatchString(text) != ok {
			t.Errorf("%q: the pattern matches %v, the handler reads it %v", text, re.MatchString(text), ok)
		}
		if msg := newHome(clock).do("alarm_set", map[string]any{"time": text}); strings.Contains(msg, "not") == ok {
			t.Errorf("%q: the handler said %q", text, msg)
		}
	}
	contains(t, assist(t, "", "set an alarm for today"), "[clarify by rules]\nI didn't get the time of day; what should it be?")
	contains(t, assist(t, "", "wake me up at half past six"), "Alarm set for 06:30.")
}

// TestTheMusicPlayerPlaysOnlyItsStations: the player's library is the 80
// ID3v1 genres (library.pl): a genre is played, said with articles and
// "music" or not; anything else — an artist, a kettle — is asked about,
// and nothing plays.
func TestTheMusicPlayerPlaysOnlyItsStations(t *testing.T) {
	contains(t, assist(t, "", "play some classic rock music"), "Playing some classic rock music.")
	contains(t, assist(t, "", "play r&b"), "[accept music_play")
	for _, u := range []string{"play the dishwasher", "play music"} {
		out := assist(t, "", u)
		contains(t, out, "[clarify by rules]\nI couldn't find")
		if strings.Contains(out, "Playing") {
			t.Errorf("%q played something:\n%s", u, out)
		}
	}
}
