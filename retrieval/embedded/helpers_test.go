package embedded

import (
	"context"
	"sort"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

// corpus is a small net/http-like knowledge base.
func corpus() []retrieval.Document {
	return []retrieval.Document{
		{
			ID: "srv-serve", Path: "net/http/server.go", StartLine: 100, EndLine: 130,
			Symbol: "ServeHTTP", Qualified: "Server.ServeHTTP", Kind: "method", Language: "go",
			Signature: "func (srv *Server) ServeHTTP(w ResponseWriter, r *Request)",
			Doc:       "ServeHTTP dispatches the request to the handler.",
			Refs: []retrieval.Ref{
				{Name: "Handler", Kind: "type", Line: 101},
				{Name: "readRequest", Kind: "call", Line: 105},
				{Name: "readRequest", Kind: "call", Line: 110},
				{Name: "writeHeader", Kind: "call", Line: 120},
			},
			ContentHash: "xxh64:0000000000000001:4000",
			Metadata:    map[string]string{"package": "http"},
		},
		{
			ID: "hf-serve", Path: "net/http/server.go", StartLine: 30, EndLine: 33,
			Symbol: "ServeHTTP", Qualified: "HandlerFunc.ServeHTTP", Kind: "method", Language: "go",
			Signature: "func (f HandlerFunc) ServeHTTP(w ResponseWriter, r *Request)",
			Doc:       "ServeHTTP calls f(w, r).",
		},
		{
			ID: "var-serve", Path: "net/http/a_vars.go", StartLine: 5, EndLine: 5,
			Symbol: "ServeHTTP", Qualified: "ServeHTTP", Kind: "variable", Language: "go",
		},
		{
			ID: "test-serve", Path: "net/http/serve_test.go", StartLine: 10, EndLine: 20,
			Symbol: "ServeHTTP", Qualified: "fakeServer.ServeHTTP", Kind: "method", Language: "go", Test: true,
			Refs: []retrieval.Ref{{Name: "readRequest", Kind: "call", Line: 12}},
		},
		{
			ID: "handler", Path: "net/http/server.go", StartLine: 20, EndLine: 25,
			Symbol: "Handler", Qualified: "Handler", Kind: "interface", Language: "go",
			Doc: "A Handler responds to an HTTP request.",
		},
		{
			ID: "read-req", Path: "net/http/request.go", StartLine: 50, EndLine: 80,
			Symbol: "readRequest", Qualified: "readRequest", Kind: "function", Language: "go",
			Signature: "func readRequest(b *bufio.Reader) (req *Request, err error)",
			Doc:       "readRequest reads and parses an incoming request from b.",
			Refs:      []retrieval.Ref{{Name: "parseLine", Kind: "call", Line: 55}},
		},
		{
			ID: "Read-Req", Path: "net/http/request.go", StartLine: 200, EndLine: 210,
			Symbol: "ReadRequest", Qualified: "ReadRequest", Kind: "function", Language: "go",
			Doc: "ReadRequest reads and parses an incoming request.",
		},
		{
			ID: "parse-line", Path: "net/textproto/reader.go", StartLine: 10, EndLine: 30,
			Symbol: "parseLine", Qualified: "parseLine", Kind: "function", Language: "go",
		},
		{
			ID: "py-serve", Path: "tools/serve.py", StartLine: 1, EndLine: 9,
			Symbol: "serve", Qualified: "serve", Kind: "function", Language: "python",
			Doc: "Serve files over http.",
		},
	}
}

func openMem(t testing.TB) *Backend {
	t.Helper()
	b, err := Open(context.Background(), "")
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func seeded(t testing.TB) *Backend {
	t.Helper()
	b := openMem(t)
	if err := b.Upsert(context.Background(), corpus()); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	return b
}

func count(t testing.TB, b *Backend) int {
	t.Helper()
	n, err := b.Count(context.Background())
	if err != nil {
		t.Fatalf("Count: %v", err)
	}
	return n
}

// brief is the part of a hit the tests compare.
type brief struct {
	ID    string
	Score float64
	Kind  retrieval.ScoreKind
	Rank  int
	Lines []int
}

func briefs(hs []retrieval.Hit) []brief {
	var out []brief
	for _, h := range hs {
		out = append(out, brief{h.Document.ID, h.Score, h.ScoreKind, h.Rank, h.Lines})
	}
	return out
}

func ids(hs []retrieval.Hit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Document.ID)
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func newWords() *testfixture.WordEmbedder {
	return &testfixture.WordEmbedder{ModelID: "test-words-v1", Dims: 64}
}

func openVec(t testing.TB, path string, opts ...Option) *Backend {
	t.Helper()
	b, err := Open(context.Background(), path, opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func vecCount(t testing.TB, b *Backend) int {
	t.Helper()
	n, err := b.VectorCount(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

type idScore struct {
	ID    string
	Score float64
}

func idScores(hits []retrieval.Hit) []idScore {
	var out []idScore
	for _, h := range hits {
		out = append(out, idScore{h.Document.ID, h.Score})
	}
	return out
}

// bruteForce ranks the documents passing f by exact float64 cosine
// similarity to q (sims[i] is that of docs[i]), ties by id.
func bruteForce(docs []retrieval.Document, sims []float64, f retrieval.Filter) []idScore {
	var all []idScore
	for i, d := range docs {
		if testfixture.Passes(d, f) {
			all = append(all, idScore{d.ID, sims[i]})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Score != all[j].Score {
			return all[i].Score > all[j].Score
		}
		return all[i].ID < all[j].ID
	})
	return all
}

// asStored is vecs as the vectors table keeps them (encodeVector: unit
// length, binary16) read back (decodeNormalized): what the exact search
// scores, so what a brute-force search of the stored vectors must be
// computed over.
func asStored(vecs [][]float32) [][]float32 {
	out := make([][]float32, len(vecs))
	for i, v := range vecs {
		out[i] = make([]float32, len(v))
		if !decodeNormalized(out[i], encodeVector(v)) {
			panic("asStored: a zero or non-finite vector")
		}
	}
	return out
}
