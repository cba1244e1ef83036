package retrieval

import (
	"cmp"
	"context"
	"slices"
	"strings"
)

// TypeKinds are the kinds of the definitions that declare a type:
// classes, structs, interfaces (and traits), enums and Go's other named
// types (sourcefacts' KindClass, KindStruct, KindInterface, KindEnum,
// KindType).
var TypeKinds = []string{"class", "struct", "interface", "enum", "type"}

// IsTypeKind reports whether kind is one of TypeKinds.
func IsTypeKind(kind string) bool { return slices.Contains(TypeKinds, kind) }

// ContainerMembers is how many of a search's hits must be members of one
// type (Qualified "T.m" in T's file) for TypesFirst to bring T in: two,
// so that one member's match alone does not stand for its type.
const ContainerMembers = 2

// TypesFirst orders the hits of one search (in their order) for a query
// that describes a type ("Collection of HTTP cookies"): the definitions
// of TypeKinds first, then the others, each part in its own order, the
// documents d demotes after both (as SearchDemoting placed them). A type
// that ContainerMembers or more of the hits are members of — their
// Qualified is the type's Qualified (or Symbol) and a "." and a name,
// and it is defined in the same file — joins the hits just before its
// first member when it is not among them: its members' words are its
// words ("cookies" is what CookieJar's methods are named after, when the
// class itself has no doc comment to say so). A joined type is found by
// an exact search of its name on b (under the member's file): the type
// of that name whose lines contain the member's (a class and its
// methods; the innermost, for a nested type), else, for a member written
// outside its type (a Go method), the one qualified exactly as the
// container. It takes the score, score kind and strategy of its first
// member (its rank is the member's). At most max(limit, len(hits)) are
// returned — a joined type displaces a match only from a full page —,
// Rank renumbered 1..n. Errors: b.Search's; the hits are returned
// unchanged with it.
func TypesFirst(ctx context.Context, b Backend, hits []Hit, d Demotion, limit int) ([]Hit, error) {
	if len(hits) == 0 {
		return hits, nil
	}
	members := map[string]int{} // container key → members among hits
	seen := map[string]bool{}   // document IDs among hits
	for _, h := range hits {
		seen[h.Document.ID] = true
		if c, ok := containerOf(h.Document); ok {
			members[h.Document.Path+"\x00"+c]++
		}
	}
	out := make([]Hit, 0, len(hits)+len(members))
	joined := map[string]bool{}
	for _, h := range hits {
		if c, ok := containerOf(h.Document); ok && !joined[h.Document.Path+"\x00"+c] && members[h.Document.Path+"\x00"+c] >= ContainerMembers {
			joined[h.Document.Path+"\x00"+c] = true
			t, found, err := findType(ctx, b, h.Document, c)
			if err != nil {
				return hits, err
			}
			if found && !seen[t.ID] {
				seen[t.ID] = true
				out = append(out, Hit{Document: t, Score: h.Score, ScoreKind: h.ScoreKind, Strategy: h.Strategy})
			}
		}
		out = append(out, h)
	}
	order := func(h Hit) int {
		switch {
		case d.Demotes(h.Document):
			return 2
		case IsTypeKind(h.Document.Kind):
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(x, y Hit) int { return order(x) - order(y) })
	if n := max(limit, len(hits)); len(out) > n {
		out = out[:n]
	}
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, nil
}

// containerOf returns the qualified name of the definition doc is a
// member of: its Qualified without the last ".name" ("CookieJar" for
// "CookieJar.clear"); ok is false for a definition that is no member.
func containerOf(doc Document) (string, bool) {
	i := strings.LastIndexByte(doc.Qualified, '.')
	if i <= 0 || i == len(doc.Qualified)-1 {
		return "", false
	}
	return doc.Qualified[:i], true
}

// findType looks up the type member is a member of, c (its container's
// qualified name), in member's file: of the type definitions named as c's
// last part, the innermost whose lines contain member's, else the one
// qualified c.
func findType(ctx context.Context, b Backend, member Document, c string) (Document, bool, error) {
	name := c[strings.LastIndexByte(c, '.')+1:]
	hits, err := b.Search(ctx, Request{Strategy: Exact, Name: name, Limit: MaxLimit, Filter: Filter{PathPrefixes: []string{member.Path}}})
	if err != nil {
		return Document{}, false, err
	}
	var inner, named *Document
	for i := range hits {
		t := &hits[i].Document
		if t.Path != member.Path || !IsTypeKind(t.Kind) || t.ID == member.ID {
			continue
		}
		if t.StartLine <= member.StartLine && member.EndLine <= t.EndLine && (t.StartLine < member.StartLine || member.EndLine < t.EndLine) {
			if inner == nil || inner.StartLine <= t.StartLine && t.EndLine <= inner.EndLine {
				inner = t
			}
			continue
		}
		if q := cmp.Or(t.Qualified, t.Symbol); q == c {
			named = t
		}
	}
	switch {
	case inner != nil:
		return *inner, true, nil
	case named != nil:
		return *named, true, nil
	}
	return Document{}, false, nil
}
