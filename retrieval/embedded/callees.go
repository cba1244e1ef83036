package embedded

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/rlm-dev/rlm/retrieval"
)

// searchCallees answers a Callees request: the definitions the calls of
// the documents req.Name denotes (those whose Symbol or Qualified is
// req.Name, else those a scope-qualified req.Name denotes) lead to. A
// call resolved to a scope of the tree (Ref.Scope, Type) leads to the
// definitions of its name in that scope and type only
// (retrieval.MatchResolved); an unresolved call to every definition of
// its name (MatchName), except the calling documents themselves — a
// method's call of another value's method of the same name
// (h.ServeHTTP inside ServeMux.ServeHTTP) is no recursion the syntax
// shows; a call resolved outside the tree, or of a local function value,
// leads to no definition of the index. Hit.Match is the definition's best
// match; Score the number of call sites leading to it (ScoreCount);
// Lines is empty (the call sites are the callers' lines). Order: resolved
// before by name, then non-test first, more calls, shallower paths, path,
// line, id. The filter applies to the definitions returned.
func searchCallees(ctx context.Context, tx readTx, req retrieval.Request) ([]retrieval.Hit, error) {
	src, sargs := "d.symbol = ? OR d.qualified = ?", []any{req.Name, req.Name}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM docs d WHERE "+src, sargs...).Scan(&n); err != nil {
		return nil, err
	}
	if cond, cargs, ok := scopeQualified(req.Name); ok && n == 0 {
		src, sargs = cond, cargs
	}
	// The calls of the source documents: a document's refs are one rowid
	// range of refs (docs.refs_at, refs_n).
	rows, err := tx.QueryContext(ctx, "SELECT d.rid, k.name, k.via, k.scope, k.type FROM docs d"+
		" JOIN refs r ON r.rowid >= d.refs_at AND r.rowid < d.refs_at + d.refs_n"+
		" JOIN ref_names k ON k.id = r.nk WHERE k.kind = 'call' AND ("+src+")", sargs...)
	if err != nil {
		return nil, err
	}
	type call struct{ name, via, scope, typ string }
	var calls []call
	sources := map[int64]bool{}
	for rows.Next() {
		var rid int64
		var c call
		if err := rows.Scan(&rid, &c.name, &c.via, &c.scope, &c.typ); err != nil {
			rows.Close()
			return nil, err
		}
		sources[rid] = true
		calls = append(calls, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(calls) == 0 {
		return nil, nil
	}
	// The definitions of the called names, with their scope and type.
	var names []any
	seen := map[string]bool{}
	for _, c := range calls {
		if !seen[c.name] {
			seen[c.name] = true
			names = append(names, c.name)
		}
	}
	where, fargs := filterSQL(req.Filter)
	type def struct {
		edgeHit
		sym    string
		target callTarget
	}
	var defs []*def
	byName := map[string][]*def{}
	for chunk := range slices.Chunk(names, 500) {
		q := "SELECT d.rid, d.test, d.start_line, d.path, d.id, d.symbol, d.qualified, " + metaSQL + " FROM docs d" +
			" WHERE d.symbol IN (" + placeholders(len(chunk)) + ")" + where
		rows, err := tx.QueryContext(ctx, q, append(slices.Clone(chunk), fargs...)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var d def
			var qualified, meta string
			if err := rows.Scan(&d.rid, &d.test, &d.line, &d.path, &d.id, &d.sym, &qualified, &meta); err != nil {
				rows.Close()
				return nil, err
			}
			var md map[string]string
			if meta != "" {
				if err := json.Unmarshal([]byte(meta), &md); err != nil {
					rows.Close()
					return nil, err
				}
			}
			typ := ""
			if strings.HasSuffix(qualified, "."+d.sym) {
				typ = strings.TrimSuffix(qualified, "."+d.sym)
			}
			d.target = callTarget{md[retrieval.MetaScope], typ, d.sym}
			defs = append(defs, &d)
			byName[d.sym] = append(byName[d.sym], &d)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	for _, c := range calls {
		if c.via == "local" || strings.HasPrefix(c.scope, retrieval.ExternalScope) {
			continue
		}
		for _, d := range byName[c.name] {
			m := ""
			switch {
			case c.scope == "" && !sources[d.rid]:
				m = retrieval.MatchName
			case c.scope != "" && d.target == (callTarget{c.scope, c.typ, c.name}):
				m = retrieval.MatchResolved
			}
			if m == "" {
				continue
			}
			d.count++
			if d.match == "" || matchRank(m) < matchRank(d.match) {
				d.match = m
			}
		}
	}
	var found []*edgeHit
	for _, d := range defs {
		if d.count > 0 {
			found = append(found, &d.edgeHit)
		}
	}
	return edgeHits(ctx, tx, found, req.Limit)
}
