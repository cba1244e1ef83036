package embedded

import (
	"context"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/retrieval"
)

// BenchmarkHybridSearch measures one hybrid search (limit 10, so depth
// HybridMinDepth for each list) over 20,000 documents whose texts are
// ≈ 1 KB, as a source definition's are, with a word embedder.
func BenchmarkHybridSearch(b *testing.B) {
	ctx := context.Background()
	be, err := Open(ctx, "", WithEmbedder(newWords()))
	if err != nil {
		b.Fatal(err)
	}
	defer be.Close()
	docs := syntheticDocs(20000)
	for i := range docs {
		docs[i].Text = strings.Repeat(docs[i].Doc+" ", 12)
	}
	for i := 0; i < len(docs); i += 2000 {
		if err := be.Upsert(ctx, docs[i:i+2000]); err != nil {
			b.Fatal(err)
		}
	}
	queries := []string{"parse the request header", "flush stream buffer", "read config file", "write the response body"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		hits, err := be.Search(ctx, retrieval.Request{Strategy: retrieval.Hybrid, Text: queries[i%len(queries)], Limit: 10})
		if err != nil || len(hits) != 10 {
			b.Fatalf("%d hits, %v", len(hits), err)
		}
	}
}
