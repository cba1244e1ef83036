package embedded

import (
	"context"
	"fmt"
	mrand "math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

var vbench struct {
	mu sync.Mutex
	by map[int]*Backend
}

// vectorBackend returns an in-memory backend holding n random 384-dim
// vectors (seed fixed), built once per n and with its vector cache loaded.
func vectorBackend(b *testing.B, n int) *Backend {
	vbench.mu.Lock()
	defer vbench.mu.Unlock()
	if be := vbench.by[n]; be != nil {
		return be
	}
	ctx := context.Background()
	be, err := Open(ctx, "", WithVectorModel("random-384", 384))
	if err != nil {
		b.Fatal(err)
	}
	r := mrand.New(mrand.NewPCG(1, 2))
	docs := testfixture.VectorDocs(n)
	vecs := testfixture.RandomVectors(r, n, 384)
	start := time.Now()
	for i := 0; i < n; i += 5000 {
		j := min(i+5000, n)
		if err := be.UpsertVectors(ctx, docs[i:j], vecs[i:j]); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("stored %d×384 vectors in %v", n, time.Since(start))
	start = time.Now()
	if _, err := be.QueryVector(ctx, vecs[0], 10, retrieval.Filter{}); err != nil {
		b.Fatal(err)
	}
	b.Logf("first query (loads the cache) %v", time.Since(start))
	if vbench.by == nil {
		vbench.by = map[int]*Backend{}
	}
	vbench.by[n] = be
	return be
}

// BenchmarkQueryVector measures one exact top-10 cosine search over n
// random 384-dim vectors (in-memory database, vector cache warm), without
// and with a filter (kind "method": a third of the documents).
func BenchmarkQueryVector(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		for _, filtered := range []bool{false, true} {
			name := fmt.Sprintf("n=%d", n)
			var f retrieval.Filter
			if filtered {
				name += "/filter=kind"
				f.Kinds = []string{"method"}
			}
			b.Run(name, func(b *testing.B) {
				be := vectorBackend(b, n)
				qs := testfixture.RandomVectors(mrand.New(mrand.NewPCG(3, 4)), 64, 384)
				ctx := context.Background()
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					hits, err := be.QueryVector(ctx, qs[i%len(qs)], 10, f)
					if err != nil {
						b.Fatal(err)
					}
					if len(hits) != 10 {
						b.Fatalf("%d hits", len(hits))
					}
				}
			})
		}
	}
}

// BenchmarkDot384 measures the scoring kernel on one pair of 384-dim
// vectors.
func BenchmarkDot384(b *testing.B) {
	vs := testfixture.RandomVectors(mrand.New(mrand.NewPCG(5, 6)), 2, 384)
	var s float32
	for b.Loop() {
		s += dot(vs[0], vs[1])
	}
	_ = s
}

// BenchmarkIndexSearch measures the in-memory scan alone (no SQL) over
// 100,000 × 384 vectors with 1, 2 and 4 goroutines.
func BenchmarkIndexSearch(b *testing.B) {
	be := vectorBackend(b, 100_000)
	ix := be.vcache.Load()
	qs := testfixture.RandomVectors(mrand.New(mrand.NewPCG(3, 4)), 64, 384)
	for _, q := range qs {
		normalize(q, q)
	}
	defer func(w int) { maxSearchWorkers = w }(maxSearchWorkers)
	for _, w := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			maxSearchWorkers = w
			for i := 0; b.Loop(); i++ {
				if got := ix.search(qs[i%len(qs)], 10, nil); len(got) != 10 {
					b.Fatal(len(got))
				}
			}
		})
	}
}

// BenchmarkLoadIndex measures loading 100,000 × 384 vectors from SQLite
// into memory (what the first vector search after a write pays).
func BenchmarkLoadIndex(b *testing.B) {
	be := vectorBackend(b, 100_000)
	ctx := context.Background()
	for b.Loop() {
		tx, err := be.db.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := be.loadIndex(ctx, tx, 0); err != nil {
			b.Fatal(err)
		}
		tx.Rollback()
	}
}
