// Package identparts splits one identifier into its lowercased parts, the
// way the search index reads names (retrieval/embedded) and the planner
// matches a step's name words against a hit's name (planner, name_part).
package identparts

import (
	"strings"
	"unicode"
)

type runeClass int

const (
	classOther runeClass = iota
	classLower
	classUpper
	classDigit
)

func classify(r rune) runeClass {
	switch {
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return classUpper
	case unicode.IsDigit(r):
		return classDigit
	case unicode.IsLetter(r):
		return classLower // lower-case and caseless letters
	}
	return classOther
}

// Parts splits one identifier into its lowercased parts at underscores,
// lower→upper changes ("readRequest" → read, request), the end of an
// upper-case run followed by a lower-case letter ("HTTPServer" → http,
// server) and letter↔digit changes ("base64Encode" → base, 64, encode).
// Empty pieces between underscores give no part ("__init__" → init).
func Parts(ident string) []string {
	var parts []string
	for _, piece := range strings.Split(ident, "_") {
		if piece == "" {
			continue
		}
		rs := []rune(piece)
		start := 0
		for i := 1; i < len(rs); i++ {
			prev, cur := classify(rs[i-1]), classify(rs[i])
			boundary := false
			switch {
			case prev == classLower && cur == classUpper:
				boundary = true
			case prev == classUpper && cur == classUpper && i+1 < len(rs) && classify(rs[i+1]) == classLower:
				boundary = true
			case (prev == classDigit) != (cur == classDigit):
				boundary = true
			}
			if boundary {
				parts = append(parts, strings.ToLower(string(rs[start:i])))
				start = i
			}
		}
		parts = append(parts, strings.ToLower(string(rs[start:])))
	}
	return parts
}
