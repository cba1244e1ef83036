package textclip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrefixNeverSplitsAUTF8Sequence(t *testing.T) {
	for _, s := range []string{"héllo wörld", "日本語のテキスト", "a😀b😀c", strings.Repeat("é", 50)} {
		for n := 0; n <= len(s)+1; n++ {
			p := Prefix(s, n)
			if len(p) > n {
				t.Fatalf("Prefix(%q, %d) = %q: %d bytes, over the budget", s, n, p, len(p))
			}
			if !utf8.ValidString(p) {
				t.Fatalf("Prefix(%q, %d) = %q splits a UTF-8 sequence", s, n, p)
			}
			if !strings.HasPrefix(s, p) {
				t.Fatalf("Prefix(%q, %d) = %q is not a prefix", s, n, p)
			}
			// Longest: one more rune would not fit.
			if rest := s[len(p):]; rest != "" {
				_, size := utf8.DecodeRuneInString(rest)
				if len(p)+size <= n {
					t.Fatalf("Prefix(%q, %d) = %q is not the longest prefix", s, n, p)
				}
			}
		}
	}
}

func TestPrefixKeepsInvalidBytes(t *testing.T) {
	s := "ab\xff\xfecd"
	if got := Prefix(s, 3); got != "ab\xff" {
		t.Fatalf("Prefix = %q, want %q", got, "ab\xff")
	}
}

func TestClipMarksOnlyCutText(t *testing.T) {
	if got := Clip("short", 10); got != "short" {
		t.Fatalf("Clip short = %q", got)
	}
	if got := Clip("wörld", 2); got != "w"+Ellipsis {
		t.Fatalf("Clip = %q, want %q", got, "w"+Ellipsis)
	}
}

func TestFitStaysWithinTheLimitEllipsisIncluded(t *testing.T) {
	for _, s := range []string{"héllo wörld", "日本語のテキスト", "plain ascii text"} {
		for max := 0; max <= len(s)+1; max++ {
			got := Fit(s, max)
			if len(got) > max || !utf8.ValidString(got) {
				t.Fatalf("Fit(%q, %d) = %q (%d bytes)", s, max, got, len(got))
			}
			if len(s) > max && max >= len(Ellipsis) && !strings.HasSuffix(got, Ellipsis) {
				t.Fatalf("Fit(%q, %d) = %q lacks the ellipsis", s, max, got)
			}
		}
	}
}

// TestLinesCutsAClampedBoundedRange: Lines returns exactly the asked
// lines, clamped to the text, at most maxLines of them, each line clipped
// to its byte budget and made valid UTF-8.
func TestLinesCutsAClampedBoundedRange(t *testing.T) {
	src := []byte("one\ntwo\nthree\nfour\n")
	for _, c := range []struct {
		name                  string
		src                   []byte
		start, end, max, line int
		want                  string
		last                  int
	}{
		{"a middle range", src, 2, 3, 10, 80, "two\nthree\n", 3},
		{"start before the first line", src, -4, 1, 10, 80, "one\n", 1},
		{"end past the last line (a final newline ends an empty line)", src, 4, 99, 10, 80, "four\n\n", 5},
		{"start past the end", src, 9, 12, 10, 80, "\n", 5},
		{"end before start reads one line", src, 3, 1, 10, 80, "three\n", 3},
		{"at most max lines", src, 1, 4, 2, 80, "one\ntwo\n", 2},
		{"no lines when max is zero", src, 2, 4, 0, 80, "", 1},
		{"long lines clipped", []byte("abcdefgh\nx"), 1, 2, 10, 3, "abc" + Ellipsis + "\nx\n", 2},
		{"invalid UTF-8 replaced", []byte("a\xffb"), 1, 1, 10, 80, "a\uFFFDb\n", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, last := Lines(c.src, c.start, c.end, c.max, c.line)
			if got != c.want || last != c.last {
				t.Errorf("Lines(%q, %d, %d, %d, %d) = %q, %d; want %q, %d", c.src, c.start, c.end, c.max, c.line, got, last, c.want, c.last)
			}
		})
	}
}
