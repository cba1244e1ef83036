package eval

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/rlm-dev/rlm/retrieval/embedded"
)

// BM25 parameters of the baseline (the usual defaults).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// bm25 is the baseline: Okapi BM25 over declarations, each declaration a
// document of its path, qualified name, signature, doc comment and source
// lines, tokenised as the product's BM25 tokenises (identifiers split at
// case changes and underscores, lowercased; embedded.SplitIdentifier), the
// query's stopwords dropped as the product drops them (embedded.QueryTerms).
type bm25 struct {
	docs  []map[string]int // term frequencies per document
	lens  []int
	avg   float64
	df    map[string]int
	items []decl
}

func newBM25(decls []decl, text func(decl) string) *bm25 {
	b := &bm25{df: map[string]int{}, items: decls}
	total := 0
	for _, d := range decls {
		tf := map[string]int{}
		n := 0
		for _, w := range strings.FieldsFunc(text(d), func(r rune) bool {
			return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
		}) {
			for _, t := range embedded.SplitIdentifier(w) {
				tf[t]++
				n++
			}
		}
		for t := range tf {
			b.df[t]++
		}
		b.docs = append(b.docs, tf)
		b.lens = append(b.lens, n)
		total += n
	}
	if len(decls) > 0 {
		b.avg = float64(total) / float64(len(decls))
	}
	return b
}

// search returns up to limit declarations with a positive score, best
// first; ties keep declaration order (path, then line), so the ranking is
// deterministic.
func (b *bm25) search(query string, limit int) []decl {
	terms := embedded.QueryTerms(query)
	n := float64(len(b.docs))
	type scored struct {
		i int
		s float64
	}
	var out []scored
	for i, tf := range b.docs {
		s := 0.0
		for _, t := range terms {
			f := float64(tf[t])
			if f == 0 {
				continue
			}
			df := float64(b.df[t])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			s += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(b.lens[i])/b.avg))
		}
		if s > 0 {
			out = append(out, scored{i, s})
		}
	}
	sort.SliceStable(out, func(x, y int) bool { return out[x].s > out[y].s })
	if len(out) > limit {
		out = out[:limit]
	}
	res := make([]decl, len(out))
	for i, o := range out {
		res[i] = b.items[o.i]
	}
	return res
}
