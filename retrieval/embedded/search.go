package embedded

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hbollon/go-edlib"
	"github.com/rlm-dev/rlm/retrieval"
)

// primaryKinds rank before every other kind (fields, variables, constants,
// ...) in exact results.
var primaryKinds = []string{"function", "method", "type", "interface", "struct", "class", "constructor", "trait", "enum"}

// kindClassSQL is 0 for primaryKinds and 1 otherwise. The kinds are
// constants of this package, never user data.
var kindClassSQL = func() string {
	quoted := make([]string, len(primaryKinds))
	for i, k := range primaryKinds {
		quoted[i] = "'" + k + "'"
	}
	return "CASE WHEN d.kind IN (" + strings.Join(quoted, ", ") + ") THEN 0 ELSE 1 END"
}()

// Search answers req with hits ranked best first, Rank 1..n, at most
// req.Limit of them (retrieval.DefaultLimit when 0). Every strategy applies
// req.Filter in SQL to the documents it returns (for Callees, the defining
// documents, not the caller). PathPrefixes are byte-wise string prefixes
// ("net/http" also matches "net/httptest/..."; add a trailing slash for a
// directory); an empty prefix matches every path. The strategies:
//
//   - Exact: documents whose Symbol or Qualified ("Recv.Name") equals
//     req.Name, case-sensitively, with ScoreExact 1.0; when none does and
//     req.Name is "Q.N" or "Q.T.N", the top-level N or the methods T.N
//     of a scope named Q (Metadata[retrieval.MetaModule]: a Go package's
//     name, a module's last name; "json.Unmarshal"), also ScoreExact
//     1.0. Only when none matches and req.CaseInsensitive (or req.Near)
//     is set, the first comparison after lower-casing both sides, with
//     ScoreExact 0.5; only when that matches none either and req.Near is
//     set, the definitions of the nearest names (searchNear). Order: non-test before
//     test documents, functions/methods/types before other kinds, then path,
//     start line and id.
//   - Lexical: BM25 over the FTS5 index, with the name column weighted
//     most. req.Text is tokenized in Go (see QueryTerms); each term is
//     quoted as an FTS5 string and the terms are ORed, so no user text is
//     ever read as FTS5 or SQL syntax. Text with no terms left gives no hits
//     and no error. Score is ScoreBM25: SQLite's bm25() with the sign
//     flipped, so it is positive and higher is better. Ties break by id.
//   - Graph: req.Relation Callers gives the documents holding calls of
//     the definitions req.Name denotes: those whose Qualified is req.Name
//     ("Server.Serve", a top-level "Serve"), else whose Symbol is
//     ("Serve": every method so named), else for "Q.N" the top-level N of
//     a scope named Q (Metadata[retrieval.MetaModule]: "json.Unmarshal")
//     and for "Q.T.N" the methods T.N of one. A call resolved (Ref.Scope)
//     to one of them matches as retrieval.MatchResolved, an unresolved
//     one by name (MatchName); a call resolved to anything else, or of a
//     local function value, does not match. When the tree defines no
//     such name, calls resolved outside the tree whose module ends with
//     the name's qualifier match as MatchExternal ("strings.HasPrefix",
//     "Sprintf"), and for an unqualified name unresolved calls by name.
//     Hit.Match is the document's best match; req.Resolved drops the
//     matches by name. References gives the
//     documents holding a ref of any kind to req.Name (a qualified name
//     also matches refs to its last segment), by name. Score is the
//     number of matching refs (ScoreCount, higher is better) and Lines
//     their distinct lines, ascending. Callees
//     gives, for the documents whose Symbol or Qualified equals req.Name
//     (else those a scope-qualified req.Name denotes, as for Exact), the
//     definitions their calls lead to (searchCallees): a call resolved in
//     the tree to the definitions of its name in that scope and type
//     (MatchResolved), an unresolved one to every definition of its name
//     but the callers themselves (MatchName); Score is the number of call
//     sites (ScoreCount), Lines is empty. Order: resolved and external
//     matches before matches by name, then non-test first, score
//     descending, shallower paths, path, start line, id.
//   - Structural: a filter-only listing — documents passing req.Filter and,
//     if req.Name is set, whose Symbol or Qualified starts with req.Name —
//     ordered by path, start line and id, each with ScoreExact 1.0.
//   - Vector (needs WithEmbedder): req.Text is embedded and the stored
//     vectors of the embedder's (model, dimensions) passing req.Filter are
//     ranked by cosine similarity, exact up to 2^22 floats, above from
//     quantised candidates re-ranked exactly (see QueryVector): ScoreKind
//     retrieval.ScoreCosineSimilarity, Score in [-1, 1], higher is better,
//     ties by id. Documents stored without a vector are never vector hits.
//   - Hybrid (needs WithEmbedder): reciprocal rank fusion
//     (retrieval.FuseRRF, k = retrieval.DefaultRRFK) of the lexical and the
//     vector results for req.Text, each fetched to a depth of
//     max(3 × limit, HybridMinDepth) hits (at most retrieval.MaxLimit) with
//     req.Filter, keyed by document id, cut to req.Limit. Hits have
//     ScoreKind retrieval.ScoreRank (the fused score, higher is better) and
//     Strategy retrieval.Hybrid. Text with no lexical terms fuses the vector
//     list alone.
//
// Vector and hybrid search embed req.Text before reading the database;
// empty or blank Text fails with retrieval.ErrBadRequest (the embedder is
// not called).
//
// Errors: an invalid request wraps retrieval.ErrBadRequest, an oversized
// one (query over retrieval.MaxQueryBytes, a filter list over
// MaxFilterValues) retrieval.ErrTooLarge, and Vector or Hybrid without an
// embedder retrieval.ErrUnsupported; an embedder failure is returned
// wrapped; a done ctx gives its error.
func (b *Backend) Search(ctx context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	req, err := req.Normalize()
	if err != nil {
		return nil, fmt.Errorf("embedded: search: %w", err)
	}
	if err := checkFilter(req.Filter); err != nil {
		return nil, fmt.Errorf("embedded: search: %w", err)
	}
	var run func(context.Context, readTx, retrieval.Request) ([]retrieval.Hit, error)
	switch req.Strategy {
	case retrieval.Exact:
		run = searchExact
	case retrieval.Lexical:
		if b.matchExpression(req.Text) == "" {
			return nil, ctx.Err()
		}
		run = b.searchLexical
	case retrieval.Graph:
		run = searchGraph
	case retrieval.Structural:
		run = searchStructural
	case retrieval.Vector, retrieval.Hybrid:
		if b.opts.embedder == nil {
			return nil, fmt.Errorf("embedded: search: %w: %q needs an embedder (WithEmbedder)", retrieval.ErrUnsupported, req.Strategy)
		}
		q, err := b.embedQuery(ctx, req.Text)
		if err != nil {
			return nil, fmt.Errorf("embedded: search %s: %w", req.Strategy, err)
		}
		if req.Strategy == retrieval.Vector {
			run = func(ctx context.Context, tx readTx, req retrieval.Request) ([]retrieval.Hit, error) {
				return b.searchVector(ctx, tx, q, req.Limit, req.Filter)
			}
		} else {
			run = func(ctx context.Context, tx readTx, req retrieval.Request) ([]retrieval.Hit, error) {
				return b.searchHybrid(ctx, tx, req, q)
			}
		}
	default:
		return nil, fmt.Errorf("embedded: search: %w: %q", retrieval.ErrUnsupported, req.Strategy)
	}
	var hits []retrieval.Hit
	if err := b.read(ctx, func(tx readTx) (err error) {
		hits, err = run(ctx, tx, req)
		return err
	}); err != nil {
		return nil, fmt.Errorf("embedded: search %s: %w", req.Strategy, err)
	}
	for i := range hits {
		hits[i].Strategy = req.Strategy
		hits[i].Rank = i + 1
	}
	return hits, nil
}

// checkFilter bounds the lists of f by MaxFilterValues (retrieval.ErrTooLarge)
// and refuses a negative ChangedSince (retrieval.ErrBadRequest).
func checkFilter(f retrieval.Filter) error {
	if f.ChangedSince < 0 {
		return fmt.Errorf("%w: filter ChangedSince %d is negative", retrieval.ErrBadRequest, f.ChangedSince)
	}
	for _, l := range [][]string{f.PathPrefixes, f.Kinds, f.Languages, f.Parsers, f.Roles, f.ExcludeRoles} {
		if len(l) > MaxFilterValues {
			return fmt.Errorf("%w: filter list of %d values, limit %d", retrieval.ErrTooLarge, len(l), MaxFilterValues)
		}
	}
	return nil
}

// filterSQL returns " AND ..." conditions on the docs alias d for f, with
// their arguments; "" when f filters nothing.
func filterSQL(f retrieval.Filter) (string, []any) {
	var conds []string
	var args []any
	if len(f.PathPrefixes) > 0 {
		var ors []string
		all := false
		for _, p := range f.PathPrefixes {
			if p == "" {
				all = true
				break
			}
			// Byte-wise prefix comparison: exact for any bytes, no LIKE or
			// GLOB metacharacters to escape.
			ors = append(ors, "substr(CAST(d.path AS BLOB), 1, ?) = CAST(? AS BLOB)")
			args = append(args, len(p), p)
		}
		if all {
			args = args[:0]
		} else {
			conds = append(conds, "("+strings.Join(ors, " OR ")+")")
		}
	}
	in := func(col string, vals []string) {
		if len(vals) == 0 {
			return
		}
		conds = append(conds, col+" IN ("+placeholders(len(vals))+")")
		for _, v := range vals {
			args = append(args, v)
		}
	}
	in("d.kind", f.Kinds)
	in("d.language", f.Languages)
	if f.ExcludeTests {
		conds = append(conds, "d.test = 0")
	}
	if f.OnlyTests {
		conds = append(conds, "d.test = 1")
	}
	in(roleSQL, f.Roles)
	if len(f.ExcludeRoles) > 0 {
		conds = append(conds, roleSQL+" NOT IN ("+placeholders(len(f.ExcludeRoles))+")")
		for _, r := range f.ExcludeRoles {
			args = append(args, r)
		}
	}
	if f.ChangedSince > 0 {
		conds = append(conds, "d.changed > ?")
		args = append(args, f.ChangedSince)
	}
	if len(f.Parsers) > 0 {
		// The name before the first "/" (retrieval.ParserName), compared
		// byte-wise.
		conds = append(conds, "(SELECT CASE WHEN instr(v, '/') > 0 THEN substr(v, 1, instr(v, '/') - 1) ELSE v END FROM vals WHERE id = d.parser_v) IN ("+placeholders(len(f.Parsers))+")")
		for _, p := range f.Parsers {
			args = append(args, p)
		}
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " AND " + strings.Join(conds, " AND "), args
}

// queryHits runs q and turns each row (docColumns, then a float score and
// an optional comma-separated line list when withLines) into a hit.
func queryHits(ctx context.Context, tx readTx, kind retrieval.ScoreKind, withLines bool, q string, args ...any) ([]retrieval.Hit, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []retrieval.Hit
	for rows.Next() {
		var score float64
		var lines sql.NullString
		extra := []any{&score}
		if withLines {
			extra = append(extra, &lines)
		}
		d, _, err := scanDocument(rows, extra...)
		if err != nil {
			return nil, err
		}
		h := retrieval.Hit{Document: d, Score: score, ScoreKind: kind}
		if lines.Valid && lines.String != "" {
			h.Lines = parseLines(lines.String)
		}
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// parseLines parses "3,3,7" into distinct ascending lines.
func parseLines(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			continue
		}
		out = append(out, n)
	}
	sort.Ints(out)
	j := 0
	for i, n := range out {
		if i == 0 || n != out[j-1] {
			out[j] = n
			j++
		}
	}
	return out[:j]
}

// prologIndicator also matches a Prolog predicate by its name alone: the
// symbol "classify/3" for the name "classify" (a name without a '/'; the
// arity's digits sort between '/' and ':'). Arguments: the name three
// times.
const prologIndicator = " OR (instr(?, '/') = 0 AND d.language = 'prolog' AND d.symbol > ? || '/' AND d.symbol < ? || '/:')"

// roleSQL is a document's retrieval.RoleOf: its role, else test or
// source by its test flag.
const roleSQL = "(CASE WHEN d.role <> '' THEN d.role WHEN d.test <> 0 THEN 'test' ELSE 'source' END)"

// pathDepthSQL is the number of slashes in a document's path.
const pathDepthSQL = "(length(d.path) - length(replace(d.path, '/', '')))"

func searchExact(ctx context.Context, tx readTx, req retrieval.Request) ([]retrieval.Hit, error) {
	where, fargs := filterSQL(req.Filter)
	// Non-test first, definitions before members, then shallower paths (a
	// package's own files before its subpackages'), then path and line.
	order := " ORDER BY d.test, " + kindClassSQL + ", " + pathDepthSQL + ", d.path, d.start_line, d.id LIMIT ?"
	q := "SELECT " + docColumns + ", 1.0 FROM docs d WHERE (d.symbol = ? OR d.qualified = ?" + prologIndicator + ")" + where + order
	args := append(append([]any{req.Name, req.Name, req.Name, req.Name, req.Name}, fargs...), req.Limit)
	hits, err := queryHits(ctx, tx, retrieval.ScoreExact, false, q, args...)
	if err != nil || len(hits) > 0 {
		return hits, err
	}
	if cond, cargs, ok := scopeQualified(req.Name); ok {
		q = "SELECT " + docColumns + ", 1.0 FROM docs d WHERE " + cond + where + order
		if hits, err = queryHits(ctx, tx, retrieval.ScoreExact, false, q, append(append(cargs, fargs...), req.Limit)...); err != nil || len(hits) > 0 {
			return hits, err
		}
	}
	if !req.CaseInsensitive && !req.Near {
		return nil, nil
	}
	fold := strings.ToLower(req.Name)
	q = "SELECT " + docColumns + ", 0.5 FROM docs d WHERE (coalesce(d.symbol_fold, lower(d.symbol)) = ? OR coalesce(d.qualified_fold, lower(d.qualified)) = ?)" + where + order
	args = append(append([]any{fold, fold}, fargs...), req.Limit)
	if hits, err = queryHits(ctx, tx, retrieval.ScoreExact, false, q, args...); err != nil || len(hits) > 0 || !req.Near {
		return hits, err
	}
	return searchNear(ctx, tx, req, where, fargs, order)
}

// searchNear is exact's last fallback (retrieval.Request.Near): the
// definitions of the names nearest to req.Name within
// retrieval.NearEdits(req.Name) edits (the optimal string alignment
// distance, go-edlib's, without case; among names equally near, those
// nearest with case), with
// ScoreExact 0.25 divided by the distance. A name with a dot
// is compared with the qualified names ("Server.Serv"), any other with
// the names; the filter applies to the definitions the names are taken
// from. No near name within the bound: no hits.
func searchNear(ctx context.Context, tx readTx, req retrieval.Request, where string, fargs []any, order string) ([]retrieval.Hit, error) {
	bound := retrieval.NearEdits(req.Name)
	if bound == 0 {
		return nil, nil
	}
	col := "d.symbol"
	if strings.Contains(req.Name, ".") {
		col = "d.qualified"
	}
	rows, err := tx.QueryContext(ctx, "SELECT DISTINCT "+col+" FROM docs d WHERE 1"+where, fargs...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	want := strings.ToLower(req.Name)
	n := utf8.RuneCountInString(want)
	// Nearest without case first, then with case: "NewRequst" is nearer
	// NewRequest than newRequest.
	best, bestCase, names := bound+1, 0, []any(nil)
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		if m := utf8.RuneCountInString(name); m < n-bound || m > n+bound {
			continue
		}
		d := edlib.OSADamerauLevenshteinDistance(want, strings.ToLower(name))
		if d > best {
			continue
		}
		dc := edlib.OSADamerauLevenshteinDistance(req.Name, name)
		switch {
		case d < best || dc < bestCase:
			best, bestCase, names = d, dc, []any{name}
		case dc == bestCase:
			names = append(names, name)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(names) == 0 || best == 0 {
		return nil, nil
	}
	score := strconv.FormatFloat(0.25/float64(best), 'g', -1, 64)
	q := "SELECT " + docColumns + ", " + score + " FROM docs d WHERE " + col + " IN (" + placeholders(len(names)) + ")" + where + order
	return queryHits(ctx, tx, retrieval.ScoreExact, false, q, append(append(names, fargs...), req.Limit)...)
}

func (b *Backend) searchLexical(ctx context.Context, tx readTx, req retrieval.Request) ([]retrieval.Hit, error) {
	// The ranking carries only rid, id and score (rankRows); then the full
	// rows of the survivors are read.
	rows, err := b.rankRows(ctx, tx, req)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return hitsByRID(ctx, tx, len(rows), func(i int) (int64, string, float64) {
		return rows[i].rid, rows[i].id, rows[i].score
	}, retrieval.ScoreBM25, "search index")
}

// lexicalRanking is the query (and its arguments) ranking the documents
// req.Text matches by BM25, best first, ties by id, cut to req.Limit:
// rows of (rid, id, score).
func (b *Backend) lexicalRanking(req retrieval.Request) (string, []any) {
	where, fargs := filterSQL(req.Filter)
	q := "SELECT d.rid AS rid, d.id AS id, " + bm25Score(req.Emphasis) + " AS score" +
		" FROM fts JOIN docs d ON d.rid = fts.rowid WHERE fts MATCH ?" + where +
		" ORDER BY score DESC, d.id LIMIT ?"
	return q, append(append([]any{b.matchExpression(req.Text)}, fargs...), req.Limit)
}

func searchGraph(ctx context.Context, tx readTx, req retrieval.Request) ([]retrieval.Hit, error) {
	where, fargs := filterSQL(req.Filter)
	// Graph hits: non-test code first, then by the number of matching
	// edges, then shallower paths.
	const order = " ORDER BY d.test, score DESC, " + pathDepthSQL + ", d.path, d.start_line, d.id LIMIT ?"
	switch req.Relation {
	case retrieval.Callers:
		return searchCallers(ctx, tx, req)
	case retrieval.References:
		names := []any{req.Name}
		if i := strings.LastIndexByte(req.Name, '.'); i >= 0 && i+1 < len(req.Name) {
			names = append(names, req.Name[i+1:])
		}
		q := "SELECT " + docColumns + ", COUNT(*) AS score, group_concat(r.line, ',')" +
			" FROM refs r JOIN docs d ON d.rid = r.doc_rid" +
			" WHERE r.nk IN (SELECT id FROM ref_names WHERE name IN (" + placeholders(len(names)) + "))" + where +
			" GROUP BY d.rid" + order
		args := append(append(names, fargs...), req.Limit)
		hits, err := queryHits(ctx, tx, retrieval.ScoreCount, true, q, args...)
		for i := range hits {
			hits[i].Match = retrieval.MatchName
		}
		return hits, err
	case retrieval.Callees:
		return searchCallees(ctx, tx, req)
	}
	return nil, fmt.Errorf("%w: unknown relation %q", retrieval.ErrBadRequest, req.Relation)
}

func searchStructural(ctx context.Context, tx readTx, req retrieval.Request) ([]retrieval.Hit, error) {
	where, fargs := filterSQL(req.Filter)
	var args []any
	nameCond := ""
	if req.Name != "" {
		nameCond = " AND (substr(CAST(d.symbol AS BLOB), 1, ?) = CAST(? AS BLOB)" +
			" OR substr(CAST(d.qualified AS BLOB), 1, ?) = CAST(? AS BLOB))"
		args = append(args, len(req.Name), req.Name, len(req.Name), req.Name)
	}
	q := "SELECT " + docColumns + ", 1.0 FROM docs d WHERE 1" + nameCond + where +
		" ORDER BY d.path, d.start_line, d.id LIMIT ?"
	args = append(append(args, fargs...), req.Limit)
	return queryHits(ctx, tx, retrieval.ScoreExact, false, q, args...)
}
