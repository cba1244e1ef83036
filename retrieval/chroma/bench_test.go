package chroma

import (
	"context"
	mrand "math/rand/v2"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

// Benchmarks against the real server at $RLM_CHROMA_URL (same skip/CI rule
// as the integration tests). RLM_CHROMA_BENCH_BATCH overrides the batch size.

const benchDims = 384

func benchBatch() int {
	n, _ := strconv.Atoi(os.Getenv("RLM_CHROMA_BENCH_BATCH"))
	return n
}

// BenchmarkChromaUpsert measures bulk upsert throughput: each iteration
// writes 10,000 documents of 384-dim vectors with provenance metadata into an
// empty collection.
func BenchmarkChromaUpsert(b *testing.B) {
	const n = 10_000
	r := mrand.New(mrand.NewPCG(7, 8))
	docs := testfixture.VectorDocs(n)
	vecs := testfixture.RandomVectors(r, n, benchDims)
	ctx := context.Background()
	var total time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		be := openLive(b, func(c *Config) {
			c.Embedder, c.Model, c.Dimensions = nil, "bench-384", benchDims
			c.BatchSize = benchBatch()
			c.NoBase64 = os.Getenv("RLM_CHROMA_BENCH_NOBASE64") != ""
		})
		b.StartTimer()
		st := time.Now()
		if err := be.UpsertVectors(ctx, docs, vecs); err != nil {
			b.Fatal(err)
		}
		total += time.Since(st)
		b.StopTimer()
		if c, err := be.Count(ctx); err != nil || c != n {
			b.Fatalf("count %d %v", c, err)
		}
		b.Logf("batch %d, base64 %v: %d docs in %v", be.BatchSize(), be.base64, n, time.Since(st))
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/total.Seconds(), "docs/s")
}

// BenchmarkChromaQuery measures top-10 query latency over 10,000 384-dim
// vectors (cosine, no filter, and with a kind+path filter).
func BenchmarkChromaQuery(b *testing.B) {
	const n = 10_000
	r := mrand.New(mrand.NewPCG(9, 10))
	docs := testfixture.VectorDocs(n)
	vecs := testfixture.RandomVectors(r, n, benchDims)
	ctx := context.Background()
	efs, _ := strconv.Atoi(os.Getenv("RLM_CHROMA_BENCH_EF"))
	be := openLive(b, func(c *Config) {
		c.Embedder, c.Model, c.Dimensions = nil, "bench-384", benchDims
		c.HNSW.EfSearch = efs
	})
	if err := be.UpsertVectors(ctx, docs, vecs); err != nil {
		b.Fatal(err)
	}
	queries := testfixture.RandomVectors(r, 256, benchDims)
	for _, bc := range []struct {
		name string
		f    retrieval.Filter
	}{
		{"nofilter", retrieval.Filter{}},
		{"filter", retrieval.Filter{Kinds: []string{"function"}, PathPrefixes: []string{"pkg3/"}, ExcludeTests: true}},
		{"clientprefix", retrieval.Filter{PathPrefixes: []string{"pkg3"}}},
		{"kind", retrieval.Filter{Kinds: []string{"function"}}},
		{"dir", retrieval.Filter{PathPrefixes: []string{"pkg3/"}}},
		{"notest", retrieval.Filter{ExcludeTests: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				st := time.Now()
				hits, err := be.QueryVector(ctx, queries[i%len(queries)], 10, bc.f)
				if err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(st))
				if len(hits) != 10 {
					b.Fatalf("%d hits", len(hits))
				}
			}
			b.StopTimer()
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
