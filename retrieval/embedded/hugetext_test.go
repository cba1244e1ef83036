package embedded

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestADefinitionWithAHugeTextIsEmbeddedWithTheRest: a document whose
// text is over the local embedder's per-text cap (a generated function
// calling thousands of names) is embedded by the first
// MaxEmbeddingTextBytes of its text, never cut inside a UTF-8 sequence,
// like every other document: the upsert does not fail, and vector search
// finds it.
func TestADefinitionWithAHugeTextIsEmbeddedWithTheRest(t *testing.T) {
	ctx := context.Background()
	local, err := providers.NewLocalEmbedder(providers.LocalConfig{})
	if err != nil {
		t.Fatal(err)
	}
	// Runes of 2 bytes after an odd-length start: the cap falls inside one.
	huge := "rewriteValueAMD64 rewrites it:" + strings.Repeat(" rewriteValueAMD64 é", retrieval.MaxEmbeddingTextBytes/8)
	if utf8.RuneStart(huge[retrieval.MaxEmbeddingTextBytes]) {
		t.Fatal("the test text must put the cap inside a rune")
	}
	docs := append(corpus(), retrieval.Document{
		ID: "rewrite", Path: "ssa/rewriteAMD64.go", StartLine: 1, EndLine: 90000,
		Symbol: "rewriteValueAMD64", Qualified: "rewriteValueAMD64", Kind: "function", Language: "go", Text: huge,
	})
	if got := retrieval.EmbeddingText(docs[len(docs)-1]); len(got) > retrieval.MaxEmbeddingTextBytes || !utf8.ValidString(got) || !strings.HasPrefix(huge, got) {
		t.Fatalf("EmbeddingText of a %d-byte text: %d bytes, valid UTF-8 %v, a prefix %v; want a valid prefix of at most %d",
			len(huge), len(got), utf8.ValidString(got), strings.HasPrefix(huge, got), retrieval.MaxEmbeddingTextBytes)
	}
	b := openVec(t, "", WithEmbedder(local))
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatalf("Upsert with a %d-byte text: %v", len(huge), err)
	}
	if n := vecCount(t, b); n != len(docs) {
		t.Errorf("%d vectors for %d documents", n, len(docs))
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: "rewriteValueAMD64", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Document.ID != "rewrite" {
		t.Errorf("vector search for the huge definition's words: %v, want rewrite first", ids(hits))
	}
}
