// Package textclip cuts text to a byte budget without splitting a UTF-8
// sequence. It is the one implementation of truncation in rlm: for
// messages, explanations and bounded fields alike.
package textclip

import (
	"strings"
	"unicode/utf8"
)

// Ellipsis marks text that Clip cut.
const Ellipsis = "…"

// Prefix returns the longest prefix of s of at most n bytes that does not
// end inside a UTF-8 sequence (n <= 0 gives ""). Invalid bytes in s are
// kept as they are; only a cut through a valid multi-byte sequence is
// avoided.
func Prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	cut := n
	// Back up over at most 3 continuation bytes to the start of the rune
	// that straddles the cut, if it is a valid multi-byte rune.
	for i := n; i >= 0 && i > n-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if r, size := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || size > 1 {
				if i+size > n {
					cut = i
				}
			}
			break
		}
	}
	return s[:cut]
}

// Clip returns s if it has at most n bytes, else Prefix(s, n) followed by
// Ellipsis (so the result has at most n+3 bytes).
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return Prefix(s, n) + Ellipsis
}

// Fit returns s if it has at most max bytes, else a prefix followed by
// Ellipsis that together have at most max bytes (for fields with a hard
// byte limit). With max smaller than the ellipsis it is Prefix(s, max).
func Fit(s string, max int) string {
	if len(s) <= max {
		return s
	}
	if max < len(Ellipsis) {
		return Prefix(s, max)
	}
	return Prefix(s, max-len(Ellipsis)) + Ellipsis
}

// Clean makes text printable in a message: invalid UTF-8 and control
// characters become U+FFFD, and the result is Fit to max bytes.
func Clean(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return Fit(s, max)
}

// Lines returns lines start..end (1-based, inclusive) of src, each
// followed by "\n": at most maxLines of them, each with invalid UTF-8
// replaced by U+FFFD and then Clip'ped to lineBytes bytes. Lines are
// separated by "\n" (a final "\n" ends one more, empty line). start is
// clamped to [1, lines in src] and end to [start, lines in src]; last is
// the last line returned (start-1 when maxLines <= 0 returns none).
func Lines(src []byte, start, end, maxLines, lineBytes int) (text string, last int) {
	all := strings.Split(string(src), "\n")
	start = min(max(start, 1), len(all))
	last = min(max(end, start), len(all), start+maxLines-1)
	var b strings.Builder
	for i := start; i <= last; i++ {
		b.WriteString(Clip(strings.ToValidUTF8(all[i-1], "\uFFFD"), lineBytes))
		b.WriteByte('\n')
	}
	return b.String(), last
}
