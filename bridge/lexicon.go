package bridge

import (
	"context"
	"strings"

	"github.com/rlm-dev/rlm/retrieval"
)

// ShapeKnown is the shape of a query word that names a symbol of the
// snapshot although it does not look like one: a lowercase word ("send",
// "putrequest", "get") or a name with its language's legal characters
// ("empty?", "save!", "name=", "~Conn", "operator=="). It is data the
// rules judge (rules/retrieval/known.pl), computed only when a Lexicon is
// given (QueryFeaturesIn).
const ShapeKnown = "known"

// Lexicon reports whether name is the name of a symbol in the snapshot
// (case-sensitive). Nil means no snapshot: no word is known.
type Lexicon func(name string) bool

// MaxLexiconLookups bounds the names one query asks a Lexicon about.
const MaxLexiconLookups = 32

// BackendLexicon is a Lexicon over a retrieval backend: a name is known if
// an exact, case-sensitive look-up of it finds a definition. Errors count
// as unknown (a query is never refused for them). The look-ups are
// memoised and bounded by MaxLexiconLookups, so a Lexicon is for one query.
func BackendLexicon(ctx context.Context, b retrieval.Backend) Lexicon {
	if b == nil || !b.Capabilities().Supports(retrieval.Exact) {
		return nil
	}
	seen := map[string]bool{}
	return func(name string) bool {
		if known, ok := seen[name]; ok {
			return known
		}
		if len(seen) >= MaxLexiconLookups || name == "" || len(name) > MaxTokenBytes {
			return false
		}
		hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Exact, Name: name, Limit: 1})
		known := err == nil && len(hits) > 0
		seen[name] = known
		return known
	}
}

// legalName is the token as a program name with its language's legal
// characters, when the lexicon knows it under that spelling but the plain
// tokeniser would lose them: "empty?", "save!", "name=", "~Conn",
// "operator==", "<=>". last says the token ends the query, where a "?"
// is more likely the question's than the name's: there the name without
// it is preferred when that is known too. It returns "" otherwise.
func legalName(raw string, last bool, known Lexicon) string {
	if known == nil {
		return ""
	}
	c := strings.TrimLeft(raw, "\"'`([{")
	c = strings.TrimRight(c, ",;:\"'`)]}")
	if c == "" || isIdentText(c) || !hasLetter(c) && !strings.ContainsAny(c, "=<>+-*/%[]~!") {
		return ""
	}
	if strings.HasSuffix(c, ".") && !strings.HasSuffix(c, "..") {
		c = strings.TrimSuffix(c, ".")
	}
	var cands []string
	if q, ok := strings.CutSuffix(c, "?"); ok && last {
		cands = append(cands, q, c)
	} else {
		cands = append(cands, c)
	}
	for _, n := range cands {
		if n == "" || isIdentText(n) {
			if n != "" && known(n) {
				return "" // the plain name: the tokeniser keeps it as it is
			}
			continue
		}
		if known(n) {
			return n
		}
	}
	return ""
}
