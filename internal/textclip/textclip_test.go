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
