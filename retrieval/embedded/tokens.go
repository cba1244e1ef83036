package embedded

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/internal/identparts"
	"github.com/rlm-dev/rlm/internal/stopwords"
)

// MaxTermBytes bounds one term. Longer letter/digit runs (blobs, not
// identifiers) are dropped from both the index and the query.
const MaxTermBytes = 256

// MaxQueryTerms bounds the number of distinct terms a lexical query ORs
// together; terms past it are ignored.
const MaxQueryTerms = 32

// queryGlue are the relation and cue words people put around identifiers
// in questions ("where is X defined", "what calls Y"); with the question
// glue of internal/stopwords they are dropped from lexical queries (never
// from the index).
var queryGlue = map[string]bool{"call": true, "called": true, "calls": true, "defined": true}

// IsStopword reports whether the lowercased term is dropped from lexical
// queries.
func IsStopword(term string) bool { return stopwords.Glue(term) || queryGlue[term] }

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Words returns the runs of letters, digits and underscores in s, in
// order, as the index reads identifiers out of text (see words).
func Words(s string) []string { return words(s) }

// words returns the runs of letters, digits and underscores in s, in order.
// Everything else (punctuation, operators, quotes, NUL, invalid UTF-8)
// separates words.
func words(s string) []string {
	var out []string
	start := -1
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError && isWordRune(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// splitParts splits one identifier into its lowercased parts
// (identparts.Parts: underscores, camelCase changes, acronym ends,
// letter/digit changes).
func splitParts(ident string) []string { return identparts.Parts(ident) }

// IdentifierParts returns the lowercased parts of one identifier, split as
// SplitIdentifier splits it, without the whole: "readRequest" → [read
// request], "getaddrlist" → [getaddrlist], "__init__" → [init].
func IdentifierParts(ident string) []string { return splitParts(ident) }

// SplitIdentifier returns the lowercased index terms of one identifier: its
// parts (split at underscores, camelCase changes, acronym ends and
// letter/digit changes), then the whole identifier lowercased when that
// differs from the only part. For example "ServeHTTP" → [serve http
// servehttp], "readRequest" → [read request readrequest], "http_test" →
// [http test http_test], "Server" → [server]. Duplicates are removed,
// first occurrence kept. Terms longer than MaxTermBytes are dropped.
func SplitIdentifier(ident string) []string {
	var out []string
	seen := map[string]struct{}{}
	add := func(t string) {
		if t == "" || len(t) > MaxTermBytes {
			return
		}
		if _, ok := seen[t]; ok {
			return
		}
		seen[t] = struct{}{}
		out = append(out, t)
	}
	for _, p := range splitParts(ident) {
		add(p)
	}
	add(strings.ToLower(ident))
	return out
}

// splitMemo remembers SplitIdentifier's result by word while one batch of
// documents is encoded (prepareRows): a batch's words repeat (err, ctx,
// Reader, the package's own names), and splitting every occurrence again
// was 8 s of CPU of a cold GOROOT/src search index build. At most
// maxSplitMemo words are kept; not safe for concurrent use.
type splitMemo map[string][]string

const maxSplitMemo = 1 << 16

// split is SplitIdentifier(w), remembered in m (a nil m remembers nothing).
// The slice returned is shared: callers must not modify it.
func (m splitMemo) split(w string) []string {
	if m == nil {
		return SplitIdentifier(w)
	}
	if t, ok := m[w]; ok {
		return t
	}
	t := SplitIdentifier(w)
	if len(m) < maxSplitMemo {
		m[w] = t
	}
	return t
}

// Terms returns the lowercased terms of free text: every run of letters,
// digits and underscores, expanded with SplitIdentifier, duplicates removed
// (first occurrence kept). Stopwords are kept; see QueryTerms.
func Terms(text string) []string {
	var out []string
	seen := map[string]struct{}{}
	for _, w := range words(text) {
		if len(w) > MaxTermBytes {
			continue
		}
		for _, t := range SplitIdentifier(w) {
			if _, ok := seen[t]; ok {
				continue
			}
			seen[t] = struct{}{}
			out = append(out, t)
		}
	}
	return out
}

// QueryTerms returns the terms a lexical search uses for text: Terms
// without stopwords (IsStopword), at most MaxQueryTerms of them.
func QueryTerms(text string) []string { return queryTerms(text, IsStopword) }

func queryTerms(text string, stop func(string) bool) []string {
	var out []string
	for _, t := range Terms(text) {
		if stop(t) {
			continue
		}
		out = append(out, t)
		if len(out) == MaxQueryTerms {
			break
		}
	}
	return out
}

// matchExpression builds an FTS5 MATCH expression that ORs the query terms
// of text, each written as an FTS5 string literal, so that no part of the
// user's text is ever read as FTS5 syntax (NEAR, AND, NOT, *, ^, column
// filters, parentheses). It returns "" when no term is left.
func (b *Backend) matchExpression(text string) string {
	stop := b.opts.stopword
	if stop == nil {
		stop = IsStopword
	}
	return matchTerms(queryTerms(text, stop))
}

// matchExpression is the MATCH expression with the default stopwords.
func matchExpression(text string) string { return matchTerms(QueryTerms(text)) }

// matchTerms ORs terms as FTS5 string literals; "" for none.
func matchTerms(terms []string) string {
	if len(terms) == 0 {
		return ""
	}
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteString(" OR ")
		}
		b.WriteString(quoteFTS(t))
	}
	return b.String()
}

// quoteFTS writes s as an FTS5 string: in double quotes, inner double quotes
// doubled.
func quoteFTS(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// nameIndexText returns the terms of identifiers (symbol and qualified
// names) and of a document's NameWords for the FTS name column, each once.
func nameIndexText(words []string, names ...string) string {
	return strings.Join(Terms(strings.Join(append(names, words...), " ")), " ")
}

// proseIndexText returns the terms of a free-text field (doc, signature,
// path, body) for the FTS table: every word expanded with SplitIdentifier
// (through memo; nil splits every word), repeats kept so that BM25 sees
// term frequencies.
func proseIndexText(s string, memo splitMemo) string {
	var b strings.Builder
	for _, w := range words(s) {
		if len(w) > MaxTermBytes {
			continue
		}
		for _, t := range memo.split(w) {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(t)
		}
	}
	return b.String()
}
