package chroma

import (
	"context"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestUpsertStoresTheEmbeddedTextAsTheDocument: a document without Text
// is stored with the text that was embedded as its Chroma document (so
// other Chroma clients see what each vector stands for), marked derived,
// and read back with an empty Text; a document with Text keeps its own,
// and UpsertVectors (nothing embedded) derives nothing.
func TestUpsertStoresTheEmbeddedTextAsTheDocument(t *testing.T) {
	f := newFake(t)
	b := f.open(t, nil)
	noText := retrieval.Document{ID: "a", Path: "x/a.go", Symbol: "Serve", Qualified: "Server.Serve", Doc: "Serve serves."}
	withText := retrieval.Document{ID: "b", Path: "x/b.go", Symbol: "B", Text: "own text"}
	if err := b.Upsert(context.Background(), []retrieval.Document{noText, withText}); err != nil {
		t.Fatal(err)
	}
	up := f.bodies("POST upsert")[0]
	docs, metas := up["documents"].([]any), up["metadatas"].([]any)
	if docs[0] != EmbeddingText(noText) || docs[0] == "" || metas[0].(map[string]any)[MetaDerivedText] != true {
		t.Errorf("record a: document %q, metadata %v; want the embedded text, marked derived", docs[0], metas[0])
	}
	if docs[1] != "own text" || metas[1].(map[string]any)[MetaDerivedText] != nil {
		t.Errorf("record b: document %q, metadata %v; want its own text, not marked", docs[1], metas[1])
	}
	text := EmbeddingText(noText)
	back, err := fromRecord("a", &text, map[string]any{MetaPath: "x/a.go", MetaDerivedText: true})
	if err != nil || back.Text != "" {
		t.Errorf("read back: Text %q, %v; want empty", back.Text, err)
	}
	if err := b.UpsertVectors(context.Background(), []retrieval.Document{noText}, [][]float32{testfixture.WordVector("a", 8)}); err != nil {
		t.Fatal(err)
	}
	up = f.bodies("POST upsert")[1]
	if d := up["documents"].([]any)[0]; d != nil {
		t.Errorf("UpsertVectors stored document %q for a document without text", d)
	}
}
