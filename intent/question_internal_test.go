package intent

import "testing"

// TestTheClarifyQuestionIsTheAssistantsOffer: intent descriptions are
// written to the assistant, so the question offers them ("Should I ...?"),
// addresses the user as "you", and keeps acronyms' capitals.
func TestTheClarifyQuestionIsTheAssistantsOffer(t *testing.T) {
	r := &Router{intents: map[string]*entry{
		"weather":  {Intent: Intent{Description: "Tell the weather forecast."}},
		"reminder": {Intent: Intent{Description: "Remind the user of something later"}},
		"profile":  {Intent: Intent{Description: "Show the user's profile"}},
		"tv":       {Intent: Intent{Description: "TV: switch the channel"}},
	}}
	tests := []struct {
		names []string
		want  string
	}{
		{[]string{"weather"}, "Should I tell the weather forecast?"},
		{[]string{"reminder", "profile"}, "Should I remind you of something later, or show your profile?"},
		{[]string{"tv"}, "Should I TV: switch the channel?"},
		{[]string{"unknown"}, "What would you like to do?"},
	}
	for _, tt := range tests {
		if got := r.whichQuestion(tt.names); got != tt.want {
			t.Errorf("whichQuestion(%v) = %q, want %q", tt.names, got, tt.want)
		}
	}
}

// TestASlotQuestionReadsAsASentence: a slot's question is built from its
// description; a description that is a question word's clause ("who to
// call") is asked as it is, never as "the who to call".
func TestASlotQuestionReadsAsASentence(t *testing.T) {
	tests := []struct {
		slot    Slot
		invalid bool
		want    string
	}{
		{Slot{Name: "duration", Description: "duration"}, false, "What duration?"},
		{Slot{Name: "duration", Description: "duration"}, true, "I didn't get the duration; what should it be?"},
		{Slot{Name: "who", Description: "who to call"}, false, "Who to call?"},
		{Slot{Name: "who", Description: "who to call"}, true, "I didn't get who to call; what should it be?"},
		{Slot{Name: "after", Description: "when, from now"}, true, "I didn't get when, from now; what should it be?"},
		{Slot{Name: "day", Type: TypeEnum, Enum: []string{"today", "tomorrow"}}, false, "What day? (today, tomorrow)"},
	}
	for _, tt := range tests {
		if got := slotQuestion(tt.slot, tt.invalid); got != tt.want {
			t.Errorf("slotQuestion(%q, %v) = %q, want %q", tt.slot.Description, tt.invalid, got, tt.want)
		}
	}
}
