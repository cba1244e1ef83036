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

// utterance is the text of a turn (after the rewriter) as the router
// reads it: its tokens, the raw whitespace-separated field behind each
// token (spans), the hostile shapes of the raw text (Shapes), and which
// tokens the user wrote as they are (not changed by the rewriter).
type utterance struct {
	text   string
	toks   []string
	at     []int    // at[i]: the field of toks[i]
	fields []string // the whitespace-separated fields of text
	shapes []string
	typed  map[string]bool
}

// newUtterance reads text, the rewriter's output for original.
func newUtterance(original, text string) utterance {
	toks, at, fields := spans(text)
	u := utterance{text: text, toks: toks, at: at, fields: fields, shapes: Shapes(text), typed: map[string]bool{}}
	for _, t := range Tokens(original) {
		u.typed[t] = true
	}
	return u
}
