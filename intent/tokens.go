package intent

import (
	"strings"
	"unicode"
)

// Limits on an utterance.
const (
	MaxUtteranceBytes = 4096 // longer utterances are refused (ErrTooLong)
	MaxTokens         = 64   // words past this are dropped
)

// Tokens splits text into lowercase words: runs of letters, digits and the
// characters ' and - inside a word, and a minus sign before a digit;
// everything else separates. "Set a 5-minute timer!" → set, a, 5-minute,
// timer; "-5 minutes" → -5, minutes. It is the tokenizer of utterances and
// of phrasings alike.
func Tokens(text string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		w := strings.TrimRight(b.String(), "'-")
		if w != "" && len(out) < MaxTokens {
			out = append(out, w)
		}
		b.Reset()
	}
	rs := []rune(text)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		case (r == '\'' || r == '-' || r == '.' || r == ':') && b.Len() > 0:
			b.WriteRune(r) // don't, 5-minute, 2.5, 7:30 (trimmed at the ends)
		case r == '-' && i+1 < len(rs) && unicode.IsDigit(rs[i+1]):
			b.WriteRune(r) // the sign of -5 (b is empty: a word starts)
		default:
			flush()
		}
	}
	flush()
	for i, w := range out {
		out[i] = strings.TrimRight(w, ".:")
	}
	return out
}
