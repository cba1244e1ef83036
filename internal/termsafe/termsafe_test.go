package termsafe

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestControlSequencesNeverReachTheTerminal: every control character but
// the line break and the tab, in C0, C1 or as a lone byte, is replaced;
// printable text is kept byte for byte.
func TestControlSequencesNeverReachTheTerminal(t *testing.T) {
	const r = "\uFFFD"
	for _, tc := range []struct{ name, in, want string }{
		{"clear screen (ESC [ 2J)", "a\x1b[2Jb", "a" + r + "[2Jb"},
		{"OSC 52 clipboard", "\x1b]52;c;cm0gLXJmIH4K\x07done", r + "]52;c;cm0gLXJmIH4K" + r + "done"},
		{"C1 CSI as a lone byte", "x\x9b31mred", "x" + r + "31mred"},
		{"C1 CSI as a character", "x\u009b31mred", "x" + r + "31mred"},
		{"bell", "ding\a", "ding" + r},
		{"carriage return", "shown\rhidden", "shown" + r + "hidden"},
		{"DEL and NUL", "a\x7fb\x00c", "a" + r + "b" + r + "c"},
		{"newline and tab pass", "line 1\n\tline 2\n", "line 1\n\tline 2\n"},
		{"printable text passes", "héllo 日本 🙂 \u00a0 <b>&", "héllo 日本 🙂 \u00a0 <b>&"},
		{"invalid UTF-8 alone", "ok\xff\xfe", "ok" + r + r},
		{"empty", "", ""},
		{"bidi override and isolate", "see a\u202egol.b\u202c and \u2066x\u2069", "see a" + r + "gol.b" + r + " and " + r + "x" + r},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := String(tc.in)
			if got != tc.want {
				t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if !utf8.ValidString(got) || strings.ContainsFunc(got, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) {
				t.Errorf("String(%q) = %q still holds a control character or invalid UTF-8", tc.in, got)
			}
		})
	}
}

// TestJSONEscapesWhatTheTerminalWouldRunAndDecodesTheSame: JSON output
// carries no DEL, C1 control or bidi override as a raw character, and
// decodes to exactly the value that was encoded.
func TestJSONEscapesWhatTheTerminalWouldRunAndDecodesTheSame(t *testing.T) {
	for _, v := range []string{
		"x\u009b31mred",
		"a\x7fb",
		"see a\u202egol.b\u202c and \u2066x\u2069",
		"plain héllo 日本 🙂 <b>&",
		"",
	} {
		raw, err := json.Marshal(map[string]string{"answer": v})
		if err != nil {
			t.Fatal(err)
		}
		got := JSON(string(raw))
		if strings.ContainsFunc(got, func(r rune) bool { return r >= 0x7f && r <= 0x9f || bidiControl(r) }) {
			t.Errorf("JSON(%q) = %q still holds a raw control character", raw, got)
		}
		var back map[string]string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back["answer"] != v {
			t.Errorf("JSON(%q) = %q decodes to %q (%v), want %q", raw, got, back["answer"], err, v)
		}
	}
}
