// Package termsafe makes text from files, catalogs and models safe to
// print to a terminal: such text must never reach it as control sequences
// (clearing the screen, setting the clipboard with OSC 52, moving the
// cursor to overwrite what was printed, ringing the bell).
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Replacement is what String puts in place of each character it removes.
const Replacement = '\uFFFD'

// String returns s with every C0 control character except '\n' and '\t'
// (U+0000–U+001F: ESC, BEL, '\r', ...), DEL (U+007F), every C1 control
// character (U+0080–U+009F, e.g. U+009B, CSI) and every byte that is not
// part of valid UTF-8 (a lone 0x9B is CSI to an 8-bit terminal), and the
// bidirectional overrides and isolates (see bidiControl) replaced
// with U+FFFD. Everything else, line breaks and tabs included, is kept as
// it is; s itself is returned when nothing needs replacing.
func String(s string) string {
	i := strings.IndexFunc(s, unsafe)
	if i < 0 {
		if utf8.ValidString(s) {
			return s
		}
		i = 0
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		// Ranging over a string yields utf8.RuneError for every byte that
		// is not valid UTF-8.
		if unsafe(r) {
			r = Replacement
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unsafe reports whether r is a control character String replaces (a
// U+FFFD that stands for invalid bytes is replaced by itself).
func unsafe(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || bidiControl(r)
}

// bidiControl reports whether r is a bidirectional embedding, override or
// isolate (U+202A–U+202E, U+2066–U+2069): printed, they reorder the text
// after them, so "a.go:12" can be shown as something else ("Trojan
// Source", CVE-2021-42574).
func bidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// JSON returns a JSON text (such as encoding/json writes: C0 controls
// already escaped, valid UTF-8) with every other character String would
// replace — DEL, the C1 controls, the bidirectional overrides and
// isolates — written as a \uXXXX escape instead. encoding/json puts such
// characters only inside strings, where the escape means the same
// character, so the JSON decodes to the same value and is safe to print.
func JSON(s string) string {
	if !strings.ContainsFunc(s, jsonUnsafe) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		if jsonUnsafe(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func jsonUnsafe(r rune) bool { return r >= 0x7f && r <= 0x9f || bidiControl(r) }
