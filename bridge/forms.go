package bridge

import (
	"strings"

	"github.com/kljensen/snowball/english"
)

// MaxWordForms bounds the forms WordForms returns for one word.
const MaxWordForms = 3

// WordForms returns the base forms an inflected lowercase English word may
// stand for, as identifier parts spell them: a plural or third-person
// "s" ("headers" → header, "returns" → return, "addresses" → address,
// "copies" → copy) or a participle's "ed" or "ing" ("parsed" → parse,
// "decoded" → decode, "setting" → set, "delimited" → delimit). A
// candidate is kept only if it has the word's Snowball (Porter2) stem, so
// "news" and "bus" give nothing. Words under four letters, stopwords,
// base forms and words with anything but ASCII letters have none; at most
// MaxWordForms, the likelier first. A description says "decodes the
// headers" where the code says Decode and header_length.
func WordForms(w string) []string {
	if len(w) < 4 || isStopword(w) {
		return nil
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return nil
		}
	}
	var cands []string
	cut := func(suf string) (string, bool) {
		b, ok := strings.CutSuffix(w, suf)
		return b, ok && len(b) >= 3
	}
	if b, ok := cut("ies"); ok {
		cands = append(cands, b+"y")
	} else if b, ok := cut("ied"); ok {
		cands = append(cands, b+"y")
	} else if hasAnySuffix(w, "sses", "xes", "ches", "shes", "zes") {
		cands = append(cands, w[:len(w)-2])
	} else if b, ok := cut("s"); ok && !hasAnySuffix(w, "ss", "us", "is") {
		cands = append(cands, b)
	} else if b, ok := cut("ed"); ok {
		cands = append(cands, participleBases(b)...)
	} else if b, ok := cut("ing"); ok {
		cands = append(cands, participleBases(b)...)
	}
	stem := english.Stem(w, true)
	var out []string
	for _, c := range cands {
		if c != w && !contains(out, c) && english.Stem(c, true) == stem {
			out = append(out, c)
		}
		if len(out) == MaxWordForms {
			break
		}
	}
	return out
}

// participleBases are the base forms a participle's remainder b may stand
// for: b with a doubled last consonant undone ("sett" → set), b with a
// silent e ("pars" → parse), and b itself ("delimit").
func participleBases(b string) []string {
	n := len(b)
	if n >= 4 && b[n-1] == b[n-2] && !strings.ContainsRune("aeiouls", rune(b[n-1])) {
		return []string{b[:n-1]}
	}
	return []string{b + "e", b}
}

func hasAnySuffix(w string, sufs ...string) bool {
	for _, s := range sufs {
		if strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}
