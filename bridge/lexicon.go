package bridge

import (
	"context"
	"strings"
	"sync"

	"github.com/rlm-dev/rlm/retrieval"
)

// ShapeKnown is the shape of a query word that names a symbol of the
// snapshot although it does not look like one: a lowercase word ("send",
// "putrequest", "get") or a name with its language's legal characters
// ("empty?", "save!", "name=", "~Conn", "operator=="). It is data the
// rules judge (rules/retrieval/known.pl), computed only when a Lexicon is
// given (QueryFeaturesIn).
const ShapeKnown = "known"

// Lexicon is what a snapshot knows, for QueryFeaturesIn. The zero
// Lexicon knows nothing (features as QueryFeatures computes them).
type Lexicon struct {
	// Symbol reports whether name is the name of a symbol in the snapshot
	// (case-sensitive); nil: no word is known.
	Symbol func(name string) bool
	// Path reports whether the snapshot has a file or directory at path
	// (relative to the root, or to a directory of the root's own path);
	// nil: every path-shaped token is a path.
	Path func(path string) bool
	// Source reports whether name (case-sensitive) names a definition of
	// the snapshot's own code: one whose role is retrieval.RoleSource,
	// not a test or an example; nil: no name is known to.
	Source func(name string) bool
	// Term reports whether some document of the snapshot's search index
	// holds word (lowercase) as a token of its text, in any field; nil:
	// no word is known to (no acronyms are found, Features.Acronyms).
	Term func(word string) bool
}

// MaxLexiconLookups bounds the names and paths one query asks a backend
// about.
const MaxLexiconLookups = 32

// MaxTermLookups bounds the words (candidate acronyms) one query asks a
// backend about, apart from MaxLexiconLookups.
const MaxTermLookups = 24

// BackendLexicon is a Lexicon over a retrieval backend: a name is known if
// an exact, case-sensitive look-up of it finds a definition, and in the
// source if one with the role filter retrieval.RoleSource does; a path is
// known if a structural listing under it finds one; a word is a term if
// a lexical search of it alone finds a document. Errors count as
// unknown (a query is never refused for them). The look-ups are memoised
// and bounded by MaxLexiconLookups, so a Lexicon is for one query.
func BackendLexicon(ctx context.Context, b retrieval.Backend) Lexicon {
	return BackendLexiconMemo(ctx, b, nil)
}

// MaxLexiconMemo bounds the answers a LexiconMemo keeps; past it, new
// answers are asked of the backend and not kept.
const MaxLexiconMemo = 8192

// LexiconMemo keeps one snapshot's answers to lexicon look-ups (is this
// a symbol's name, is there a file or directory at this path) across
// queries, for BackendLexiconMemo: a word asked about once is not asked
// of the backend again while the memo lives. It holds at most
// MaxLexiconMemo answers and never an error. A memo is for one snapshot
// identity of one backend; the owner drops it when the snapshot changes
// (planner.Table does). The zero value is not usable: use
// NewLexiconMemo. Safe for concurrent use.
type LexiconMemo struct {
	mu    sync.Mutex
	known map[string]bool // "name:N" or "path:P" → the backend's answer
}

// NewLexiconMemo returns an empty memo.
func NewLexiconMemo() *LexiconMemo { return &LexiconMemo{known: map[string]bool{}} }

// Len returns the number of answers the memo holds.
func (m *LexiconMemo) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.known)
}

func (m *LexiconMemo) get(k string) (known, ok bool) {
	if m == nil {
		return false, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	known, ok = m.known[k]
	return known, ok
}

func (m *LexiconMemo) put(k string, known bool) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.known) < MaxLexiconMemo {
		m.known[k] = known
	}
}

// BackendLexiconMemo is BackendLexicon whose look-ups are answered from
// memo when it holds them, and kept in it when the backend answers
// without an error (nil memo: BackendLexicon). An answer from the memo
// still counts toward the query's MaxLexiconLookups, so the features are
// those BackendLexicon gives on the same snapshot.
func BackendLexiconMemo(ctx context.Context, b retrieval.Backend, memo *LexiconMemo) Lexicon {
	if b == nil {
		return Lexicon{}
	}
	caps := b.Capabilities()
	seen := map[string]bool{}  // names and paths asked
	terms := map[string]bool{} // words asked
	ask := func(k string, req retrieval.Request) bool {
		seen := seen
		max := MaxLexiconLookups
		if strings.HasPrefix(k, "term:") {
			seen, max = terms, MaxTermLookups
		}
		if known, ok := seen[k]; ok {
			return known
		}
		if len(seen) >= max {
			return false
		}
		if known, ok := memo.get(k); ok {
			seen[k] = known
			return known
		}
		hits, err := b.Search(ctx, req)
		known := err == nil && len(hits) > 0
		seen[k] = known
		if err == nil {
			memo.put(k, known)
		}
		return known
	}
	var lex Lexicon
	if caps.Supports(retrieval.Exact) {
		lex.Symbol = func(name string) bool {
			if name == "" || len(name) > MaxTokenBytes {
				return false
			}
			return ask("name:"+name, retrieval.Request{Strategy: retrieval.Exact, Name: name, Limit: 1})
		}
		lex.Source = func(name string) bool {
			if name == "" || len(name) > MaxTokenBytes {
				return false
			}
			req := retrieval.Request{Strategy: retrieval.Exact, Name: name, Limit: 1}
			req.Filter.Roles = []string{retrieval.RoleSource}
			return ask("source:"+name, req)
		}
	}
	if caps.Supports(retrieval.Lexical) {
		lex.Term = func(w string) bool {
			if w == "" || len(w) > MaxTokenBytes {
				return false
			}
			return ask("term:"+w, retrieval.Request{Strategy: retrieval.Lexical, Text: w, Limit: 1})
		}
	}
	if caps.Supports(retrieval.Structural) {
		lex.Path = func(p string) bool {
			req := retrieval.Request{Strategy: retrieval.Structural, Limit: 1}
			req.Filter.PathPrefixes = dirPrefixes(p)
			return len(req.Filter.PathPrefixes) > 0 && ask("path:"+p, req)
		}
	}
	return lex
}

// dirPrefixes are the path prefixes a path-shaped token may name: the
// token as a file or a directory relative to the root, and so each of its
// suffixes after a slash that still holds one ("net/http/server" when the
// root is .../net is "http/server"). A token that ends in a slash names a
// directory only: "message/" is not the prefix of "message.py".
func dirPrefixes(p string) []string {
	dirOnly := strings.HasSuffix(p, "/")
	p = strings.Trim(strings.TrimPrefix(p, "./"), "/")
	if p == "" {
		return nil
	}
	var out []string
	for i := -1; i < len(p); i++ {
		if i >= 0 && (p[i] != '/' || !strings.Contains(p[i+1:], "/")) {
			continue
		}
		s := p[i+1:]
		out = append(out, s+"/")
		if !dirOnly {
			out = append(out, s)
		}
	}
	return out
}

// legalName is the token as a program name with its language's legal
// characters, when the lexicon knows it under that spelling but the plain
// tokeniser would lose them: "empty?", "save!", "name=", "~Conn",
// "operator==", "<=>". last says the token ends the query, where a "?"
// is more likely the question's than the name's: there the name without
// it is preferred when that is known too (a query of one token is a name
// as typed). It returns "" otherwise.
func legalName(raw string, last bool, known func(string) bool) string {
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
