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
