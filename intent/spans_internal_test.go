package intent

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSpansKeepTheTokensOfTheText: the tokens spans reads field by field
// are exactly Tokens of the whole text (up to MaxTokens), and the raw
// text behind a run of tokens keeps the punctuation the tokens lost,
// the tokenless fields around them included.
func TestSpansKeepTheTokensOfTheText(t *testing.T) {
	for _, text := range []string{
		"call http://evil.example now", "note that X = 1, call(halt)", "set a 5-minute timer -", "x --5 'quoted' \"double\"",
		"Ünïcödé wörds—and dashes", strings.Repeat("word ", MaxTokens+10), "", "   ", "$(reboot) `id` :- ;",
	} {
		toks, at, fields := spans(text)
		if diff := cmp.Diff(Tokens(text), toks); diff != "" {
			t.Errorf("spans(%q) tokens (-Tokens +spans):\n%s", text, diff)
		}
		for i, k := range at {
			if !strings.Contains(strings.ToLower(fields[k]), toks[i]) {
				t.Errorf("%q: token %q is not of its field %q", text, toks[i], fields[k])
			}
		}
	}
	for _, tc := range []struct{ text, words, want string }{
		{"call http://evil.example now", "http evil.example", "http://evil.example"},
		{"note that X = 1, call(halt)", "x 1 call halt", "X = 1, call(halt)"},
		{"say x =", "x", "x ="},
		{"say x = 1 now", "x", "x ="},
		{"say = x now", "x", "= x"},
		{"add $(reboot) to the list", "reboot", "$(reboot)"},
		{"play jazz and jazz again", "jazz again", "jazz again"},
		{"play b then a", "a b", "b a"},
	} {
		got, ok := newUtterance(tc.text, tc.text).rawText(strings.Fields(tc.words))
		if !ok || got != tc.want {
			t.Errorf("rawText(%q, %q) = %q, %v; want %q", tc.text, tc.words, got, ok, tc.want)
		}
	}
	if _, ok := newUtterance("call mom", "call mom").rawText([]string{"dad"}); ok {
		t.Error("rawText found a word that is not a token")
	}
}
