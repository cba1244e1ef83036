package bridge

import (
	"slices"
	"testing"
)

// TestWordFormsAreTheBaseFormsAnInflectedWordStandsFor: a plural, a
// third-person verb or a participle gives the base form identifier parts
// spell (among at most MaxWordForms forms, never the word itself); a base
// form, a word whose "s" is no ending, a stopword and a name give none.
func TestWordFormsAreTheBaseFormsAnInflectedWordStandsFor(t *testing.T) {
	cases := []struct {
		word, base string // base "": no forms
	}{
		{"headers", "header"},
		{"returns", "return"},
		{"addresses", "address"},
		{"copies", "copy"},
		{"parsed", "parse"},
		{"decoded", "decode"},
		{"setting", "set"},
		{"delimited", "delimit"},
		{"header", ""},
		{"status", ""},
		{"news", ""},
		{"these", ""},
		{"ServeHTTP", ""},
		{"utf8s", ""},
	}
	for _, c := range cases {
		got := WordForms(c.word)
		switch {
		case c.base == "" && len(got) > 0:
			t.Errorf("%q: forms %v, want none", c.word, got)
		case c.base != "" && !slices.Contains(got, c.base):
			t.Errorf("%q: forms %v, want %q among them", c.word, got, c.base)
		case slices.Contains(got, c.word) || len(got) > MaxWordForms:
			t.Errorf("%q: forms %v hold the word itself or more than %d", c.word, got, MaxWordForms)
		}
	}
}
