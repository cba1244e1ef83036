package embedded

import (
	"context"
	"math"
	mrand "math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
)

// TestSameTopTenAsChroma stores the same 2,000 random 384-dim vectors
// (fixed seed) in the embedded backend and in a real Chroma server at
// $RLM_CHROMA_URL (start one with `eval "$(scripts/chroma-server.sh
// start)"`), and requires the same top-10 id set for 20 query vectors, with
// and without filters, and the same cosine similarities. Without
// RLM_CHROMA_URL it skips, except under CI (env CI non-empty), where it
// fails.
func TestSameTopTenAsChroma(t *testing.T) {
	url := testfixture.ChromaURL(t)
	const n, dims, queries, k = 2000, 384, 20, 10
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	cb, err := chroma.Open(ctx, chroma.Config{
		URL:              url,
		CollectionPrefix: testfixture.UniquePrefix("emb"),
		Model:            "random-384",
		Dimensions:       dims,
		// HNSW is approximate and its graph is built concurrently, so the
		// default ef_search of 400 occasionally (about one run in four
		// here) misses one of the exact top 10. ef_search = n and a denser
		// build make Chroma's search effectively exhaustive on 2,000
		// vectors, so exact agreement is a fair requirement.
		HNSW: chroma.HNSW{EfSearch: n, EfConstruction: 400},
	})
	if err != nil {
		t.Fatalf("chroma.Open %s: %v", url, err)
	}
	t.Cleanup(func() {
		if err := cb.DeleteCollection(context.Background()); err != nil {
			t.Errorf("drop collection: %v", err)
		}
		cb.Close()
	})
	eb := openVec(t, "", WithVectorModel("random-384", dims))

	r := mrand.New(mrand.NewPCG(1, 2))
	docs := testfixture.VectorDocs(n)
	vecs := testfixture.RandomVectors(r, n, dims)
	start := time.Now()
	if err := cb.UpsertVectors(ctx, docs, vecs); err != nil {
		t.Fatal(err)
	}
	t.Logf("chroma: upserted %d×%d in %v", n, dims, time.Since(start))
	if err := eb.UpsertVectors(ctx, docs, vecs); err != nil {
		t.Fatal(err)
	}

	filters := []retrieval.Filter{
		{},
		{ExcludeTests: true},
		{Kinds: []string{"method"}, Languages: []string{"go"}},
	}
	type result struct {
		ids    []string
		scores map[string]float64
	}
	collect := func(hits []retrieval.Hit) result {
		res := result{scores: map[string]float64{}}
		for _, h := range hits {
			res.ids = append(res.ids, h.Document.ID)
			res.scores[h.Document.ID] = h.Score
		}
		sort.Strings(res.ids)
		return res
	}
	total, worst, runs := 0, k, 0
	for q := 0; q < queries; q++ {
		qv := testfixture.RandomVectors(r, 1, dims)[0]
		for fi, f := range filters {
			if q%2 == 1 && fi > 0 {
				continue // filtered queries on every other vector
			}
			ch, err := cb.QueryVector(ctx, qv, k, f)
			if err != nil {
				t.Fatal(err)
			}
			em, err := eb.QueryVector(ctx, qv, k, f)
			if err != nil {
				t.Fatal(err)
			}
			c, e := collect(ch), collect(em)
			overlap := 0
			for id, es := range e.scores {
				if cs, ok := c.scores[id]; ok {
					overlap++
					if math.Abs(cs-es) > 1e-4 {
						t.Errorf("query %d filter %+v: %s cosine chroma %v, embedded %v", q, f, id, cs, es)
					}
				}
			}
			if diff := cmp.Diff(c.ids, e.ids); diff != "" {
				exact := bruteForceTop(docs, vecs, qv, k, f)
				t.Errorf("query %d filter %+v: top-%d ids differ, overlap %d/%d; exact float64 top-%d agrees with chroma: %v, with embedded: %v (-chroma +embedded):\n%s",
					q, f, k, overlap, k, k, cmp.Equal(exact, c.ids), cmp.Equal(exact, e.ids), diff)
			}
			for _, h := range em {
				if !testfixture.Passes(h.Document, f) {
					t.Errorf("query %d: embedded hit %s fails filter %+v", q, h.Document.ID, f)
				}
			}
			total += overlap
			worst = min(worst, overlap)
			runs++
		}
	}
	t.Logf("top-%d overlap with Chroma over %d queries (%d unfiltered): mean %.2f/%d, worst %d/%d",
		k, runs, queries, float64(total)/float64(runs), k, worst, k)
}

// bruteForceTop is the sorted id set of the exact float64 top-k.
func bruteForceTop(docs []retrieval.Document, vecs [][]float32, q []float32, k int, f retrieval.Filter) []string {
	sims := make([]float64, len(vecs))
	for i, v := range vecs {
		sims[i] = testfixture.Cosine(q, v)
	}
	ranked := bruteForce(docs, sims, f)
	var out []string
	for _, r := range ranked[:min(k, len(ranked))] {
		out = append(out, r.ID)
	}
	sort.Strings(out)
	return out
}
