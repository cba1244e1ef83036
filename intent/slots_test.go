package intent_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/intent"
)

// TestDurationsAreReadAsPeopleSayThem: duration words become the seconds
// a person means — "half an hour" is 30 minutes, not an hour and a half —
// and what is not a duration (a negative amount, no unit) is refused.
func TestDurationsAreReadAsPeopleSayThem(t *testing.T) {
	slot := intent.Slot{Name: "d", Type: intent.TypeDuration}
	for text, want := range map[string]int{
		"5 minutes":            300,
		"half an hour":         1800,
		"half a minute":        30,
		"an hour":              3600,
		"1 hour 30 minutes":    5400,
		"two and a half hours": 9000,
		"90s":                  90,
	} {
		got, err := intent.ParseSlot(slot, intent.Tokens(text))
		if err != nil || got != want {
			t.Errorf("%q = %v, %v; want %d seconds", text, got, err, want)
		}
	}
	for _, text := range []string{"-5 minutes", "5", "minutes", "banana", "99999999 hours"} {
		if got, err := intent.ParseSlot(slot, intent.Tokens(text)); err == nil {
			t.Errorf("%q = %v, want an error", text, got)
		}
	}
}

// TestTokensKeepTheSignOfANumber: a minus sign directly before a digit at
// the start of a word stays (so "-5 minutes" is not read as 5 minutes);
// other dashes separate or join words as before.
func TestTokensKeepTheSignOfANumber(t *testing.T) {
	for text, want := range map[string][]string{
		"set a timer for -5 minutes": {"set", "a", "timer", "for", "-5", "minutes"},
		"rm -rf /":                   {"rm", "rf"},
		"a 5-minute timer -":         {"a", "5-minute", "timer"},
		"x --5":                      {"x", "-5"},
		"state-of-the-art":           {"state-of-the-art"},
	} {
		if diff := cmp.Diff(want, intent.Tokens(text)); diff != "" {
			t.Errorf("Tokens(%q) (-want +got):\n%s", text, diff)
		}
	}
}
