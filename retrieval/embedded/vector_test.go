package embedded

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
)

// wordEmbedder is a deterministic bag-of-words embedder for tests: each
// lower-cased word adds ±1 to a few hashed dimensions. Texts sharing words
// get similar vectors. Hooks let tests slow it down or corrupt its output.
type wordEmbedder struct {
	model string
	dims  int
	calls atomic.Int64
	texts atomic.Int64
	// before runs at the start of each call with its 1-based number.
	before func(ctx context.Context, call int64) error
	// after may rewrite the vectors of each call.
	after func(vecs [][]float32) [][]float32
}

func (w *wordEmbedder) Model() string   { return w.model }
func (w *wordEmbedder) Dimensions() int { return w.dims }

func (w *wordEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	call := w.calls.Add(1)
	if w.before != nil {
		if err := w.before(ctx, call); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w.texts.Add(int64(len(texts)))
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = wordVector(t, w.dims)
	}
	if w.after != nil {
		out = w.after(out)
	}
	return out, nil
}

func wordVector(text string, dims int) []float32 {
	v := make([]float32, dims)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		sum := sha256.Sum256([]byte(w))
		for k := 0; k < 3; k++ {
			x := binary.LittleEndian.Uint32(sum[4*k:])
			sign := float32(1)
			if x&1 == 1 {
				sign = -1
			}
			v[int(x>>1)%dims] += sign
		}
	}
	if allZero(v) {
		v[0] = 1
	}
	return v
}

func allZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

func newWords() *wordEmbedder { return &wordEmbedder{model: "test-words-v1", dims: 64} }

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

func randomVectors(r *mrand.Rand, n, dims int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, dims)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		out[i] = v
	}
	return out
}

// vectorDocs are n documents spread over paths, kinds, languages and tests
// so that every filter field selects a part of them.
func vectorDocs(n int) []retrieval.Document {
	kinds := []string{"function", "method", "type"}
	langs := []string{"go", "python"}
	docs := make([]retrieval.Document, n)
	for i := range docs {
		docs[i] = retrieval.Document{
			ID: fmt.Sprintf("v%05d", i), Path: fmt.Sprintf("pkg%d/f%d.go", i%10, i), StartLine: 1, EndLine: 2,
			Symbol: fmt.Sprintf("F%d", i), Kind: kinds[i%len(kinds)], Language: langs[i%len(langs)], Test: i%7 == 0,
		}
	}
	return docs
}

func cosine64(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

// passes is the reference implementation of a filter for vectorDocs.
func passes(d retrieval.Document, f retrieval.Filter) bool {
	in := func(v string, vals []string) bool {
		if len(vals) == 0 {
			return true
		}
		for _, x := range vals {
			if x == v {
				return true
			}
		}
		return false
	}
	if len(f.PathPrefixes) > 0 {
		ok := false
		for _, p := range f.PathPrefixes {
			if strings.HasPrefix(d.Path, p) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return in(d.Kind, f.Kinds) && in(d.Language, f.Languages) && !(f.ExcludeTests && d.Test)
}

type idScore struct {
	ID    string
	Score float64
}

// bruteForce ranks the documents passing f by exact float64 cosine
// similarity to q (sims[i] is that of docs[i]), ties by id.
func bruteForce(docs []retrieval.Document, sims []float64, f retrieval.Filter) []idScore {
	var all []idScore
	for i, d := range docs {
		if passes(d, f) {
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

func idScores(hits []retrieval.Hit) []idScore {
	var out []idScore
	for _, h := range hits {
		out = append(out, idScore{h.Document.ID, h.Score})
	}
	return out
}

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
			docs := vectorDocs(n)
			vecs := randomVectors(r, n, dims)
			b := openVec(t, "", WithVectorModel("random", dims))
			if err := b.UpsertVectors(ctx, docs, vecs); err != nil {
				t.Fatal(err)
			}
			if got := vecCount(t, b); got != n {
				t.Fatalf("VectorCount = %d, want %d", got, n)
			}
			for qi := 0; qi < 5; qi++ {
				q := randomVectors(r, 1, dims)[0]
				sims := make([]float64, n)
				for i, v := range vecs {
					sims[i] = cosine64(q, v)
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
		{"embedder without dims", []Option{WithEmbedder(&wordEmbedder{model: "m"})}},
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

func TestCapabilities(t *testing.T) {
	base := []retrieval.Strategy{retrieval.Exact, retrieval.Lexical, retrieval.Graph, retrieval.Structural}
	tests := []struct {
		name string
		opts []Option
		want []retrieval.Strategy
	}{
		{"no vectors", nil, base},
		{"own vectors only", []Option{WithVectorModel("m", 3)}, base},
		{"embedder", []Option{WithEmbedder(newWords())}, append(append([]retrieval.Strategy{}, base...), retrieval.Vector, retrieval.Hybrid)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := retrieval.Capabilities{Strategies: tc.want, Filters: true, MaxLimit: retrieval.MaxLimit}
			if diff := cmp.Diff(want, openVec(t, "", tc.opts...).Capabilities()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestUpsertEmbedsDocuments(t *testing.T) {
	ctx := context.Background()
	e := newWords()
	b := openVec(t, "", WithEmbedder(e), WithEmbedBatchSize(4))
	docs := append(corpus(), retrieval.Document{ID: "blank"}) // no embedding text: no vector
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if got, want := e.calls.Load(), int64(3); got != want { // 9 texts in batches of 4
		t.Errorf("Embed calls = %d, want %d", got, want)
	}
	if got := vecCount(t, b); got != len(corpus()) {
		t.Errorf("vectors = %d, want %d", got, len(corpus()))
	}
	// The stored vector is the embedding of EmbeddingText, exactly.
	for _, d := range corpus() {
		var blob []byte
		if err := b.db.QueryRowContext(ctx, "SELECT vec FROM vectors WHERE doc_id = ? AND model = ? AND dims = ?", d.ID, e.model, e.dims).Scan(&blob); err != nil {
			t.Fatalf("%s: %v", d.ID, err)
		}
		if diff := cmp.Diff(encodeVector(wordVector(retrieval.EmbeddingText(d), e.dims)), blob); diff != "" {
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
	if diff := cmp.Diff(corpus()[5], hits[0].Document, cmpopts.EquateEmpty()); diff != "" {
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
		e       *wordEmbedder
		want    error
		wantID  string // "-": no DocumentError
		wantMsg string
	}{
		{"error", &wordEmbedder{model: "m", dims: 16, before: func(context.Context, int64) error { return boom }}, boom, "-", "embedder down"},
		{"error in second batch", &wordEmbedder{model: "m", dims: 16, before: func(_ context.Context, c int64) error {
			if c == 2 {
				return boom
			}
			return nil
		}}, boom, "-", "texts 2..3"},
		{"too few vectors", &wordEmbedder{model: "m", dims: 16, after: func(v [][]float32) [][]float32 { return v[:len(v)-1] }}, retrieval.ErrBadRequest, "-", "returned 1 vectors for 2 texts"},
		{"wrong length", &wordEmbedder{model: "m", dims: 16, after: func(v [][]float32) [][]float32 { v[0] = v[0][:8]; return v }}, retrieval.ErrBadRequest, "a", "8 dimensions, want 16"},
		{"NaN", &wordEmbedder{model: "m", dims: 16, after: func(v [][]float32) [][]float32 {
			v[len(v)-1][3] = float32(math.NaN())
			return v
		}}, retrieval.ErrBadRequest, "b", "NaN"},
		{"zero", &wordEmbedder{model: "m", dims: 16, after: func(v [][]float32) [][]float32 { clear(v[0]); return v }}, retrieval.ErrBadRequest, "a", "zero vector"},
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
			e := &wordEmbedder{model: "m", dims: 16, before: func(ctx context.Context, call int64) error {
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
			if got := e.calls.Load(); got != 3 {
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
			return b.UpsertVectors(ctx, []retrieval.Document{{ID: "own", Symbol: "x"}}, [][]float32{wordVector("otter", e.dims)})
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
	if err := b.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM vectors WHERE doc_id = 'own'").Scan(&n); err != nil || n != 1 {
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
	v1 := openVec(t, path, WithEmbedder(&wordEmbedder{model: "words-v1", dims: 32}))
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
			b := openVec(t, path, WithEmbedder(&wordEmbedder{model: tc.model, dims: tc.dims}))
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
	v2 := openVec(t, path, WithEmbedder(&wordEmbedder{model: "words-v2", dims: 32}))
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
			want = want[:min(len(want), req.Limit)]
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
				if !passes(h.Document, req.Filter) {
					t.Errorf("hit %s fails the filter", h.Document.ID)
				}
			}
		})
	}
}

func TestVectorSearchErrors(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("embedder down")
	failing := &wordEmbedder{model: "m", dims: 8, before: func(context.Context, int64) error { return boom }}
	nan := &wordEmbedder{model: "m", dims: 8, after: func(v [][]float32) [][]float32 { v[0][0] = float32(math.NaN()); return v }}
	words := newWords()
	tests := []struct {
		name      string
		e         *wordEmbedder
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
			tc.e.calls.Store(0)
			b := openVec(t, "", WithEmbedder(tc.e))
			hits, err := b.Search(ctx, tc.req)
			if !errors.Is(err, tc.want) || hits != nil {
				t.Errorf("Search = %v, %v; want nil, %v", hits, err, tc.want)
			}
			if got := tc.e.calls.Load(); got != tc.wantCalls {
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

func TestUpgradeFromSchemaVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rlm.db")
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Upsert(ctx, corpus()); err != nil {
		t.Fatal(err)
	}
	// Make it a version 1 database: no vector tables.
	for _, q := range []string{"DROP TABLE vectors", "DROP TABLE vector_generation", "PRAGMA user_version = 1"} {
		if _, err := b.db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	b.Close()
	b = openVec(t, path, WithEmbedder(newWords()))
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
