package chroma

import (
	"sort"
	"strconv"
	"strings"

	"github.com/rlm-dev/rlm/retrieval"
)

// MaxDirDepth is the number of ancestor-directory metadata keys (dir_1 ..
// dir_MaxDirDepth) stored per record. Path prefixes naming a deeper directory
// are narrowed on the server to their first MaxDirDepth levels and finished
// on the client.
const MaxDirDepth = 24

// dirKey names the metadata key holding the ancestor directory of depth d
// (1-based): for "a/b/c.go", dir_1 = "a" and dir_2 = "a/b".
func dirKey(d int) string { return "dir_" + strconv.Itoa(d) }

// ancestors returns the ancestor directories of a slash path, shallowest
// first, at most MaxDirDepth of them: "a/b/c.go" → ["a", "a/b"].
func ancestors(path string) []string {
	var out []string
	for i := 0; i < len(path) && len(out) < MaxDirDepth; i++ {
		if path[i] == '/' && i > 0 {
			out = append(out, path[:i])
		}
	}
	return out
}

// compiledFilter is a retrieval.Filter translated for Chroma.
//
// Path prefixes are plain string prefixes of Document.Path ("internal/ser"
// matches "internal/server/x.go"). Chroma's where has no prefix operator, so
// every record stores its ancestor directories as dir_1..dir_N; a prefix is
// narrowed on the server by equality on the deepest whole directory it names
// and, unless the prefix ends in "/" (then the equality is exact), finished
// on the client with strings.HasPrefix. A prefix without any "/" (e.g.
// "cmd") cannot be narrowed on the server at all.
type compiledFilter struct {
	where    map[string]any // nil: no server-side condition
	prefixes []string       // non-nil: client-side HasPrefix check needed
}

// clientSide reports whether results must be re-checked on the client (and
// so over-fetched).
func (f compiledFilter) clientSide() bool { return f.prefixes != nil }

// keep is the client-side check of a result's path.
func (f compiledFilter) keep(path string) bool {
	if f.prefixes == nil {
		return true
	}
	for _, p := range f.prefixes {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// compileFilter translates f, adding extra conditions (e.g. symbol equality)
// with $and.
func compileFilter(f retrieval.Filter, extra ...map[string]any) compiledFilter {
	var clauses []map[string]any
	clauses = append(clauses, extra...)
	if c := inClause("kind", f.Kinds); c != nil {
		clauses = append(clauses, c)
	}
	if c := inClause("language", f.Languages); c != nil {
		clauses = append(clauses, c)
	}
	if f.ExcludeTests {
		// $ne also matches records without the key.
		clauses = append(clauses, map[string]any{"test": map[string]any{"$ne": true}})
	}
	if f.OnlyTests {
		clauses = append(clauses, map[string]any{"test": map[string]any{"$eq": true}})
	}
	if c := inClause(MetaRole, f.Roles); c != nil {
		clauses = append(clauses, c)
	}
	if vals := dedupe(f.ExcludeRoles); len(vals) > 0 {
		// Like $ne, $nin also matches records without the key (written
		// before roles were stored).
		clauses = append(clauses, map[string]any{MetaRole: map[string]any{"$nin": vals}})
	}
	if f.ChangedSince > 0 {
		// $gt matches only records with the key: those without were never
		// given a generation.
		clauses = append(clauses, map[string]any{MetaChanged: map[string]any{"$gt": f.ChangedSince}})
	}
	if c := inClause(MetaParserName, f.Parsers); c != nil {
		clauses = append(clauses, c)
	}
	var cf compiledFilter
	if len(f.PathPrefixes) > 0 && !contains(f.PathPrefixes, "") {
		var conds []map[string]any
		narrowable, exact := true, true
		seen := map[string]bool{}
		for _, p := range f.PathPrefixes {
			cond, ok := prefixCond(p)
			exact = exact && ok
			if cond == nil {
				narrowable = false
				continue
			}
			if k := condKey(cond); !seen[k] {
				seen[k] = true
				conds = append(conds, cond)
			}
		}
		if narrowable {
			clauses = append(clauses, orOf(conds))
		}
		if !exact {
			cf.prefixes = append([]string(nil), f.PathPrefixes...)
		}
	}
	cf.where = andOf(clauses)
	return cf
}

// prefixCond returns the server-side narrowing condition for one prefix and
// whether it is exact. nil means no narrowing is possible.
func prefixCond(p string) (map[string]any, bool) {
	dir, exact := p, true
	if strings.HasSuffix(p, "/") {
		dir = strings.TrimRight(p, "/")
	} else {
		i := strings.LastIndex(p, "/")
		if i <= 0 {
			return nil, false
		}
		dir, exact = p[:i], false
	}
	if dir == "" {
		return nil, false
	}
	depth := strings.Count(dir, "/") + 1
	if strings.Contains(dir, "//") || strings.HasPrefix(dir, "/") {
		// ancestors() never produces empty segments; only the client check
		// can tell.
		return nil, false
	}
	if depth > MaxDirDepth {
		anc := ancestors(dir + "/")
		dir, depth, exact = anc[MaxDirDepth-1], MaxDirDepth, false
	}
	return map[string]any{dirKey(depth): dir}, exact
}

func condKey(m map[string]any) string {
	for k, v := range m {
		s, _ := v.(string)
		return k + "\x00" + s
	}
	return ""
}

func inClause(key string, vals []string) map[string]any {
	vals = dedupe(vals)
	switch len(vals) {
	case 0:
		return nil
	case 1:
		return map[string]any{key: vals[0]}
	default:
		return map[string]any{key: map[string]any{"$in": vals}}
	}
}

func dedupe(vals []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range vals {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

// andOf / orOf avoid one-element $and/$or, which older servers reject.
func andOf(clauses []map[string]any) map[string]any {
	switch len(clauses) {
	case 0:
		return nil
	case 1:
		return clauses[0]
	default:
		return map[string]any{"$and": clauses}
	}
}

func orOf(clauses []map[string]any) map[string]any {
	if len(clauses) == 1 {
		return clauses[0]
	}
	return map[string]any{"$or": clauses}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
