package plsyntax

import (
	"strings"
	"unicode/utf8"
)

// Clip cuts s to at most max bytes on a rune boundary, ending it with "…"
// when it cuts.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max - len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Clean makes text printable in a message: valid UTF-8 (invalid bytes
// become U+FFFD), control characters replaced by U+FFFD, at most max bytes
// (see Clip).
func Clean(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return Clip(s, max)
}
