package embedded

import (
	"context"
	"errors"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

func TestQueryVectorMatchesBruteForce(t *testing.T) {
	ctx := context.Background()
	const dims = 48
	filters := []retrieval.Filter{
		{},
		{Kinds: []string{"method"}},
		{ExcludeTests: true, Languages: []string{"python"}},
		{PathPrefixes: []string{"pkg3/", "pkg7/f1"}},
		{PathPrefixes: []string{"nowhere/"}},
	}
	// 300 vectors scan on one goroutine; 12,000 × 48 floats are split.
	for _, n := range []int{300, 12000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			r := mrand.New(mrand.NewPCG(7, uint64(n)))
			docs := testfixture.VectorDocs(n)
			vecs := testfixture.RandomVectors(r, n, dims)
			b := openVec(t, "", WithVectorModel("random", dims))
			if err := b.UpsertVectors(ctx, docs, vecs); err != nil {
				t.Fatal(err)
			}
			if got := vecCount(t, b); got != n {
				t.Fatalf("VectorCount = %d, want %d", got, n)
			}
			for qi := 0; qi < 5; qi++ {
				q := testfixture.RandomVectors(r, 1, dims)[0]
				sims := make([]float64, n)
				for i, v := range asStored(vecs) {
					sims[i] = testfixture.Cosine(q, v)
				}
				for _, f := range filters {
					ranked := bruteForce(docs, sims, f)
					for _, k := range []int{1, 10, 57} {
						hits, err := b.QueryVector(ctx, q, k, f)
						if err != nil {
							t.Fatal(err)
						}
						want := ranked[:min(k, len(ranked))]
						if diff := cmp.Diff(want, idScores(hits), cmpopts.EquateApprox(0, 1e-5)); diff != "" {
							t.Errorf("query %d k %d filter %+v (-want +got):\n%s", qi, k, f, diff)
						}
						for i, h := range hits {
							if h.Rank != i+1 || h.Strategy != retrieval.Vector || h.ScoreKind != retrieval.ScoreCosineSimilarity {
								t.Errorf("hit %d: rank %d strategy %s kind %s", i, h.Rank, h.Strategy, h.ScoreKind)
							}
						}
					}
				}
			}
		})
	}
}

func TestQueryVectorTiesByID(t *testing.T) {
	ctx := context.Background()
	b := openVec(t, "", WithVectorModel("m", 2))
	docs := []retrieval.Document{{ID: "c"}, {ID: "a"}, {ID: "d"}, {ID: "b"}}
	// Same direction, different lengths: equal cosine.
	vecs := [][]float32{{1, 1}, {2, 2}, {0, 1}, {3, 3}}
	if err := b.UpsertVectors(ctx, docs, vecs); err != nil {
		t.Fatal(err)
	}
	hits, err := b.QueryVector(ctx, []float32{5, 5}, 3, retrieval.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	want := []idScore{{"a", 1}, {"b", 1}, {"c", 1}}
	if diff := cmp.Diff(want, idScores(hits), cmpopts.EquateApprox(0, 1e-6)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestVectorValidationWritesNothing(t *testing.T) {
	ctx := context.Background()
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	tests := []struct {
		name    string
		docs    []retrieval.Document
		vecs    [][]float32
		want    error
		wantID  string // "-" when no DocumentError is expected
		wantMsg string
	}{
		{"short vector", []retrieval.Document{{ID: "n1"}, {ID: "n2"}}, [][]float32{{1, 0, 0}, {1, 0}}, retrieval.ErrBadRequest, "n2", "2 dimensions, want 3"},
		{"long vector", []retrieval.Document{{ID: "n1"}}, [][]float32{{1, 0, 0, 0}}, retrieval.ErrBadRequest, "n1", "4 dimensions"},
		{"NaN", []retrieval.Document{{ID: "n1"}, {ID: "n2"}}, [][]float32{{1, 0, 0}, {0, nan, 1}}, retrieval.ErrBadRequest, "n2", "element 1 is NaN"},
		{"infinite", []retrieval.Document{{ID: "n1"}}, [][]float32{{inf, 0, 0}}, retrieval.ErrBadRequest, "n1", "+Inf"},
		{"zero", []retrieval.Document{{ID: "n1"}, {ID: "n2"}}, [][]float32{{1, 2, 3}, {0, 0, 0}}, retrieval.ErrBadRequest, "n2", "zero vector"},
		{"empty id", []retrieval.Document{{ID: "n1"}, {}}, [][]float32{{1, 0, 0}, {1, 0, 0}}, retrieval.ErrBadRequest, "", "empty document id"},
		{"oversize document", []retrieval.Document{{ID: "big", Text: strings.Repeat("x", MaxDocumentBytes)}}, [][]float32{{1, 0, 0}}, retrieval.ErrTooLarge, "big", "limit"},
		{"count mismatch", []retrieval.Document{{ID: "n1"}, {ID: "n2"}}, [][]float32{{1, 0, 0}}, retrieval.ErrBadRequest, "-", "2 documents but 1 vectors"},
	}
	b := openVec(t, "", WithVectorModel("m", 3))
	if err := b.UpsertVectors(ctx, []retrieval.Document{{ID: "keep"}, {ID: "n1", Symbol: "Old"}}, [][]float32{{0, 0, 1}, {0, 1, 0}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := b.UpsertVectors(ctx, tc.docs, tc.vecs)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			var de *retrieval.DocumentError
			if got := errors.As(err, &de); got != (tc.wantID != "-") || (got && de.ID != tc.wantID) {
				t.Errorf("err = %v (DocumentError %v), want DocumentError for %q", err, got, tc.wantID)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("err %q does not say %q", err, tc.wantMsg)
			}
			if got := count(t, b); got != 2 {
				t.Errorf("documents = %d, want 2", got)
			}
			if got := vecCount(t, b); got != 2 {
				t.Errorf("vectors = %d, want 2", got)
			}
			got, err := b.Fetch(ctx, []string{"n1"})
			if err != nil || len(got) != 1 || got[0].Symbol != "Old" {
				t.Errorf("n1 after rejected batch: %v %v", got, err)
			}
		})
	}
}

func TestQueryVectorErrors(t *testing.T) {
	ctx := context.Background()
	b := openVec(t, "", WithVectorModel("m", 3))
	none := openMem(t)
	many := make([]string, MaxFilterValues+1)
	tests := []struct {
		name string
		b    *Backend
		vec  []float32
		n    int
		f    retrieval.Filter
		want error
	}{
		{"wrong dims", b, []float32{1, 0}, 5, retrieval.Filter{}, retrieval.ErrBadRequest},
		{"NaN", b, []float32{1, float32(math.NaN()), 0}, 5, retrieval.Filter{}, retrieval.ErrBadRequest},
		{"zero", b, []float32{0, 0, 0}, 5, retrieval.Filter{}, retrieval.ErrBadRequest},
		{"negative n", b, []float32{1, 0, 0}, -1, retrieval.Filter{}, retrieval.ErrBadRequest},
		{"n over max", b, []float32{1, 0, 0}, retrieval.MaxLimit + 1, retrieval.Filter{}, retrieval.ErrBadRequest},
		{"filter too long", b, []float32{1, 0, 0}, 5, retrieval.Filter{Languages: many}, retrieval.ErrTooLarge},
		{"no vector model", none, []float32{1, 0, 0}, 5, retrieval.Filter{}, retrieval.ErrUnsupported},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := tc.b.QueryVector(ctx, tc.vec, tc.n, tc.f)
			if !errors.Is(err, tc.want) || hits != nil {
				t.Errorf("QueryVector = %v, %v; want nil, %v", hits, err, tc.want)
			}
		})
	}
	if err := none.UpsertVectors(ctx, []retrieval.Document{{ID: "x"}}, [][]float32{{1}}); !errors.Is(err, retrieval.ErrUnsupported) {
		t.Errorf("UpsertVectors without a vector model: %v", err)
	}
	// An empty index gives no hits and no error; n 0 means the default.
	hits, err := b.QueryVector(ctx, []float32{1, 0, 0}, 0, retrieval.Filter{})
	if err != nil || hits != nil {
		t.Errorf("empty index: %v, %v", hits, err)
	}
}

func TestOpenOptionErrors(t *testing.T) {
	tests := []struct {
		name string
		opts []Option
	}{
		{"model disagrees", []Option{WithEmbedder(newWords()), WithVectorModel("other", 64)}},
		{"dims disagree", []Option{WithEmbedder(newWords()), WithVectorModel("test-words-v1", 32)}},
		{"empty model", []Option{WithVectorModel("", 3)}},
		{"zero dims", []Option{WithVectorModel("m", 0)}},
		{"too many dims", []Option{WithVectorModel("m", MaxDimensions+1)}},
		{"embedder without dims", []Option{WithEmbedder(&testfixture.WordEmbedder{ModelID: "m"})}},
		{"negative batch", []Option{WithVectorModel("m", 3), WithEmbedBatchSize(-1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Open(context.Background(), "", tc.opts...)
			if !errors.Is(err, retrieval.ErrBadRequest) {
				if b != nil {
					b.Close()
				}
				t.Errorf("Open = %v, want ErrBadRequest", err)
			}
		})
	}
	b := openVec(t, "", WithEmbedder(newWords()), WithVectorModel("test-words-v1", 64))
	if b.Model() != "test-words-v1" || b.Dimensions() != 64 {
		t.Errorf("Model, Dimensions = %q, %d", b.Model(), b.Dimensions())
	}
}

// lexicalWords is a test embedder that says it is lexical
// (retrieval.NatureReporter).
type lexicalWords struct{ retrieval.Embedder }

func (lexicalWords) Nature() string { return retrieval.EmbedderLexical }

func TestCapabilities(t *testing.T) {
	base := []retrieval.Strategy{retrieval.Exact, retrieval.Lexical, retrieval.Graph, retrieval.Structural}
	withVectors := append(append([]retrieval.Strategy{}, base...), retrieval.Vector, retrieval.Hybrid)
	tests := []struct {
		name     string
		opts     []Option
		want     []retrieval.Strategy
		embedder string
	}{
		{"no vectors", nil, base, ""},
		{"own vectors only", []Option{WithVectorModel("m", 3)}, base, ""},
		{"embedder", []Option{WithEmbedder(newWords())}, withVectors, retrieval.EmbedderLearned},
		{"lexical embedder", []Option{WithEmbedder(lexicalWords{newWords()})}, withVectors, retrieval.EmbedderLexical},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := retrieval.Capabilities{Strategies: tc.want, Filters: true, MaxLimit: retrieval.MaxLimit, Embedder: tc.embedder}
			if diff := cmp.Diff(want, openVec(t, "", tc.opts...).Capabilities()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestUpgradeFromSchemaVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rlm.db")
	db := v3Database(t, path, corpus(), false)
	// Make it a version 1 database: no vector tables.
	for _, q := range []string{"DROP TABLE vectors", "DROP TABLE vector_generation", "PRAGMA user_version = 1"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	b := openVec(t, path, WithEmbedder(newWords()))
	var v int
	if err := b.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil || v != schemaVersion {
		t.Fatalf("user_version = %d, %v; want %d", v, err, schemaVersion)
	}
	if got := count(t, b); got != len(corpus()) {
		t.Errorf("documents after upgrade = %d", got)
	}
	if err := b.Upsert(ctx, corpus()); err != nil {
		t.Fatal(err)
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: "serve http"})
	if err != nil || len(hits) == 0 {
		t.Errorf("vector search after upgrade: %v, %v", hits, err)
	}
}

func TestConcurrentVectorUse(t *testing.T) {
	for _, kind := range []string{"memory", "file"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			path := ""
			if kind == "file" {
				path = filepath.Join(t.TempDir(), "rlm.db")
			}
			b := openVec(t, path, WithEmbedder(newWords()))
			if err := b.Upsert(ctx, syntheticDocs(200)); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make(chan error, 64)
			for w := 0; w < 2; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for i := 0; i < 15; i++ {
						id := fmt.Sprintf("w%d-%d", w, i)
						if err := b.Upsert(ctx, []retrieval.Document{{ID: id, Symbol: "serveRequest", Path: "x.go"}}); err != nil {
							errs <- err
							return
						}
						if i%2 == 0 {
							if err := b.Delete(ctx, []string{id}); err != nil {
								errs <- err
								return
							}
						}
					}
				}(w)
			}
			for r := 0; r < 3; r++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < 15; i++ {
						for _, s := range []retrieval.Strategy{retrieval.Vector, retrieval.Hybrid} {
							hits, err := b.Search(ctx, retrieval.Request{Strategy: s, Text: "serve request", Limit: 20})
							if err != nil {
								errs <- err
								return
							}
							if len(hits) != 20 {
								errs <- fmt.Errorf("%s: %d hits", s, len(hits))
								return
							}
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			if got, want := vecCount(t, b), 200+2*7; got != want {
				t.Errorf("vectors = %d, want %d", got, want)
			}
		})
	}
}
