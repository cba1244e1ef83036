// Package subwords splits lowercase compound names written without
// separators ("getaddrlist", "parsebytes") into words of a vocabulary
// ("get addrlist", "parse bytes").
//
// The vocabulary is data the caller gathers (project: the parts of the
// tree's identifiers that are written in two or more parts); this package
// knows no words of its own. Work per name is bounded: names over
// MaxCompoundBytes or with anything but ASCII lowercase letters are not
// split, and a split looks up at most MaxCompoundBytes × MaxWordBytes
// pieces.
package subwords

// Bounds of a split.
const (
	// MaxCompoundBytes: longer names are not split.
	MaxCompoundBytes = 64
	// MaxWordBytes: longer words are not added to a vocabulary.
	MaxWordBytes = 24
	// MinWordBytes: shorter words are not added to a vocabulary ("a",
	// "of", "t" would split almost anything).
	MinWordBytes = 3
)

// Vocabulary is a set of words: lowercase ASCII letters, MinWordBytes to
// MaxWordBytes bytes long. The zero value is empty and ready to use; it is
// not safe for concurrent Add.
type Vocabulary struct {
	words map[string]struct{}
}

// IsWord reports whether a vocabulary can hold w: MinWordBytes to
// MaxWordBytes bytes, each a-z.
func IsWord(w string) bool {
	return len(w) >= MinWordBytes && len(w) <= MaxWordBytes && lowerASCII(w)
}

// Add puts w in v if it is a word (IsWord) and reports whether it is one.
func (v *Vocabulary) Add(w string) bool {
	if !IsWord(w) {
		return false
	}
	if v.words == nil {
		v.words = map[string]struct{}{}
	}
	v.words[w] = struct{}{}
	return true
}

// Has reports whether v holds w.
func (v *Vocabulary) Has(w string) bool {
	_, ok := v.words[w]
	return ok
}

// Len is the number of words in v.
func (v *Vocabulary) Len() int { return len(v.words) }

// lowerASCII reports whether s is non-empty and holds only the bytes a-z.
func lowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

// Pieces returns the pieces of compound that Split(compound) may look up
// in a vocabulary — its substrings MinWordBytes to MaxWordBytes bytes
// long, compound itself left out — each once, in no particular order;
// nil when Split never looks any up (a compound Split does not split). A
// word of a split is a piece, and so is every piece of it. Whether v
// holds the pieces alone decides Split(compound): v's words among them
// split compound, and each word of the split, as v does (what a caller
// that keeps a large vocabulary elsewhere reads of it to split a few
// names).
func Pieces(compound string) []string {
	n := len(compound)
	if n < 2*MinWordBytes || n > MaxCompoundBytes || !lowerASCII(compound) {
		return nil
	}
	seen := make(map[string]struct{}, n*(MaxWordBytes-MinWordBytes+1))
	var out []string
	for i := 0; i < n; i++ {
		for j := i + MinWordBytes; j <= min(n, i+MaxWordBytes); j++ {
			if i == 0 && j == n {
				continue
			}
			if _, ok := seen[compound[i:j]]; !ok {
				seen[compound[i:j]] = struct{}{}
				out = append(out, compound[i:j])
			}
		}
	}
	return out
}

// Split returns the words of v that compound, a lowercase name without
// separators, is written as, in order, when it is the concatenation of
// two or more of them; nil otherwise, and for a name over MaxCompoundBytes
// or with anything but the bytes a-z. compound itself is never one of the
// words, even when v holds it: "addrlist" (a part of "AddrlistClass")
// splits into addr and list when v holds both.
//
// Of the splits, Split returns one with the fewest words; of those, the
// one whose first word is longest, then its second, and so on
// ("getaddrlist" with get, addr, list and addrlist in v: get, addrlist).
// The result depends only on compound and which words v holds, never on
// how v was filled: callers can tell which vocabulary changes can change
// it (a word that is a substring of compound).
func (v *Vocabulary) Split(compound string) []string {
	n := len(compound)
	if len(v.words) == 0 || n < 2*MinWordBytes || n > MaxCompoundBytes || !lowerASCII(compound) {
		return nil
	}
	// pieces[i]: the fewest words compound[i:] splits into (0: none);
	// next[i]: where the first of them ends.
	pieces := make([]int, n+1)
	next := make([]int, n+1)
	for i := n - 1; i >= 0; i-- {
		for j := min(n, i+MaxWordBytes); j >= i+MinWordBytes; j-- { // longest first word first
			if (i == 0 && j == n) || (j < n && pieces[j] == 0) || !v.Has(compound[i:j]) {
				continue
			}
			if c := 1 + pieces[j]; pieces[i] == 0 || c < pieces[i] {
				pieces[i], next[i] = c, j
			}
		}
	}
	if pieces[0] == 0 {
		return nil
	}
	out := make([]string, 0, pieces[0])
	for i := 0; i < n; i = next[i] {
		out = append(out, compound[i:next[i]])
	}
	return out
}
