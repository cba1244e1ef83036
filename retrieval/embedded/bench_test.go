package embedded

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/rlm-dev/rlm/retrieval"
)

var (
	verbs = []string{"serve", "read", "write", "parse", "handle", "open", "close", "new", "get", "set",
		"find", "load", "store", "encode", "decode", "flush", "reset", "build", "check", "resolve"}
	nouns = []string{"HTTP", "Request", "Response", "Header", "Body", "Conn", "Buffer", "File", "Token", "Node",
		"Tree", "Query", "Index", "Cache", "Config", "Server", "Client", "Stream", "Frame", "Path"}
	pkgs = []string{"net/http", "net/textproto", "io", "bufio", "encoding/json", "go/parser", "os", "sync",
		"database/sql", "crypto/tls"}
)

// syntheticDocs returns n Go-like documents with camelCase names, doc
// comments, signatures, paths and a few call refs each.
func syntheticDocs(n int) []retrieval.Document {
	docs := make([]retrieval.Document, n)
	for i := range docs {
		v := verbs[i%len(verbs)]
		n1 := nouns[(i/len(verbs))%len(nouns)]
		n2 := nouns[(i/(len(verbs)*len(nouns)))%len(nouns)]
		name := fmt.Sprintf("%s%s%s%d", v, n1, n2, i)
		pkg := pkgs[i%len(pkgs)]
		path := fmt.Sprintf("%s/file%d.go", pkg, i%97)
		docs[i] = retrieval.Document{
			ID:        retrieval.DocumentID(path, name, i),
			Path:      path,
			StartLine: i%500 + 1,
			EndLine:   i%500 + 20,
			Symbol:    name,
			Qualified: name,
			Kind:      "function",
			Language:  "go",
			Signature: fmt.Sprintf("func %s(ctx context.Context, %s *%s) (%s, error)", name, "x", n1, n2),
			Doc:       fmt.Sprintf("%s %ss the %s of a %s and returns the %s it finds, or an error.", name, v, n1, n2, n2),
			Test:      i%10 == 0,
			Refs: []retrieval.Ref{
				{Name: verbs[(i+1)%len(verbs)] + n1, Kind: "call", Line: i%500 + 3},
				{Name: n2, Kind: "type", Line: i%500 + 1},
			},
		}
	}
	return docs
}

var bench struct {
	once sync.Once
	b    *Backend
	err  error
}

func benchBackend(tb testing.TB) *Backend {
	bench.once.Do(func() {
		ctx := context.Background()
		b, err := Open(ctx, "")
		if err != nil {
			bench.err = err
			return
		}
		docs := syntheticDocs(20000)
		for i := 0; i < len(docs); i += 1000 {
			if err := b.Upsert(ctx, docs[i:i+1000]); err != nil {
				bench.err = err
				return
			}
		}
		bench.b = b
	})
	if bench.err != nil {
		tb.Fatal(bench.err)
	}
	return bench.b
}

// BenchmarkLexicalSearch measures one BM25 search (limit 10) over 20,000
// documents, cycling through a few natural-language and identifier queries.
func BenchmarkLexicalSearch(b *testing.B) {
	be := benchBackend(b)
	ctx := context.Background()
	queries := []retrieval.Request{
		{Strategy: retrieval.Lexical, Text: "where is ServeHTTP defined"},
		{Strategy: retrieval.Lexical, Text: "parse request header"},
		{Strategy: retrieval.Lexical, Text: "how does the client flush the stream buffer"},
		{Strategy: retrieval.Lexical, Text: "resolveQueryIndex", Filter: retrieval.Filter{ExcludeTests: true, PathPrefixes: []string{"net/"}}},
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		hits, err := be.Search(ctx, queries[i%len(queries)])
		if err != nil {
			b.Fatal(err)
		}
		if len(hits) == 0 {
			b.Fatal("no hits")
		}
	}
}

// BenchmarkUpsert measures storing a batch of 1,000 documents into an empty
// in-memory backend.
func BenchmarkUpsert(b *testing.B) {
	ctx := context.Background()
	docs := syntheticDocs(1000)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		be, err := Open(ctx, "")
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := be.Upsert(ctx, docs); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		be.Close()
		b.StartTimer()
	}
}

func TestSyntheticCorpusSearch(t *testing.T) {
	ctx := context.Background()
	be := openMem(t)
	if err := be.Upsert(ctx, syntheticDocs(2000)); err != nil {
		t.Fatal(err)
	}
	hits, err := be.Search(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: "parseHeaderTree", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 5 {
		t.Fatalf("got %d hits, want 5", len(hits))
	}
	for _, h := range hits {
		if h.Document.Kind != "function" {
			t.Errorf("unexpected hit %+v", h.Document)
		}
	}
}

// BenchmarkOpenInMemory: a private in-memory database, as every ephemeral
// prompt catalog opens one.
func BenchmarkOpenInMemory(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		be, err := Open(ctx, ":memory:")
		if err != nil {
			b.Fatal(err)
		}
		be.Close()
	}
}
