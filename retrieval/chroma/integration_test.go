package chroma

import (
	"context"
	"errors"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

// Integration tests run against a real Chroma server at $RLM_CHROMA_URL
// (start one with scripts/chroma-server.sh start). Without it they skip,
// except under CI (env CI non-empty), where a missing server fails.

// openLive opens a backend on a fresh, uniquely prefixed collection and
// drops it when the test ends.
func openLive(tb testing.TB, mod func(*Config)) *Backend {
	tb.Helper()
	cfg := Config{
		URL:              testfixture.ChromaURL(tb),
		CollectionPrefix: testfixture.UniquePrefix("t"),
		Embedder:         &testfixture.WordEmbedder{ModelID: "hash-bow-v1", Dims: 64},
	}
	if mod != nil {
		mod(&cfg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := Open(ctx, cfg)
	if err != nil {
		tb.Fatalf("Open %s: %v", cfg.URL, err)
	}
	tb.Cleanup(func() {
		if err := b.DeleteCollection(context.Background()); err != nil {
			tb.Errorf("drop collection: %v", err)
		}
		b.Close()
	})
	return b
}

func sampleDocs() []retrieval.Document {
	mk := func(path, qual, kind string, line int, test bool, text string) retrieval.Document {
		sym := qual[strings.LastIndex(qual, ".")+1:]
		return retrieval.Document{
			ID: retrieval.DocumentID(path, qual, line), Path: path, StartLine: line, EndLine: line + 9,
			Symbol: sym, Qualified: qual, Kind: kind, Language: "go", Text: text, Test: test,
			ContentHash: "xxh64:" + path, Signature: "func " + sym + "()",
		}
	}
	return []retrieval.Document{
		mk("internal/config/parse.go", "ParseConfig", "function", 10, false, "parse config file yaml settings"),
		mk("internal/config/parse_test.go", "TestParseConfig", "function", 5, true, "test parse config file yaml"),
		mk("internal/server/http.go", "Server.ServeHTTP", "method", 20, false, "serve http request handler router"),
		mk("internal/server/http.go", "Server", "type", 3, false, "http server type listener"),
		mk("internal/serverless/lambda.go", "Handler", "function", 7, false, "lambda handler request"),
		mk("cmd/rlm/main.go", "main", "function", 1, false, "command line main entry flags"),
		mk("pkg/store/sqlite.go", "Store.Open", "method", 40, false, "open sqlite database store file"),
		mk("pkg/store/sqlite.go", "Store.openConfig", "method", 80, false, "open store config pragma"),
	}
}

func ids(hits []retrieval.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Document.ID
	}
	return out
}

// TestLiveCountsRecordsAndScoresByCosine: what the conformance suite
// (conformance_test.go) does not see: Count follows upserts, replacements
// and deletes, and a cosine hit's Score is 1 − Chroma's cosine distance,
// the cosine similarity of the two vectors.
func TestLiveCountsRecordsAndScoresByCosine(t *testing.T) {
	b := openLive(t, nil)
	ctx := context.Background()
	docs := sampleDocs()
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if n, err := b.Count(ctx); err != nil || n != len(docs) {
		t.Fatalf("count %d %v", n, err)
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: "parse config yaml", Limit: 3})
	if err != nil || len(hits) != 3 {
		t.Fatalf("vector hits %v %v", ids(hits), err)
	}
	qv := testfixture.WordVector("parse config yaml", 64)
	for _, h := range hits {
		if want := testfixture.Cosine(qv, testfixture.WordVector(h.Document.Text, 64)); math.Abs(h.Score-want) > 1e-4 {
			t.Errorf("%s: score %v, want cosine %v", h.Document.ID, h.Score, want)
		}
	}
	changed := docs[5]
	changed.Text = "parse config yaml exactly"
	if err := b.Upsert(ctx, []retrieval.Document{changed}); err != nil {
		t.Fatal(err)
	}
	if n := testfixture.Must(b.Count(ctx))(t); n != len(docs) {
		t.Fatalf("re-upsert changed count to %d", n)
	}
	if err := b.Delete(ctx, []string{docs[0].ID, docs[1].ID, "never-existed"}); err != nil {
		t.Fatal(err)
	}
	if n := testfixture.Must(b.Count(ctx))(t); n != len(docs)-2 {
		t.Fatalf("count after delete %d", n)
	}
}

func TestLiveExactAndStructural(t *testing.T) {
	b := openLive(t, nil)
	ctx := context.Background()
	docs := sampleDocs()
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	search := func(req retrieval.Request) []retrieval.Hit {
		t.Helper()
		hits, err := b.Search(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	hits := search(retrieval.Request{Strategy: retrieval.Exact, Name: "Open"})
	if len(hits) != 1 || hits[0].Document.ID != docs[6].ID || hits[0].Score != 1 || hits[0].ScoreKind != retrieval.ScoreExact {
		t.Fatalf("exact Open: %+v", hits)
	}
	hits = search(retrieval.Request{Strategy: retrieval.Exact, Name: "Server.ServeHTTP"})
	if len(hits) != 1 || hits[0].Document.ID != docs[2].ID {
		t.Fatalf("exact qualified: %v", ids(hits))
	}
	if hits = search(retrieval.Request{Strategy: retrieval.Exact, Name: "parseconfig"}); len(hits) != 0 {
		t.Fatalf("case-sensitive matched %v", ids(hits))
	}
	hits = search(retrieval.Request{Strategy: retrieval.Exact, Name: "parseconfig", CaseInsensitive: true})
	if len(hits) != 1 || hits[0].Document.ID != docs[0].ID || hits[0].Score != 0.5 {
		t.Fatalf("case-insensitive: %+v", hits)
	}
	hits = search(retrieval.Request{Strategy: retrieval.Exact, Name: "Open", Filter: retrieval.Filter{PathPrefixes: []string{"internal/"}}})
	if len(hits) != 0 {
		t.Fatalf("exact filtered: %v", ids(hits))
	}

	hits = search(retrieval.Request{Strategy: retrieval.Structural, Filter: retrieval.Filter{Kinds: []string{"method"}, PathPrefixes: []string{"pkg/"}}})
	if strings.Join(ids(hits), ",") != docs[6].ID+","+docs[7].ID {
		t.Fatalf("structural: %v", ids(hits))
	}
	hits = search(retrieval.Request{Strategy: retrieval.Structural, Filter: retrieval.Filter{PathPrefixes: []string{"internal/serv"}, ExcludeTests: true}, Limit: 2})
	if len(hits) != 2 {
		t.Fatalf("structural limit: %v", ids(hits))
	}
	if _, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Structural}); !errors.Is(err, retrieval.ErrBadRequest) {
		t.Fatalf("unconstrained structural: %v", err)
	}
}

// TestLiveRecallAgainstBruteForce compares Chroma's HNSW top-10 with an
// exact cosine scan over the same 2,000 random 384-dim vectors.
func TestLiveRecallAgainstBruteForce(t *testing.T) {
	const n, dims, queries, k = 2000, 384, 20, 10
	b := openLive(t, func(c *Config) { c.Embedder, c.Model, c.Dimensions = nil, "random-384", dims })
	ctx := context.Background()
	r := mrand.New(mrand.NewPCG(1, 2))
	vecs := testfixture.RandomVectors(r, n, dims)
	docs := testfixture.VectorDocs(n)
	start := time.Now()
	if err := b.UpsertVectors(ctx, docs, vecs); err != nil {
		t.Fatal(err)
	}
	t.Logf("upserted %d×%d in %v", n, dims, time.Since(start))
	if c, err := b.Count(ctx); err != nil || c != n {
		t.Fatalf("count %d %v", c, err)
	}
	total, worst := 0, k
	for q := 0; q < queries; q++ {
		qv := testfixture.RandomVectors(r, 1, dims)[0]
		type scored struct {
			id  string
			sim float64
		}
		all := make([]scored, n)
		for i, v := range vecs {
			all[i] = scored{docs[i].ID, testfixture.Cosine(qv, v)}
		}
		sort.Slice(all, func(i, j int) bool { return all[i].sim > all[j].sim })
		exact := map[string]float64{}
		for _, s := range all[:k] {
			exact[s.id] = s.sim
		}
		hits, err := b.QueryVector(ctx, qv, k, retrieval.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		overlap := 0
		for _, h := range hits {
			if sim, ok := exact[h.Document.ID]; ok {
				overlap++
				if math.Abs(sim-h.Score) > 1e-4 {
					t.Errorf("query %d: %s score %v, exact cosine %v", q, h.Document.ID, h.Score, sim)
				}
			}
		}
		if overlap < 9 {
			t.Errorf("query %d: top-%d overlap %d/10 with brute force", q, k, overlap)
		}
		total += overlap
		worst = min(worst, overlap)
	}
	t.Logf("top-%d overlap with exact cosine over %d queries: mean %.2f/10, worst %d/10", k, queries, float64(total)/queries, worst)
}

func TestLiveL2Space(t *testing.T) {
	b := openLive(t, func(c *Config) { c.Embedder, c.Model, c.Dimensions, c.Space = nil, "m3", 3, L2 })
	ctx := context.Background()
	docs := []retrieval.Document{{ID: "a"}, {ID: "b"}}
	if err := b.UpsertVectors(ctx, docs, [][]float32{{1, 0, 0}, {0, 3, 0}}); err != nil {
		t.Fatal(err)
	}
	hits, err := b.QueryVector(ctx, []float32{1, 1, 0}, 2, retrieval.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	// Squared Euclidean: |(1,1,0)-(1,0,0)|² = 1, |(1,1,0)-(0,3,0)|² = 5.
	if len(hits) != 2 || hits[0].Document.ID != "a" || hits[0].ScoreKind != retrieval.ScoreL2Distance ||
		math.Abs(hits[0].Score-1) > 1e-5 || math.Abs(hits[1].Score-5) > 1e-5 {
		t.Fatalf("l2 hits %+v", hits)
	}
	if hits[0].ScoreKind.HigherIsBetter() {
		t.Fatal("l2 should be lower-is-better")
	}
}

func TestLiveEmbedderChangeNeverMixes(t *testing.T) {
	url := testfixture.ChromaURL(t)
	a := openLive(t, nil)
	prefix := strings.SplitN(a.CollectionName(), "-", 2)[0]
	b := openLive(t, func(c *Config) {
		c.CollectionPrefix = prefix
		c.Embedder = &testfixture.WordEmbedder{ModelID: "hash-bow-v2", Dims: 64}
	})
	c := openLive(t, func(c *Config) {
		c.CollectionPrefix = prefix
		c.Embedder = &testfixture.WordEmbedder{ModelID: "hash-bow-v1", Dims: 32}
	})
	if a.CollectionName() == b.CollectionName() || a.CollectionName() == c.CollectionName() {
		t.Fatalf("collections shared: %s %s %s", a.CollectionName(), b.CollectionName(), c.CollectionName())
	}
	ctx := context.Background()
	if err := a.Upsert(ctx, sampleDocs()); err != nil {
		t.Fatal(err)
	}
	if n := testfixture.Must(b.Count(ctx))(t); n != 0 {
		t.Fatalf("other model sees %d records", n)
	}
	// A second backend with the same embedder shares the collection.
	same, err := Open(ctx, Config{URL: url, CollectionPrefix: prefix, Embedder: &testfixture.WordEmbedder{ModelID: "hash-bow-v1", Dims: 64}})
	if err != nil {
		t.Fatal(err)
	}
	defer same.Close()
	if n := testfixture.Must(same.Count(ctx))(t); n != len(sampleDocs()) {
		t.Fatalf("same embedder sees %d", n)
	}
	// Another distance space gets its own collection too.
	l2, err := Open(ctx, Config{URL: url, CollectionPrefix: prefix, Embedder: &testfixture.WordEmbedder{ModelID: "hash-bow-v1", Dims: 64}, Space: L2})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l2.DeleteCollection(ctx); l2.Close() }()
	if l2.CollectionName() == a.CollectionName() {
		t.Fatal("l2 shares the cosine collection")
	}
	if n := testfixture.Must(l2.Count(ctx))(t); n != 0 {
		t.Fatalf("l2 collection sees %d", n)
	}
}

// TestLiveBadInputIsRefusedWithStructuredErrors: an empty batch writes
// nothing, a query of the wrong length is refused before the request, and
// what only the server can refuse comes back as a *Error of its kind.
func TestLiveBadInputIsRefusedWithStructuredErrors(t *testing.T) {
	b := openLive(t, func(c *Config) { c.Embedder, c.Model, c.Dimensions = nil, "random-16", 16 })
	ctx := context.Background()
	r := mrand.New(mrand.NewPCG(3, 4))
	docs := testfixture.VectorDocs(10)
	vecs := testfixture.RandomVectors(r, 10, 16)
	if err := b.UpsertVectors(ctx, docs[:5], vecs[:5]); err != nil {
		t.Fatal(err)
	}
	countIs := func(want int) {
		t.Helper()
		if n, err := b.Count(ctx); err != nil || n != want {
			t.Fatalf("count %d (%v), want %d", n, err, want)
		}
	}
	// NaN, infinite, wrong-length and empty vectors are the conformance
	// suite's (BadCallerVectorsAreRefusedWithoutPartialWrites).
	// Empty batch.
	if err := b.UpsertVectors(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	countIs(5)
	// Wrong query dimension.
	if _, err := b.QueryVector(ctx, vecs[0][:3], 3, retrieval.Filter{}); !errors.Is(err, retrieval.ErrBadRequest) {
		t.Fatalf("query dims: %v", err)
	}
	// The server's own structured error: a collection that already holds
	// 16-dim vectors, written through a backend that believes it is 8-dim
	// (bypassing the name scheme by hand), is refused by Chroma.
	raw := &Backend{c: b.c, model: "x", dims: 8, space: Cosine, name: b.name, tenant: b.tenant, database: b.database,
		batch: b.batch, maxReq: b.maxReq, embedN: 1, maxScan: 10, base64: b.base64, collID: b.collID}
	err := raw.UpsertVectors(ctx, []retrieval.Document{{ID: "wrong"}}, [][]float32{testfixture.RandomVectors(r, 1, 8)[0]})
	var ce *Error
	if !errors.As(err, &ce) || ce.Status != 400 || ce.Kind != "InvalidArgumentError" || !errors.Is(err, retrieval.ErrBadRequest) {
		t.Fatalf("server dimension error: %#v", err)
	}
	t.Logf("server error: %v", err)
	countIs(5)
	// Bad tenant name: a 400 from the server during Open.
	_, err = Open(ctx, Config{URL: testfixture.ChromaURL(t), Model: "m", Dimensions: 3, Tenant: "ab"})
	if !errors.As(err, &ce) || ce.Status != 400 || ce.Kind != "InvalidArgumentError" {
		t.Fatalf("bad tenant: %v", err)
	}
	t.Logf("server error: %v", err)
}

// TestLiveOversizeBatch writes more records than the server's max_batch_size
// in one call with no client cap of our own.
func TestLiveOversizeBatch(t *testing.T) {
	const dims = 8
	b := openLive(t, func(c *Config) {
		c.Embedder, c.Model, c.Dimensions = nil, "random-8", dims
		c.BatchSize = math.MaxInt32 // only the server's max_batch_size limits
	})
	n := b.BatchSize() + 539
	t.Logf("server max batch %d; writing %d records", b.BatchSize(), n)
	r := mrand.New(mrand.NewPCG(5, 6))
	docs := testfixture.VectorDocs(n)
	vecs := testfixture.RandomVectors(r, n, dims)
	ctx := context.Background()
	if err := b.UpsertVectors(ctx, docs, vecs); err != nil {
		t.Fatal(err)
	}
	if c, err := b.Count(ctx); err != nil || c != n {
		t.Fatalf("count %d %v, want %d", c, err, n)
	}
	got, err := b.Fetch(ctx, []string{docs[0].ID, docs[n-1].ID, docs[b.BatchSize()].ID})
	if err != nil || len(got) != 3 {
		t.Fatalf("fetch across batches: %v %v", got, err)
	}
	// Many ids in one Fetch and Delete are split too.
	all := make([]string, n)
	for i := range docs {
		all[i] = docs[i].ID
	}
	if got, err := b.Fetch(ctx, all); err != nil || len(got) != n {
		t.Fatalf("fetch all: %d %v", len(got), err)
	}
	if err := b.Delete(ctx, all[:n-1]); err != nil {
		t.Fatal(err)
	}
	if c := testfixture.Must(b.Count(ctx))(t); c != 1 {
		t.Fatalf("count after bulk delete %d", c)
	}
}

func TestLiveTimeoutAndClosed(t *testing.T) {
	b := openLive(t, nil)
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := b.QueryVector(ctx, testfixture.WordVector("x", 64), 3, retrieval.Filter{})
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrTransport) {
		t.Fatalf("expired context: %v", err)
	}
	other, err := Open(context.Background(), Config{URL: testfixture.ChromaURL(t), Embedder: &testfixture.WordEmbedder{ModelID: "closed", Dims: 4}, CollectionPrefix: "tclosed"})
	if err != nil {
		t.Fatal(err)
	}
	_ = other.DeleteCollection(context.Background())
	other.Close()
	if _, err := other.Count(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("after close: %v", err)
	}
}

func TestLiveRecallSweep(t *testing.T) {
	if os.Getenv("RLM_CHROMA_SWEEP") == "" {
		t.Skip("set RLM_CHROMA_SWEEP=1")
	}
	const n, dims, queries, k = 2000, 384, 20, 10
	r := mrand.New(mrand.NewPCG(1, 2))
	vecs := testfixture.RandomVectors(r, n, dims)
	qs := testfixture.RandomVectors(r, queries, dims)
	docs := testfixture.VectorDocs(n)
	for _, h := range []HNSW{{}, {EfSearch: 200}, {EfSearch: 400}, {EfConstruction: 200, EfSearch: 200}, {EfConstruction: 200, EfSearch: 200, MaxNeighbors: 32}} {
		b := openLive(t, func(c *Config) { c.Embedder, c.Model, c.Dimensions, c.HNSW = nil, "random-384", dims, h })
		ctx := context.Background()
		st := time.Now()
		if err := b.UpsertVectors(ctx, docs, vecs); err != nil {
			t.Fatal(err)
		}
		up := time.Since(st)
		total, worst := 0, 10
		st = time.Now()
		for _, qv := range qs {
			all := make([]float64, n)
			idx := make([]int, n)
			for i, v := range vecs {
				all[i], idx[i] = testfixture.Cosine(qv, v), i
			}
			sort.Slice(idx, func(a, b int) bool { return all[idx[a]] > all[idx[b]] })
			exact := map[string]bool{}
			for _, i := range idx[:k] {
				exact[docs[i].ID] = true
			}
			hits, err := b.QueryVector(ctx, qv, k, retrieval.Filter{})
			if err != nil {
				t.Fatal(err)
			}
			o := 0
			for _, h := range hits {
				if exact[h.Document.ID] {
					o++
				}
			}
			total += o
			worst = min(worst, o)
		}
		t.Logf("%+v: upsert %v, mean %.2f worst %d, 20 queries+scan %v", h, up, float64(total)/queries, worst, time.Since(st))
	}
}

func TestLiveConcurrentUse(t *testing.T) {
	b := openLive(t, nil)
	ctx := context.Background()
	const workers, per = 4, 50
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func(w int) {
			docs := make([]retrieval.Document, per)
			for i := range docs {
				docs[i] = retrieval.Document{ID: fmt.Sprintf("w%d-%d", w, i), Path: fmt.Sprintf("w%d/f.go", w),
					Symbol: fmt.Sprintf("F%d", i), Kind: "function", Text: fmt.Sprintf("worker %d function %d", w, i)}
			}
			if err := b.Upsert(ctx, docs); err != nil {
				errs <- err
				return
			}
			hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: fmt.Sprintf("worker %d", w),
				Filter: retrieval.Filter{PathPrefixes: []string{fmt.Sprintf("w%d/", w)}}})
			if err == nil && len(hits) != retrieval.DefaultLimit {
				err = fmt.Errorf("worker %d: %d hits", w, len(hits))
			}
			errs <- err
		}(w)
	}
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n, err := b.Count(ctx); err != nil || n != workers*per {
		t.Fatalf("count %d %v", n, err)
	}
}
