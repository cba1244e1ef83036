package embedded

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
)

func TestUpsertEmbedsDocuments(t *testing.T) {
	ctx := context.Background()
	e := newWords()
	b := openVec(t, "", WithEmbedder(e), WithEmbedBatchSize(4))
	docs := append(corpus(), retrieval.Document{ID: "blank"}) // no embedding text: no vector
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if got, want := e.Calls.Load(), int64(3); got != want { // 9 texts in batches of 4
		t.Errorf("Embed calls = %d, want %d", got, want)
	}
	if got := vecCount(t, b); got != len(corpus()) {
		t.Errorf("vectors = %d, want %d", got, len(corpus()))
	}
	// The stored vector is the embedding of EmbeddingText, exactly.
	for _, d := range corpus() {
		var blob []byte
		if err := b.db.QueryRowContext(ctx, "SELECT vec FROM vectors WHERE doc_rid = (SELECT rid FROM docs WHERE id = ?) AND "+modelSQL, d.ID, e.ModelID, e.Dims).Scan(&blob); err != nil {
			t.Fatalf("%s: %v", d.ID, err)
		}
		if diff := cmp.Diff(encodeVector(testfixture.WordVector(retrieval.EmbeddingText(d), e.Dims)), blob); diff != "" {
			t.Errorf("%s: stored vector differs", d.ID)
		}
	}
	// A document's own embedding text finds it first, with cosine 1.
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: retrieval.EmbeddingText(corpus()[5]), Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Document.ID != corpus()[5].ID || math.Abs(hits[0].Score-1) > 1e-6 {
		t.Fatalf("vector search for read-req's own text: %+v", briefs(hits))
	}
	want := corpus()[5]
	want.Refs = nil // a hit carries no refs (retrieval.Hit)
	if diff := cmp.Diff(want, hits[0].Document, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("hit document (-want +got):\n%s", diff)
	}
	// Filters apply.
	hits, err = b.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: "serve http", Limit: 20, Filter: retrieval.Filter{Languages: []string{"python"}}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"py-serve"}, ids(hits)); diff != "" {
		t.Errorf("filtered vector search (-want +got):\n%s", diff)
	}
}

func TestEmbedderFailuresWriteNothing(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("embedder down")
	tests := []struct {
		name    string
		e       *testfixture.WordEmbedder
		want    error
		wantID  string // "-": no DocumentError
		wantMsg string
	}{
		{"error", &testfixture.WordEmbedder{ModelID: "m", Dims: 16, Before: func(context.Context, int64) error { return boom }}, boom, "-", "embedder down"},
		{"error in second batch", &testfixture.WordEmbedder{ModelID: "m", Dims: 16, Before: func(_ context.Context, c int64) error {
			if c == 2 {
				return boom
			}
			return nil
		}}, boom, "-", "texts 2..3"},
		{"too few vectors", &testfixture.WordEmbedder{ModelID: "m", Dims: 16, After: func(v [][]float32) [][]float32 { return v[:len(v)-1] }}, retrieval.ErrBadRequest, "-", "returned 1 vectors for 2 texts"},
		{"wrong length", &testfixture.WordEmbedder{ModelID: "m", Dims: 16, After: func(v [][]float32) [][]float32 { v[0] = v[0][:8]; return v }}, retrieval.ErrBadRequest, "a", "8 dimensions, want 16"},
		{"NaN", &testfixture.WordEmbedder{ModelID: "m", Dims: 16, After: func(v [][]float32) [][]float32 {
			v[len(v)-1][3] = float32(math.NaN())
			return v
		}}, retrieval.ErrBadRequest, "b", "NaN"},
		{"zero", &testfixture.WordEmbedder{ModelID: "m", Dims: 16, After: func(v [][]float32) [][]float32 { clear(v[0]); return v }}, retrieval.ErrBadRequest, "a", "zero vector"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := openVec(t, "", WithEmbedder(tc.e), WithEmbedBatchSize(2))
			err := b.Upsert(ctx, []retrieval.Document{{ID: "a", Symbol: "A"}, {ID: "b", Symbol: "B"}, {ID: "c", Symbol: "C"}, {ID: "d", Symbol: "D"}})
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			var de *retrieval.DocumentError
			if got := errors.As(err, &de); got != (tc.wantID != "-") || (got && de.ID != tc.wantID) {
				t.Errorf("err = %v, want DocumentError for %q", err, tc.wantID)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("err %q does not say %q", err, tc.wantMsg)
			}
			if n := count(t, b); n != 0 {
				t.Errorf("documents = %d, want 0", n)
			}
			if n := vecCount(t, b); n != 0 {
				t.Errorf("vectors = %d, want 0", n)
			}
		})
	}
}

// TestUpsertCanceledMidBatch cancels the context from inside a slow
// embedder, halfway through a batch: nothing may be written.
func TestUpsertCanceledMidBatch(t *testing.T) {
	for _, kind := range []string{"memory", "file"} {
		t.Run(kind, func(t *testing.T) {
			path := ""
			if kind == "file" {
				path = filepath.Join(t.TempDir(), "rlm.db")
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			e := &testfixture.WordEmbedder{ModelID: "m", Dims: 16, Before: func(ctx context.Context, call int64) error {
				if call == 3 {
					cancel()
				}
				select { // a slow embedder that notices cancellation
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(5 * time.Millisecond):
					return nil
				}
			}}
			b := openVec(t, path, WithEmbedder(e), WithEmbedBatchSize(10))
			err := b.Upsert(ctx, syntheticDocs(60))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if got := e.Calls.Load(); got != 3 {
				t.Errorf("Embed calls = %d, want 3 (stopped at the cancellation)", got)
			}
			if n := count(t, b); n != 0 {
				t.Errorf("documents = %d after canceled upsert", n)
			}
			if n := vecCount(t, b); n != 0 {
				t.Errorf("vectors = %d after canceled upsert", n)
			}
			// The backend still works.
			if err := b.Upsert(context.Background(), syntheticDocs(5)); err != nil {
				t.Fatal(err)
			}
			if n := vecCount(t, b); n != 5 {
				t.Errorf("vectors = %d after a later upsert, want 5", n)
			}
		})
	}
}

// TestVectorCacheFollowsWrites checks that every kind of write is visible
// to the next vector search (the in-memory copy is reloaded).
func TestVectorCacheFollowsWrites(t *testing.T) {
	ctx := context.Background()
	e := newWords()
	b := openVec(t, "", WithEmbedder(e))
	search := func(text string) []string {
		t.Helper()
		hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: text, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		return ids(hits)
	}
	if err := b.Upsert(ctx, corpus()); err != nil {
		t.Fatal(err)
	}
	if got := search("zebra giraffe"); len(got) == 0 || got[0] == "zoo" {
		t.Fatalf("before: %v", got)
	}
	steps := []struct {
		name   string
		write  func() error
		text   string
		first  string // "" = must not appear at all
		absent string
	}{
		{"upsert with embedder", func() error {
			return b.Upsert(ctx, []retrieval.Document{{ID: "zoo", Symbol: "zebra giraffe"}})
		}, "zebra giraffe", "zoo", ""},
		{"replace text", func() error {
			return b.Upsert(ctx, []retrieval.Document{{ID: "zoo", Symbol: "penguin walrus"}})
		}, "penguin walrus", "zoo", ""},
		{"own vector", func() error {
			return b.UpsertVectors(ctx, []retrieval.Document{{ID: "own", Symbol: "x"}}, [][]float32{testfixture.WordVector("otter", e.Dims)})
		}, "otter", "own", ""},
		{"delete", func() error { return b.Delete(ctx, []string{"zoo"}) }, "penguin walrus", "", "zoo"},
	}
	for _, st := range steps {
		if err := st.write(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got := search(st.text)
		if st.first != "" && (len(got) == 0 || got[0] != st.first) {
			t.Errorf("%s: search %q = %v, want %s first", st.name, st.text, got, st.first)
		}
		for _, id := range got {
			if id == st.absent {
				t.Errorf("%s: %s still found", st.name, id)
			}
		}
	}
	var n int
	if err := b.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM vectors WHERE doc_rid = (SELECT rid FROM docs WHERE id = 'own')").Scan(&n); err != nil || n != 1 {
		t.Fatalf("own vectors = %d, %v", n, err)
	}
}

func TestReplaceWithoutEmbedderDropsVectors(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rlm.db")
	a := openVec(t, path, WithEmbedder(newWords()))
	if err := a.Upsert(ctx, corpus()); err != nil {
		t.Fatal(err)
	}
	plain := openVec(t, path)
	if err := plain.Upsert(ctx, corpus()[:2]); err != nil {
		t.Fatal(err)
	}
	if got, want := vecCount(t, a), len(corpus())-2; got != want {
		t.Errorf("vectors after replacing 2 documents without an embedder = %d, want %d", got, want)
	}
	hits, err := a.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: retrieval.EmbeddingText(corpus()[0]), Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Document.ID == corpus()[0].ID || h.Document.ID == corpus()[1].ID {
			t.Errorf("document replaced without a vector is a vector hit: %s", h.Document.ID)
		}
	}
}

// TestEmbedderChangeNeverMixes: backends over one file with different
// (model, dims) see only their own vectors; a write by one process is seen
// by another's next search.
func TestEmbedderChangeNeverMixes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rlm.db")
	v1 := openVec(t, path, WithEmbedder(&testfixture.WordEmbedder{ModelID: "words-v1", Dims: 32}))
	if err := v1.Upsert(ctx, corpus()); err != nil {
		t.Fatal(err)
	}
	if _, err := v1.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: "serve"}); err != nil {
		t.Fatal(err) // loads v1's cache
	}
	tests := []struct {
		name  string
		model string
		dims  int
		want  int
	}{
		{"same model and dims", "words-v1", 32, len(corpus())},
		{"other model", "words-v2", 32, 0},
		{"other dims", "words-v1", 48, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := openVec(t, path, WithEmbedder(&testfixture.WordEmbedder{ModelID: tc.model, Dims: tc.dims}))
			if got := vecCount(t, b); got != tc.want {
				t.Errorf("VectorCount = %d, want %d", got, tc.want)
			}
			hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: "serve http", Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != tc.want {
				t.Errorf("vector hits = %d, want %d", len(hits), tc.want)
			}
		})
	}
	// v2 embeds the same documents: v1 keeps none of its vectors for them
	// (replaced documents drop every model's vectors), and v1's cache notices.
	v2 := openVec(t, path, WithEmbedder(&testfixture.WordEmbedder{ModelID: "words-v2", Dims: 32}))
	if err := v2.Upsert(ctx, corpus()[:3]); err != nil {
		t.Fatal(err)
	}
	hits, err := v1.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: "serve http", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(hits), len(corpus())-3; got != want {
		t.Errorf("v1 hits after v2 re-embedded 3 documents = %d, want %d", got, want)
	}
	if got := vecCount(t, v2); got != 3 {
		t.Errorf("v2 vectors = %d, want 3", got)
	}
}

// fusionOf is what a hybrid search for req must answer: FuseRRF (k = 60)
// of the lexical and the vector Search for req.Text, each to the depth
// max(3 × limit, HybridMinDepth), cut to req.Limit.
func fusionOf(t *testing.T, b *Backend, req retrieval.Request) []retrieval.Hit {
	t.Helper()
	ctx := context.Background()
	depth := max(3*req.Limit, HybridMinDepth)
	lr, vr := req, req
	lr.Strategy, lr.Limit = retrieval.Lexical, depth
	vr.Strategy, vr.Limit = retrieval.Vector, depth
	lex, err := b.Search(ctx, lr)
	if err != nil {
		t.Fatal(err)
	}
	vec, err := b.Search(ctx, vr)
	if err != nil {
		t.Fatal(err)
	}
	if len(vec) == 0 {
		t.Fatal("no vector hits")
	}
	want := retrieval.FuseRRF(60, lex, vec)
	return want[:min(len(want), req.Limit)]
}

func TestHybrid(t *testing.T) {
	ctx := context.Background()
	b := openVec(t, "", WithEmbedder(newWords()))
	if err := b.Upsert(ctx, syntheticDocs(400)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		req  retrieval.Request
	}{
		{"plain", retrieval.Request{Text: "parse the request header", Limit: 10}},
		{"filtered", retrieval.Request{Text: "flush stream buffer", Limit: 5, Filter: retrieval.Filter{ExcludeTests: true, PathPrefixes: []string{"net/"}}}},
		{"deep", retrieval.Request{Text: "read config", Limit: 40}},
		{"stopwords only: vector list alone", retrieval.Request{Text: "what is the", Limit: 7}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.Strategy = retrieval.Hybrid
			got, err := b.Search(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			want := fusionOf(t, b, req)
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("hybrid != FuseRRF(lexical, vector) (-want +got):\n%s", diff)
			}
			if len(got) != req.Limit {
				t.Errorf("got %d hits, want %d", len(got), req.Limit)
			}
			for i, h := range got {
				if h.ScoreKind != retrieval.ScoreRank || h.Strategy != retrieval.Hybrid || h.Rank != i+1 {
					t.Errorf("hit %d: %s %s rank %d", i, h.ScoreKind, h.Strategy, h.Rank)
				}
				if !testfixture.Passes(h.Document, req.Filter) {
					t.Errorf("hit %s fails the filter", h.Document.ID)
				}
			}
		})
	}
}

func TestVectorSearchErrors(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("embedder down")
	failing := &testfixture.WordEmbedder{ModelID: "m", Dims: 8, Before: func(context.Context, int64) error { return boom }}
	nan := &testfixture.WordEmbedder{ModelID: "m", Dims: 8, After: func(v [][]float32) [][]float32 { v[0][0] = float32(math.NaN()); return v }}
	words := newWords()
	tests := []struct {
		name      string
		e         *testfixture.WordEmbedder
		req       retrieval.Request
		want      error
		wantCalls int64
	}{
		{"vector empty text", words, retrieval.Request{Strategy: retrieval.Vector}, retrieval.ErrBadRequest, 0},
		{"hybrid blank text", words, retrieval.Request{Strategy: retrieval.Hybrid, Text: " \t"}, retrieval.ErrBadRequest, 0},
		{"embedder error", failing, retrieval.Request{Strategy: retrieval.Vector, Text: "x"}, boom, 1},
		{"bad query embedding", nan, retrieval.Request{Strategy: retrieval.Hybrid, Text: "x"}, retrieval.ErrBadRequest, 1},
		{"filter too long", words, retrieval.Request{Strategy: retrieval.Vector, Text: "x", Filter: retrieval.Filter{Kinds: make([]string, MaxFilterValues+1)}}, retrieval.ErrTooLarge, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.e.Calls.Store(0)
			b := openVec(t, "", WithEmbedder(tc.e))
			hits, err := b.Search(ctx, tc.req)
			if !errors.Is(err, tc.want) || hits != nil {
				t.Errorf("Search = %v, %v; want nil, %v", hits, err, tc.want)
			}
			if got := tc.e.Calls.Load(); got != tc.wantCalls {
				t.Errorf("Embed calls = %d, want %d", got, tc.wantCalls)
			}
		})
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	b := openVec(t, "", WithEmbedder(words))
	for _, s := range []retrieval.Strategy{retrieval.Vector, retrieval.Hybrid} {
		if _, err := b.Search(canceled, retrieval.Request{Strategy: s, Text: "x"}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with canceled ctx: %v", s, err)
		}
	}
}

// TestEmbeddingTextMatchesChroma keeps retrieval.EmbeddingText and
// chroma.EmbeddingText the same function.
func TestEmbeddingTextMatchesChroma(t *testing.T) {
	docs := append(corpus(),
		retrieval.Document{ID: "only-symbol", Symbol: "Foo"},
		retrieval.Document{ID: "all", Symbol: "S", Qualified: "T.S", Signature: "func (T) S()", Doc: "S does.", Path: "a/b.go"},
		retrieval.Document{ID: "text", Symbol: "S", Text: "given text"},
		retrieval.Document{ID: "empty"},
	)
	for _, d := range docs {
		if got, want := retrieval.EmbeddingText(d), chroma.EmbeddingText(d); got != want {
			t.Errorf("%s: retrieval %q, chroma %q", d.ID, got, want)
		}
	}
	if got := retrieval.EmbeddingText(retrieval.Document{ID: "all", Symbol: "S", Qualified: "T.S", Signature: "func (T) S()", Doc: "S does.", Path: "a/b.go"}); got != "T.S\nfunc (T) S()\nS does.\na/b.go" {
		t.Errorf("EmbeddingText = %q", got)
	}
}

func TestFuncEmbedder(t *testing.T) {
	f := retrieval.FuncEmbedder{ModelID: "fn", Dims: 2, Func: func(_ context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i, s := range texts {
			out[i] = []float32{float32(len(s)), 1}
		}
		return out, nil
	}}
	b := openVec(t, "", WithEmbedder(f))
	if err := b.Upsert(context.Background(), []retrieval.Document{{ID: "a", Text: "abc"}}); err != nil {
		t.Fatal(err)
	}
	hits, err := b.Search(context.Background(), retrieval.Request{Strategy: retrieval.Vector, Text: "xyz"})
	if err != nil || len(hits) != 1 || math.Abs(hits[0].Score-1) > 1e-6 {
		t.Errorf("Search = %+v, %v", hits, err)
	}
	if b.Model() != "fn" || b.Dimensions() != 2 {
		t.Errorf("Model, Dimensions = %q, %d", b.Model(), b.Dimensions())
	}
}
