package subwords

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func vocab(words ...string) *Vocabulary {
	v := &Vocabulary{}
	for _, w := range words {
		v.Add(w)
	}
	return v
}

// TestSplitWritesACompoundAsTheFewestVocabularyWords: Split returns the
// words a lowercase compound is the concatenation of — the fewest, then
// the longest first word, then the next — never the compound itself, and
// nil for anything it does not split: a name of one word, a name some
// letters of which are no word, and hostile input (a huge name, upper
// case, digits, separators, non-ASCII letters, invalid UTF-8).
func TestSplitWritesACompoundAsTheFewestVocabularyWords(t *testing.T) {
	v := vocab("get", "addr", "list", "addrlist", "parse", "bytes", "local", "time",
		"read", "dir", "reader", "aaa", "mime", "type", "été", "abc", "abcd", "bcd", "cde", "de", "efg", "defg")
	cases := []struct {
		name, compound string
		want           []string
	}{
		{"two words", "parsebytes", []string{"parse", "bytes"}},
		{"fewest words first", "getaddrlist", []string{"get", "addrlist"}},
		{"the compound itself is no word of its split", "addrlist", []string{"addr", "list"}},
		{"a word alone does not split", "parse", nil},
		{"a piece under MinWordBytes is no word", "abcde", nil},             // "de" was too short to add
		{"longest first word on a tie", "abcdefg", []string{"abcd", "efg"}}, // not abc, defg
		{"a letter left over", "parsebytesx", nil},
		{"read then dir, not reader then …", "readdir", []string{"read", "dir"}},
		{"three words", "localtimemime", []string{"local", "time", "mime"}},
		{"empty", "", nil},
		{"upper case is not split", "ParseBytes", nil},
		{"digits are not split", "parse2bytes", nil},
		{"separators are not split", "parse_bytes", nil},
		{"non-ASCII is not split", "étéété", nil},
		{"invalid UTF-8 is not split", "parse\xffbytes", nil},
		{"a name over MaxCompoundBytes is not split", strings.Repeat("aaa", MaxCompoundBytes/3+1), nil},
		{"the longest splittable name", strings.Repeat("aaa", MaxCompoundBytes/3), repeat("aaa", MaxCompoundBytes/3)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, v.Split(c.compound)); diff != "" {
				t.Errorf("Split(%q) (-want +got):\n%s", c.compound, diff)
			}
		})
	}
	if got := (&Vocabulary{}).Split("parsebytes"); got != nil {
		t.Errorf("an empty vocabulary splits parsebytes into %q", got)
	}
}

func repeat(w string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = w
	}
	return out
}

// TestAVocabularyHoldsOnlyWords: Add keeps lowercase ASCII words of
// MinWordBytes to MaxWordBytes bytes and nothing else.
func TestAVocabularyHoldsOnlyWords(t *testing.T) {
	cases := []struct {
		w    string
		want bool
	}{
		{"addr", true}, {"get", true}, {"go", false}, {"", false}, {"Addr", false}, {"b64", false},
		{"naïve", false}, {"a_b", false}, {strings.Repeat("w", MaxWordBytes), true}, {strings.Repeat("w", MaxWordBytes+1), false},
	}
	for _, c := range cases {
		v := &Vocabulary{}
		if got := v.Add(c.w); got != c.want || v.Has(c.w) != c.want || v.Len() != map[bool]int{true: 1}[c.want] {
			t.Errorf("Add(%q) = %v, Has %v, Len %d; want %v", c.w, got, v.Has(c.w), v.Len(), c.want)
		}
	}
}

// TestSplitIsBoundedOnHostileNames: the worst name Split accepts (every
// prefix a word, no split at the end) and names far over the bound return
// at once.
func TestSplitIsBoundedOnHostileNames(t *testing.T) {
	v := &Vocabulary{}
	for n := MinWordBytes; n <= MaxWordBytes; n++ {
		v.Add(strings.Repeat("a", n))
	}
	start := time.Now()
	for range 100 {
		v.Split(strings.Repeat("a", MaxCompoundBytes-1) + "b")
		v.Split(strings.Repeat("a", 1<<20))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("200 hostile splits took %v", d)
	}
}

// TestPiecesAreAllSplitLooksUp: a vocabulary cut down to the pieces of a
// compound (Pieces) splits it, and each word of its split, as the whole
// vocabulary does — over many compounds and vocabularies of a two-letter
// alphabet (so that pieces overlap everywhere), words from MinWordBytes
// to MaxWordBytes long, compounds up to MaxCompoundBytes; and Pieces
// gives nothing for what Split never splits.
func TestPiecesAreAllSplitLooksUp(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	letters := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ab"[rng.IntN(2)]
		}
		return string(b)
	}
	for round := range 400 {
		v := &Vocabulary{}
		var words []string
		for range 3 + rng.IntN(30) {
			w := letters(MinWordBytes + rng.IntN(4))
			if rng.IntN(8) == 0 {
				w = letters(MaxWordBytes - rng.IntN(2))
			}
			v.Add(w)
			words = append(words, w)
		}
		// A compound of vocabulary words (so that it splits), at times
		// with a letter more or less.
		var compound string
		for len(compound) < 2*MinWordBytes || rng.IntN(3) > 0 && len(compound) < MaxCompoundBytes-MaxWordBytes {
			compound += words[rng.IntN(len(words))]
		}
		switch rng.IntN(4) {
		case 0:
			compound += "a"
		case 1:
			compound = compound[1:]
		}
		cut := &Vocabulary{}
		for _, p := range Pieces(compound) {
			if v.Has(p) {
				cut.Add(p)
			}
		}
		want := v.Split(compound)
		if diff := cmp.Diff(want, cut.Split(compound)); diff != "" {
			t.Fatalf("round %d: Split(%q) with the vocabulary cut to its pieces (-whole +cut):\n%s", round, compound, diff)
		}
		for _, w := range want {
			if diff := cmp.Diff(v.Split(w), cut.Split(w)); diff != "" {
				t.Fatalf("round %d: Split(%q), a word of %q, with the cut vocabulary (-whole +cut):\n%s", round, w, compound, diff)
			}
		}
	}
	for _, c := range []string{"", "ab", "abcab", "ParseBytes", "parse_bytes", "été", strings.Repeat("a", MaxCompoundBytes+1)} {
		if got := Pieces(c); got != nil {
			t.Errorf("Pieces(%q) = %q, want none: Split looks nothing up", c, got)
		}
	}
	if slices.Contains(Pieces("parsebytes"), "parsebytes") {
		t.Errorf("Pieces(parsebytes) holds parsebytes itself")
	}
}
