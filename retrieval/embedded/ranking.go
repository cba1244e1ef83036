package embedded

import (
	"context"
	"fmt"

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

// rankRows runs the lexical ranking of req (lexicalRanking) in tx.
func (b *Backend) rankRows(ctx context.Context, tx readTx, req retrieval.Request) ([]rankedRow, error) {
	q, args := b.lexicalRanking(req)
	rows, err := tx.QueryContext(ctx, q, args...)
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
