package embedded

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"

	"github.com/rlm-dev/rlm/retrieval"
)

// Ranked is one document of a lexical ranking: its ID and its BM25 score
// (retrieval.ScoreBM25: SQLite's bm25() with the sign flipped, positive,
// higher is better).
type Ranked struct {
	ID    string
	Score float64
}

// LexicalRanking answers a Lexical request as Search does — the same
// query terms, column weights (req.Emphasis), filter, order (score
// descending, then id) and limit — but returns only each hit's document
// ID and score, without reading the documents: for callers that hold the
// documents themselves, such as a prompt catalog's or an intent router's
// candidate index. req.Strategy must be retrieval.Lexical (or empty).
// Errors are Search's: retrieval.ErrBadRequest, retrieval.ErrTooLarge,
// a done ctx's error; text with no terms left gives no hits and no error.
func (b *Backend) LexicalRanking(ctx context.Context, req retrieval.Request) ([]Ranked, error) {
	if req.Strategy == "" {
		req.Strategy = retrieval.Lexical
	}
	if req.Strategy != retrieval.Lexical {
		return nil, fmt.Errorf("embedded: lexical ranking: %w: strategy %q", retrieval.ErrBadRequest, req.Strategy)
	}
	req, err := req.Normalize()
	if err != nil {
		return nil, fmt.Errorf("embedded: lexical ranking: %w", err)
	}
	if err := checkFilter(req.Filter); err != nil {
		return nil, fmt.Errorf("embedded: lexical ranking: %w", err)
	}
	if b.matchExpression(req.Text) == "" {
		return nil, ctx.Err()
	}
	var out []Ranked
	if err := b.read(ctx, func(tx readTx) (err error) {
		out, err = b.rank(ctx, tx, req)
		return err
	}); err != nil {
		return nil, fmt.Errorf("embedded: lexical ranking: %w", err)
	}
	return out, nil
}

func (b *Backend) rank(ctx context.Context, tx readTx, req retrieval.Request) ([]Ranked, error) {
	rows, err := b.rankRows(ctx, tx, req)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	out := make([]Ranked, len(rows))
	for i, r := range rows {
		out[i] = Ranked{ID: r.id, Score: r.score}
	}
	return out, nil
}

// rankedRow is one row of a lexical ranking: the document's row id, id
// and BM25 score.
type rankedRow struct {
	rid   int64
	id    string
	score float64
}

// rankRows runs the lexical ranking of req (lexicalRanking) in tx. A
// request without filter conditions is ranked in the full-text index
// alone (rankInText) and only its best rows are joined with docs; should
// that not settle the order, and for every filtered request, the ranking
// runs as lexicalRanking's one query.
func (b *Backend) rankRows(ctx context.Context, tx readTx, req retrieval.Request) ([]rankedRow, error) {
	if !filterActive(req.Filter) {
		rows, ok, err := b.rankInText(ctx, tx, req)
		if err != nil {
			return nil, err
		}
		if ok {
			b.rankedInText.Add(1)
			return rows, nil
		}
	}
	q, args := b.lexicalRanking(req)
	return scanRanked(tx.QueryContext(ctx, q, args...))
}

// rankPool is the number of rows rankInText takes from the full-text
// index for a ranking cut to limit: the limit plus room for the rows
// tied with its last. Joining a pool row costs one docs lookup; a tie
// past the pool's end costs another BM25 pass over every match
// (rankTied), so the room is generous: hybrid's depth of 50 takes 264.
func rankPool(limit int) int { return 4*limit + 64 }

// rankInText ranks the documents req.Text matches as lexicalRanking does
// for a request without filter conditions, but scores and sorts in the
// full-text index alone: lexicalRanking joins every match with its docs
// row to break ties by id, a B-tree search into the large docs table per
// match (≈ a third of a lexical query on GOROOT/src, where a query
// matches ≈ 20k documents). The best rankPool(limit) matches by score
// are joined and sorted by (score descending, id). That is the exact
// ranking when the pool holds every match, or when the limit-th row's
// score s is above the lowest score in the pool (every match outside the
// pool scores at most that, so it ranks below). Otherwise s ties with
// the pool's end: the rows scoring above s are all in the pool, and the
// rows scoring s are read whole from the index in a second pass, joined
// and cut by id (rankTied). A pool row without a docs row is skipped, as
// the join skips it; should that leave fewer rows than the limit in a
// full pool, ok is false and the caller ranks with lexicalRanking.
func (b *Backend) rankInText(ctx context.Context, tx readTx, req retrieval.Request) (rows []rankedRow, ok bool, err error) {
	pool := rankPool(req.Limit)
	score := bm25Score(req.Emphasis)
	match := b.matchExpression(req.Text)
	q := "SELECT m.rid, d.id, m.score FROM (SELECT fts.rowid AS rid, " + score + " AS score" +
		" FROM fts WHERE fts MATCH ? ORDER BY score DESC LIMIT ?) m LEFT JOIN docs d ON d.rid = m.rid"
	rs, err := tx.QueryContext(ctx, q, match, pool)
	if err != nil {
		return nil, false, err
	}
	defer rs.Close()
	n, lowest := 0, math.Inf(1)
	for rs.Next() {
		var r rankedRow
		var id sql.NullString
		if err := rs.Scan(&r.rid, &id, &r.score); err != nil {
			return nil, false, err
		}
		n++
		lowest = min(lowest, r.score)
		if id.Valid {
			r.id = id.String
			rows = append(rows, r)
		}
	}
	if err := rs.Err(); err != nil {
		return nil, false, err
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].score != rows[j].score {
			return rows[i].score > rows[j].score
		}
		return rows[i].id < rows[j].id
	})
	if n < pool {
		return rows[:min(len(rows), req.Limit)], true, nil
	}
	if len(rows) < req.Limit {
		return nil, false, nil
	}
	s := rows[req.Limit-1].score
	if s > lowest {
		return rows[:req.Limit], true, nil
	}
	above := 0
	for rows[above].score > s {
		above++
	}
	tied, err := rankTied(ctx, tx, score, match, s, req.Limit-above)
	if err != nil {
		return nil, false, err
	}
	return append(rows[:above:above], tied...), true, nil
}

// rankTied is the first n documents by id among those match finds with
// the score s (score is the expression, bm25Score): one more pass of BM25
// over every match, but only the tied ones are joined with docs.
func rankTied(ctx context.Context, tx readTx, score, match string, s float64, n int) ([]rankedRow, error) {
	q := "SELECT d.rid, d.id, " + score + " FROM fts JOIN docs d ON d.rid = fts.rowid" +
		" WHERE fts MATCH ? AND " + score + " = ? ORDER BY d.id LIMIT ?"
	return scanRanked(tx.QueryContext(ctx, q, match, s, n))
}

// scanRanked reads (rid, id, score) rows.
func scanRanked(rows *sql.Rows, err error) ([]rankedRow, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []rankedRow
	for rows.Next() {
		var r rankedRow
		if err := rows.Scan(&r.rid, &r.id, &r.score); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// OptimizeText merges the full-text index into one segment (FTS5's
// 'optimize' command, https://sqlite.org/fts5.html#the_optimize_command):
// for an index written once and searched many times, such as an
// in-memory candidate index, every later lexical search reads one
// segment per term instead of one per write. Rankings do not change.
func (b *Backend) OptimizeText(ctx context.Context) error {
	b.wmu.Lock()
	defer b.wmu.Unlock()
	if _, err := b.db.ExecContext(ctx, "INSERT INTO fts(fts) VALUES('optimize')"); err != nil {
		return fmt.Errorf("embedded: optimize text index: %w", err)
	}
	return nil
}
