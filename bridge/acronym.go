package bridge

import "strings"

// Acronym is an identifier part of the snapshot that spells the initials
// of consecutive words of the query: "host domain name" and the part
// "hdn" of is_HDN, "transport layer security" and "tls". A description
// says the words where the code abbreviates them; the rules add Term to
// the search text (rules/retrieval/expand.pl, relation acronym).
type Acronym struct {
	Words []string // the query's words, lowercased, in order
	Term  string   // their initials, lowercase, a term of the search index
}

// Bounds of acronym finding: an acronym spells MinAcronymWords to
// MaxAcronymWords words (two-letter initials, "id", "io", "ok", are too
// often a term by chance), and a query has at most MaxAcronyms.
const (
	MinAcronymWords = 3
	MaxAcronymWords = 4
	MaxAcronyms     = 4
)

// acronyms returns the runs of MinAcronymWords to MaxAcronymWords
// adjacent content words whose initials lex.Term reports to be a term of
// the snapshot's search index, each term once and none a word of the
// query, at most MaxAcronyms, in the order of their first word. words
// are the query's lowercased content words with their token positions
// (pos); a hyphened token ("quoted-printable") gives one word per part,
// adjacent. Words that are not all letters a-z break a run. A run the
// snapshot also names in full (spelledOut: a definition named
// ContentTransferEncoding for "content transfer encoding", whose
// initials cte its code uses too) gives none: the words themselves
// reach what the code names by them, and the acronym only adds its
// other uses. nil lex.Term: none.
func acronyms(words []string, pos []int, query []string, lex Lexicon) []Acronym {
	term := lex.Term
	if term == nil {
		return nil
	}
	type word struct {
		w   string
		tok int
	}
	var ws []word
	for i, w := range words {
		for _, p := range strings.Split(w, "-") {
			ws = append(ws, word{p, pos[i]})
		}
	}
	letters := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if s[i] < 'a' || s[i] > 'z' {
				return false
			}
		}
		return s != ""
	}
	var out []Acronym
	seen := map[string]bool{}
	for s := range ws {
		for k := MinAcronymWords; k <= MaxAcronymWords && s+k <= len(ws); k++ {
			run := ws[s : s+k]
			ok := true
			var b strings.Builder
			for j, x := range run {
				if !letters(x.w) || len(x.w) < 2 || j > 0 && x.tok-run[j-1].tok > 1 {
					ok = false
					break
				}
				b.WriteByte(x.w[0])
			}
			if !ok {
				break
			}
			a := b.String()
			if seen[a] || contains(query, a) || !term(a) {
				continue
			}
			seen[a] = true
			rw := make([]string, k)
			for j, x := range run {
				rw[j] = x.w
			}
			if spelledOut(rw, lex.Symbol) {
				continue
			}
			out = append(out, Acronym{Words: rw, Term: a})
			if len(out) == MaxAcronyms {
				return out
			}
		}
	}
	return out
}

// spelledOut reports whether symbol knows a name that writes words in
// full: PascalCase, camelCase, snake_case or UPPER_SNAKE
// ("ContentTransferEncoding", "content_transfer_encoding" for content,
// transfer, encoding). nil symbol: false.
func spelledOut(words []string, symbol func(string) bool) bool {
	if symbol == nil {
		return false
	}
	var pascal, camel strings.Builder
	for i, w := range words {
		up := strings.ToUpper(w[:1]) + w[1:]
		pascal.WriteString(up)
		if i == 0 {
			camel.WriteString(w)
		} else {
			camel.WriteString(up)
		}
	}
	snake := strings.Join(words, "_")
	for _, n := range []string{pascal.String(), camel.String(), snake, strings.ToUpper(snake)} {
		if symbol(n) {
			return true
		}
	}
	return false
}
