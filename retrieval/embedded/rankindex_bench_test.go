package embedded

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// BenchmarkLexicalRankingOnAnIndex compares, on a search index built by
// `rlm index` (the file named by $RLM_BENCH_INDEX, e.g. of a copy of
// GOROOT/src), the lexical ranking of hybrid search's depth (50, no
// filter) by the one query joining every match with its document
// ("joined", lexicalRanking) and by the full-text index alone
// ("intext", rankRows), in one process. The queries are the first six
// words of every 1,000th document's doc comment (of 40+ bytes); before
// timing, every query's two rankings are compared and must be equal.
// Without $RLM_BENCH_INDEX there is no such index and it does not run.
//
//	RLM_BENCH_INDEX=/tmp/gosrc/.rlm/search-g1-....sqlite go test -run '^$' \
//	  -bench LexicalRankingOnAnIndex -count 3 ./retrieval/embedded
func BenchmarkLexicalRankingOnAnIndex(b *testing.B) {
	path := os.Getenv("RLM_BENCH_INDEX")
	if path == "" {
		b.Skip("RLM_BENCH_INDEX names no search index")
	}
	ctx := context.Background()
	be, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer be.Close()
	var reqs []retrieval.Request
	rows, err := be.db.QueryContext(ctx, "SELECT doc FROM docs WHERE length(doc) >= 40 AND rid % 1000 = 0 ORDER BY rid")
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var doc string
		if err := rows.Scan(&doc); err != nil {
			b.Fatal(err)
		}
		w := strings.Fields(doc)
		text := strings.Join(w[:min(6, len(w))], " ")
		if be.matchExpression(text) != "" {
			reqs = append(reqs, retrieval.Request{Strategy: retrieval.Lexical, Text: text, Limit: HybridMinDepth})
		}
	}
	if err := rows.Err(); err != nil || len(reqs) == 0 {
		b.Fatalf("%d queries, %v", len(reqs), err)
	}
	joined := func(tx readTx, req retrieval.Request) ([]rankedRow, error) {
		q, args := be.lexicalRanking(req)
		return scanRanked(tx.QueryContext(ctx, q, args...))
	}
	intext := func(tx readTx, req retrieval.Request) ([]rankedRow, error) { return be.rankRows(ctx, tx, req) }
	run := func(rank func(readTx, retrieval.Request) ([]rankedRow, error), req retrieval.Request) []rankedRow {
		var out []rankedRow
		if err := be.read(ctx, func(tx readTx) (err error) { out, err = rank(tx, req); return err }); err != nil {
			b.Fatal(err)
		}
		return out
	}
	for _, req := range reqs {
		if diff := cmp.Diff(run(joined, req), run(intext, req), cmp.AllowUnexported(rankedRow{})); diff != "" {
			b.Fatalf("%q: the rankings differ (-joined +intext):\n%s", req.Text, diff)
		}
	}
	b.Logf("%d queries", len(reqs))
	for _, m := range []struct {
		name string
		rank func(readTx, retrieval.Request) ([]rankedRow, error)
	}{{"joined", joined}, {"intext", intext}} {
		b.Run(m.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				run(m.rank, reqs[i%len(reqs)])
			}
		})
	}
}
