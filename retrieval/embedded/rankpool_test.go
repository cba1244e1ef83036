package embedded

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// tiedDocs are documents in groups of equal text, so that every member of
// a group has the same BM25 score for any query: group g holds sizes[g]
// documents whose doc comment is word repeated g+1 times (more repeats
// score higher). IDs descend as rows are written, so the order of the text
// index (row id) is the reverse of the tie order (id).
func tiedDocs(word string, sizes []int) []retrieval.Document {
	var docs []retrieval.Document
	n := 0
	for _, size := range sizes {
		n += size
	}
	for g, size := range sizes {
		for i := 0; i < size; i++ {
			docs = append(docs, retrieval.Document{
				ID:   fmt.Sprintf("%s-%05d", word, n-len(docs)),
				Path: "tie/tie.go", StartLine: len(docs) + 1, EndLine: len(docs) + 1,
				Symbol: fmt.Sprintf("g%d", g), Kind: "function", Language: "go",
				Doc: strings.Repeat(word+" ", g+1) + "filler",
			})
		}
	}
	return docs
}

// joinedRanking is the ranking of lexicalRanking's one query, which joins
// every match with its document: the reference of rankInText.
func joinedRanking(t *testing.T, b *Backend, req retrieval.Request) []Ranked {
	t.Helper()
	req, err := req.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	q, args := b.lexicalRanking(req)
	rows, err := scanRanked(b.db.QueryContext(context.Background(), q, args...))
	if err != nil {
		t.Fatal(err)
	}
	var out []Ranked
	for _, r := range rows {
		out = append(out, Ranked{ID: r.id, Score: r.score})
	}
	return out
}

// TestRankingInTheTextIndexIsTheJoinedRanking: an unfiltered lexical
// ranking scored and cut in the full-text index alone (rankInText), as
// LexicalRanking and Search give it, is exactly the ranking of the one
// query that joins every match with its document: the same ids, scores
// and order, ties broken by id across the limit — within the pool, and
// past its end, where the tie is read whole (rankTied) — with pools
// holding every match and with the doc emphasis; and it settles every
// such ranking itself.
func TestRankingInTheTextIndexIsTheJoinedRanking(t *testing.T) {
	ctx := context.Background()
	b := openMem(t)
	var docs []retrieval.Document
	docs = append(docs, tiedDocs("few", []int{3, 2})...)            // fewer matches than any pool
	docs = append(docs, tiedDocs("spread", []int{300, 200, 10})...) // best 10, then a tie of 200, then 300 below
	docs = append(docs, tiedDocs("flat", []int{200})...)            // one tie of 200
	for i := 0; i < len(docs); i += 100 {
		if err := b.Upsert(ctx, docs[i:min(i+100, len(docs))]); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		text     string
		limit    int
		inText   bool // settled by rankInText
		emphasis retrieval.Emphasis
	}{
		{"spread", 30, true, retrieval.EmphasisDoc}, // the doc column weighed more
		{"few", 3, true, ""},                        // all 5 in the pool
		{"few", 50, true, ""},                       // all 5 in the pool
		{"spread", 5, true, ""},                     // pool 84 ends in the tie, below the limit's score
		{"spread", 10, true, ""},                    // limit at the end of the best 10; pool 104 ends in the tie
		{"spread", 12, true, ""},                    // 10 above the limit's score, its tie past the pool of 112: read whole
		{"spread", 30, true, ""},                    // limit inside the tie, past the pool of 184: read whole
		{"spread", 50, true, ""},                    // limit inside the tie; pool 264 ends in the 300 below
		{"flat", 5, true, ""},                       // pool 84 inside the tie of 200: read whole
		{"flat", 20, true, ""},                      // pool 144 inside the tie of 200: read whole
		{"flat", 50, true, ""},                      // pool 264 holds every match
	} {
		req := retrieval.Request{Strategy: retrieval.Lexical, Text: tc.text, Limit: tc.limit, Emphasis: tc.emphasis}
		want := joinedRanking(t, b, req)
		if len(want) == 0 {
			t.Fatalf("%q: the joined query has no hits", tc.text)
		}
		before := b.rankedInText.Load()
		got, err := b.LexicalRanking(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q limit %d: LexicalRanking differs from the joined query (-joined +ranking):\n%s", tc.text, tc.limit, diff)
		}
		if diff := cmp.Diff(want, rankingOf(t, b, req)); diff != "" {
			t.Errorf("%q limit %d: Search differs from the joined query (-joined +search):\n%s", tc.text, tc.limit, diff)
		}
		if inText := b.rankedInText.Load() > before; inText != tc.inText {
			t.Errorf("%q limit %d: settled in the text index %v, want %v", tc.text, tc.limit, inText, tc.inText)
		}
	}
}
