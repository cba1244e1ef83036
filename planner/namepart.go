package planner

import (
	"slices"
	"strings"
	"unicode"

	"github.com/rlm-dev/rlm/internal/identparts"
	"github.com/rlm-dev/rlm/retrieval"
)

// NameHolds reports whether d's name holds every word of name: each run
// of letters and digits of name, split into its lowercased parts as the
// index splits identifiers (identparts.Parts: "message-id" → message,
// id; "attrtext" → attrtext), is a part of d.Symbol or one of its
// d.NameWords (the tree's words a compound part splits into:
// "getaddrlist" → get, addrlist, addr, list). A name without words is
// held by nothing.
func NameHolds(d retrieval.Document, name string) bool {
	var want []string
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		want = append(want, identparts.Parts(w)...)
	}
	if len(want) == 0 {
		return false
	}
	have := append(identparts.Parts(d.Symbol), d.NameWords...)
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// keepNamed is hits without those whose name does not hold name
// (NameHolds), in order, renumbered from 1.
func keepNamed(hits []retrieval.Hit, name string) []retrieval.Hit {
	out := slices.DeleteFunc(hits, func(h retrieval.Hit) bool { return !NameHolds(h.Document, name) })
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}
