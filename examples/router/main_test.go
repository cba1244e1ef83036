package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
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

// TestAOneShotRequestRunsItsHandler: one command on the command line is
// routed by the rules and its handler acts on the home.
func TestAOneShotRequestRunsItsHandler(t *testing.T) {
	contains(t, assist(t, "", "set a timer for 5 minutes"), "[accept timer_start {\"duration\":300} by rules]\nTimer set for 5m0s.")
	contains(t, assist(t, "", "call mom"), "(simulated) Calling mom.")
}

// TestAConversationChangesTheHome: lines from stdin are turns of one
// conversation; accepted requests change the home, misspellings are
// fixed by the rewriter, what the rules cannot decide is asked back, and
// the handlers refuse what the slot schema cannot (500 percent).
func TestAConversationChangesTheHome(t *testing.T) {
	out := assist(t, strings.Join([]string{
		"turn on the lights in the kitchen",
		"set a tmer for 10 minutes",
		"how much time is left on the timer",
		"dim the lights to 500 percent",
		"the hall lights should be on",
		"add milk and eggs to the shopping list",
		":state",
	}, "\n"))
	contains(t, out,
		"Lights on in the kitchen.",
		"[accept timer_start {\"duration\":600} by rules]",
		"10m0s left on the timer.",
		"Brightness goes from 0 to 100 percent, not 500.",
		"[clarify by rules]\nDo you want to",
		"Added milk and eggs to the shopping list (1 items).",
		"lights on: kitchen", "timer: 10m0s left", "shopping list: milk and eggs")
}

// TestTheScriptedRepairAnswersWhatTheRulesCannot: with -scripted, a
// paraphrase the rules cannot decide is repaired by one model call.
func TestTheScriptedRepairAnswersWhatTheRulesCannot(t *testing.T) {
	contains(t, assist(t, "", "-scripted", "-explain", "countdown 10 minutes please"),
		"[accept timer_start {\"duration\":600} by repair, 1 model call(s)]", "Timer set for 10m0s.", "because in_no_phrasing")
}
