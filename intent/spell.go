package intent

import (
	"slices"
	"strings"
	"unicode"
)

// SpellingRewriter returns a rewriter (Options.Rewriter) that fixes common
// misspellings of the words the intents are said with. Its dictionary is
// built from the intents alone: the words of their names, descriptions,
// phrasings, slot names, slot descriptions and enum values, and the words
// the slot parsers read (number words, duration units, yes/no words).
//
// A word of an utterance is replaced only when all of these hold, so that
// names, rooms and other slot values are left alone as far as a dictionary
// without English can tell: it is not in the dictionary (nor the plural or
// singular of a word that is), has 4 or more letters and no digit; and one
// dictionary word with the same first letter is one edit away (Damerau),
// the only one of the closest kind: an inserted or deleted letter or two
// adjacent letters swapped come before a substituted letter, which counts
// only in words of 6 or more letters ("hall" stays "hall", not "half").
//
// The rewriter is a pure function: the same input always gives the same
// output; an utterance it does not change is returned as is, one it
// changes as its lowercased words joined by spaces (Tokens).
func SpellingRewriter(intents []Intent) func(string) string {
	dict := map[string]bool{}
	add := func(text string) {
		for _, w := range Tokens(text) {
			if !strings.ContainsFunc(w, unicode.IsDigit) {
				dict[w] = true
			}
		}
	}
	for _, in := range intents {
		add(strings.ReplaceAll(in.Name, "_", " "))
		add(in.Description)
		for _, p := range in.Phrasings {
			for _, f := range strings.Fields(p) {
				if !strings.HasPrefix(f, "{") {
					add(f)
				}
			}
		}
		for _, s := range in.Slots {
			add(strings.ReplaceAll(s.Name, "_", " "))
			add(s.Description)
			add(strings.Join(s.Enum, " "))
		}
	}
	for w := range numberWords {
		dict[w] = true
	}
	for w := range unitSeconds {
		dict[w] = true
	}
	for _, w := range []string{"yes", "no", "on", "off", "true", "false"} {
		dict[w] = true
	}
	byFirst := map[rune][]string{}
	for w := range dict {
		r := []rune(w)[0]
		byFirst[r] = append(byFirst[r], w)
	}
	for _, ws := range byFirst {
		slices.Sort(ws) // one order, whatever the map's
	}
	known := func(w string) bool {
		return dict[w] || dict[w+"s"] || strings.HasSuffix(w, "s") && dict[w[:len(w)-1]]
	}
	correct := func(w string) (string, bool) {
		rs := []rune(w)
		if len(rs) < 4 || known(w) || strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) {
			return "", false
		}
		best, rank, n := "", 3, 0
		for _, d := range byFirst[rs[0]] {
			k := edit(rs, []rune(d))
			if k == 2 && len(rs) < 6 || k == 0 {
				continue
			}
			switch {
			case k < rank:
				best, rank, n = d, k, 1
			case k == rank:
				n++
			}
		}
		return best, n == 1
	}
	return func(s string) string {
		toks := Tokens(s)
		changed := false
		for i, w := range toks {
			if c, ok := correct(w); ok {
				toks[i], changed = c, true
			}
		}
		if !changed {
			return s
		}
		return strings.Join(toks, " ")
	}
}

// edit tells how a and b differ when they differ by one edit: 1 for an
// inserted or deleted letter or two adjacent letters swapped, 2 for one
// substituted letter; 0 otherwise.
func edit(a, b []rune) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	switch len(b) - len(a) {
	case 0:
		switch {
		case i == len(a):
			return 0 // equal
		case i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && string(a[i+2:]) == string(b[i+2:]):
			return 1 // swapped
		case string(a[i+1:]) == string(b[i+1:]):
			return 2 // substituted
		}
	case 1:
		if string(a[i:]) == string(b[i+1:]) {
			return 1 // inserted
		}
	}
	return 0
}
