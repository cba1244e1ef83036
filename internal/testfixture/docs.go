package testfixture

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rlm-dev/rlm/retrieval"
)

// VectorDocs returns n documents "v00000".."v<n-1>" spread so that every
// filter field selects a part of them: path "pkg<i%10>/f<i>.go", kind
// function, method or type (i%3), language go or python (i%2), and Test for
// every seventh. They have no Text.
func VectorDocs(n int) []retrieval.Document {
	kinds := []string{"function", "method", "type"}
	langs := []string{"go", "python"}
	docs := make([]retrieval.Document, n)
	for i := range docs {
		docs[i] = retrieval.Document{
			ID: fmt.Sprintf("v%05d", i), Path: fmt.Sprintf("pkg%d/f%d.go", i%10, i), StartLine: 1, EndLine: 2,
			Symbol: fmt.Sprintf("F%d", i), Kind: kinds[i%len(kinds)], Language: langs[i%len(langs)], Test: i%7 == 0,
		}
	}
	return docs
}

// Passes is the reference meaning of a retrieval.Filter: d's path starts
// with one of PathPrefixes (byte-wise; an empty prefix matches everything),
// its kind is among Kinds and its language among Languages (empty lists
// allow all), it is not a test when ExcludeTests is set, a test when
// OnlyTests is, its role (retrieval.RoleOf) is among Roles (empty allows
// all) and not among ExcludeRoles, it changed after generation
// ChangedSince, and its parser's name (retrieval.ParserName) is among
// Parsers (empty allows all).
func Passes(d retrieval.Document, f retrieval.Filter) bool {
	in := func(v string, vals []string) bool {
		if len(vals) == 0 {
			return true
		}
		for _, x := range vals {
			if x == v {
				return true
			}
		}
		return false
	}
	if len(f.PathPrefixes) > 0 {
		ok := false
		for _, p := range f.PathPrefixes {
			if strings.HasPrefix(d.Path, p) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return in(d.Kind, f.Kinds) && in(d.Language, f.Languages) && !(f.ExcludeTests && d.Test) && !(f.OnlyTests && !d.Test) &&
		in(retrieval.RoleOf(d), f.Roles) && !slices.Contains(f.ExcludeRoles, retrieval.RoleOf(d)) &&
		(f.ChangedSince == 0 || d.Changed > f.ChangedSince) && in(retrieval.ParserName(d.Parser), f.Parsers)
}
