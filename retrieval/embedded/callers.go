package embedded

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/rlm-dev/rlm/retrieval"
)

// callTarget is a definition a callers request names: its scope, its
// type in that scope ("" top-level) and its name.
type callTarget struct{ scope, typ, name string }

// searchCallers answers a Callers request: the documents holding calls of
// the definitions req.Name denotes (see Search), each call matched as
// resolved, external or by name (retrieval.Match*).
func searchCallers(ctx context.Context, tx readTx, req retrieval.Request) ([]retrieval.Hit, error) {
	qual, base := splitName(req.Name)
	targets, err := callTargets(ctx, tx, req.Name)
	if err != nil {
		return nil, err
	}
	where, fargs := filterSQL(req.Filter)
	q := "SELECT d.rid, d.test, d.path, d.start_line, d.id, r.line, k.via, k.scope, k.type" +
		" FROM ref_names k JOIN refs r ON r.nk = k.id JOIN docs d ON d.rid = r.doc_rid" +
		" WHERE k.name = ? AND k.kind = 'call'" + where
	rows, err := tx.QueryContext(ctx, q, append([]any{base}, fargs...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type caller = edgeHit
	byRid := map[int64]*caller{}
	var callers []*caller
	for rows.Next() {
		var c caller
		var line int
		var via, scope, typ string
		if err := rows.Scan(&c.rid, &c.test, &c.path, &c.line, &c.id, &line, &via, &scope, &typ); err != nil {
			return nil, err
		}
		m := matchCall(targets, qual, base, via, scope, typ)
		if m == "" || m == retrieval.MatchName && req.Resolved {
			continue
		}
		have := byRid[c.rid]
		if have == nil {
			have = &c
			byRid[c.rid] = have
			callers = append(callers, have)
		}
		have.count++
		have.lines = append(have.lines, line)
		if matchRank(m) < matchRank(have.match) || have.match == "" {
			have.match = m
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return edgeHits(ctx, tx, callers, req.Limit)
}

// edgeHit is a document a graph search found through edges: its row, how
// many edges lead to it, their lines and its best match.
type edgeHit struct {
	rid, test, line int64
	path, id        string
	count           int
	lines           []int
	match           string
}

// edgeHits ranks the documents the edges found — resolved and external
// matches before those by name; then as every graph result: non-test
// code first, more edges, shallower paths, path, line, id — keeps the
// first limit and reads them as hits (ScoreCount: the edges; Lines: their
// distinct lines, ascending).
func edgeHits(ctx context.Context, tx readTx, found []*edgeHit, limit int) ([]retrieval.Hit, error) {
	slices.SortFunc(found, func(a, b *edgeHit) int {
		return cmp.Or(cmp.Compare(matchRank(a.match), matchRank(b.match)), cmp.Compare(a.test, b.test),
			cmp.Compare(b.count, a.count), cmp.Compare(strings.Count(a.path, "/"), strings.Count(b.path, "/")),
			cmp.Compare(a.path, b.path), cmp.Compare(a.line, b.line), cmp.Compare(a.id, b.id))
	})
	if len(found) > limit {
		found = found[:limit]
	}
	if len(found) == 0 {
		return nil, nil
	}
	rids := make([]any, len(found))
	for i, c := range found {
		rids[i] = c.rid
	}
	list, err := readDocs(ctx, tx, false, "SELECT "+docColumns+" FROM docs d WHERE d.rid IN ("+placeholders(len(rids))+")", rids...)
	if err != nil {
		return nil, err
	}
	docs := make(map[string]retrieval.Document, len(list))
	for _, d := range list {
		docs[d.ID] = d
	}
	hits := make([]retrieval.Hit, 0, len(found))
	for _, c := range found {
		var lines []int
		if len(c.lines) > 0 {
			lines = slices.Clone(c.lines)
			slices.Sort(lines)
			lines = slices.Compact(lines)
		}
		hits = append(hits, retrieval.Hit{Document: docs[c.id], Score: float64(c.count), ScoreKind: retrieval.ScoreCount,
			Lines: lines, Match: c.match})
	}
	return hits, nil
}

// matchRank orders match kinds: resolved and external first, by name last.
func matchRank(m string) int {
	if m == retrieval.MatchName {
		return 1
	}
	return 0
}

// matchCall says how a call (its Ref.Via, Scope and Type) matches the
// targets, or "" if it does not: a call resolved to one of them is
// resolved, a call resolved elsewhere or to a local function value is
// none of theirs, an unresolved one matches by name. With no targets
// (the name is defined nowhere in the tree) a call resolved outside the
// tree is external, if its module ends with the name's qualifier; an
// unresolved call matches by name only a name without a qualifier.
func matchCall(targets map[callTarget]bool, qual, base, via, scope, typ string) string {
	if via == "local" {
		return ""
	}
	ext := strings.HasPrefix(scope, retrieval.ExternalScope)
	if len(targets) > 0 {
		switch {
		case scope == "":
			return retrieval.MatchName
		case !ext && targets[callTarget{scope, typ, base}]:
			return retrieval.MatchResolved
		}
		return ""
	}
	switch {
	case ext && (qual == "" || endsWithNames(strings.TrimPrefix(scope, retrieval.ExternalScope)+"."+typ, qual)):
		return retrieval.MatchExternal
	case scope == "" && qual == "":
		return retrieval.MatchName
	}
	return ""
}

// endsWithNames reports whether the names of qual ("json",
// "encoding/json", "os.path") are the last names of module ("/", ".",
// "::" separate names; empty names are ignored).
func endsWithNames(module, qual string) bool {
	have, want := names(module), names(qual)
	if len(want) == 0 || len(want) > len(have) {
		return false
	}
	return slices.Equal(have[len(have)-len(want):], want)
}

func names(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '.' || r == ':' })
}

// splitName splits "Q.N" at its last dot; a name without one has no
// qualifier.
func splitName(name string) (qual, base string) {
	if i := strings.LastIndexByte(name, '.'); i > 0 && i+1 < len(name) {
		return name[:i], name[i+1:]
	}
	return "", name
}

// callTargets are the definitions name denotes, by the first rule that
// finds any: definitions whose qualified name is name ("Server.Serve",
// or a top-level "Serve"); else whose name is name ("Serve": every
// method so named); else, for "Q.N" and "Q.T.N", those of a scope named
// Q (scopeQualified: "json.Unmarshal").
func callTargets(ctx context.Context, tx readTx, name string) (map[callTarget]bool, error) {
	out := map[callTarget]bool{}
	add := func(cond string, args ...any) error {
		rows, err := tx.QueryContext(ctx, "SELECT d.symbol, d.qualified, "+metaSQL+" FROM docs d WHERE "+cond, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var sym, qualified, meta string
			if err := rows.Scan(&sym, &qualified, &meta); err != nil {
				return err
			}
			var md map[string]string
			if meta != "" {
				if err := json.Unmarshal([]byte(meta), &md); err != nil {
					return err
				}
			}
			typ := ""
			if strings.HasSuffix(qualified, "."+sym) {
				typ = strings.TrimSuffix(qualified, "."+sym)
			}
			out[callTarget{md[retrieval.MetaScope], typ, sym}] = true
		}
		return rows.Err()
	}
	if err := add("d.qualified = ?", name); err != nil || len(out) > 0 {
		return out, err
	}
	if err := add("d.symbol = ?", name); err != nil || len(out) > 0 {
		return out, err
	}
	if cond, args, ok := scopeQualified(name); ok {
		return out, add(cond, args...)
	}
	return out, nil
}

// scopeQualified is the condition on docs d for the definitions a name
// qualified by its scope denotes: for "Q.N" the top-level definitions N,
// for "Q.T.N" the methods T.N, of a scope named Q
// (Metadata[retrieval.MetaModule]: a Go package's name, a module's last
// name). false for a name without a qualifier.
func scopeQualified(name string) (string, []any, bool) {
	qual, base := splitName(name)
	if qual == "" {
		return "", nil, false
	}
	const one = "(d.symbol = ? AND d.qualified = ? AND json_extract(nullif(" + metaSQL + ", ''), '$." + retrieval.MetaModule + "') = ?)"
	cond, args := one, []any{base, base, qual}
	if pkg, typ := splitName(qual); pkg != "" {
		cond += " OR " + one
		args = append(args, base, typ+"."+base, pkg)
	}
	return "(" + cond + ")", args, true
}
