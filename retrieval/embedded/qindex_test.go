package embedded

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

// forceQuantized makes every vector search of the test use the quantised
// index, with a compaction past compact delta rows and tombstones.
func forceQuantized(t *testing.T, compact int) {
	t.Helper()
	oldMax, oldCompact := exactMaxFloats, compactAt
	exactMaxFloats, compactAt = 0, compact
	t.Cleanup(func() { exactMaxFloats, compactAt = oldMax, oldCompact })
}

// exactTop is the brute-force top k of the live documents for q, over
// their vectors as stored (asStored).
func exactTop(docs []retrieval.Document, vecs [][]float32, q []float32, k int, f retrieval.Filter) []idScore {
	sims := make([]float64, len(vecs))
	for i, v := range asStored(vecs) {
		sims[i] = testfixture.Cosine(q, v)
	}
	r := bruteForce(docs, sims, f)
	return r[:min(k, len(r))]
}

// clustered is n random vectors whose first 300 are near copies of the
// first's direction (their cosines to it differ by less than the
// quantisation error), and that direction.
func clustered(r *mrand.Rand, n, dims int) ([][]float32, []float32) {
	vecs := testfixture.RandomVectors(r, n, dims)
	center := append([]float32(nil), vecs[0]...)
	for i := 0; i < 300; i++ {
		for j := range vecs[i] {
			vecs[i][j] = center[j] + 0.05*vecs[i][j]
		}
	}
	return vecs, center
}

func TestDot7EqualsTheIntegerDotProduct(t *testing.T) {
	r := mrand.New(mrand.NewPCG(1, 2))
	for _, dims := range []int{1, 7, 8, 9, 384, 1000} {
		q := testfixture.RandomVectors(r, 1, dims)[0]
		normalize(q, q)
		for _, v := range [][]float32{testfixture.RandomVectors(r, 1, dims)[0], q} {
			u := make([]float32, dims)
			normalize(u, v)
			codes := make([]byte, paddedDims(dims))
			scale, sum := quantize(codes, u)
			qq := newQuery(q)
			// Σ q'·c from the codes, by plain integer arithmetic.
			var m float64
			for _, x := range q {
				m = max(m, math.Abs(float64(x)))
			}
			var want int64
			for i := range dims {
				c := int64(codes[i]) - codeOffset
				if c < -quantLevels || c > quantLevels {
					t.Fatalf("dims %d: code %d out of range", dims, c)
				}
				want += int64(math.Round(float64(q[i])*quantLevels/m)) * c
			}
			var s int64
			for i := range dims {
				s += int64(codes[i]) - codeOffset
			}
			if s != int64(sum) {
				t.Errorf("dims %d: sum %d, want %d", dims, sum, s)
			}
			got := dot7(qq.words, codes) - qq.bias - queryOffset*int64(sum)
			if got != want {
				t.Errorf("dims %d: Σq'c = %d, want %d", dims, got, want)
			}
			// The approximate cosine is within the contract's bound.
			t0 := float32(m / quantLevels)
			approx := float64(qq.approx(codes, scale, sum) * t0)
			exact := float64(dot(q, u))
			sd := math.Sqrt(float64(paddedDims(dims)))
			if bound := float64(scale+t0)*sd/2 + float64(scale*t0)*sd*sd/4; math.Abs(approx-exact) > bound {
				t.Errorf("dims %d: approx %v exact %v, beyond %v", dims, approx, exact, bound)
			}
		}
	}
	// Every lane at its maximum: no carry between lanes.
	codes := make([]byte, 16)
	words := make([]uint64, 4)
	for i := range codes {
		codes[i] = 2*quantLevels + 1
	}
	for i := range words {
		words[i] = 126 | 126<<16 | 126<<32 | 126<<48
	}
	if got, want := dot7(words, codes), int64(16*126*127); got != want {
		t.Errorf("dot7 at the lane maximum = %d, want %d", got, want)
	}
}

func TestQuantizedSearchRecallAgainstExact(t *testing.T) {
	forceQuantized(t, 2048)
	ctx := context.Background()
	const n, dims, k = 4000, 64, 10
	r := mrand.New(mrand.NewPCG(3, 4))
	docs := testfixture.VectorDocs(n)
	// 40 tight clusters: many near neighbours whose cosines differ by about
	// the quantisation error, as in embeddings of similar code.
	centers := testfixture.RandomVectors(r, 40, dims)
	vecs := testfixture.RandomVectors(r, n, dims)
	for i, v := range vecs {
		for j := range v {
			v[j] = centers[i%40][j] + 0.15*v[j]
		}
	}
	b := openVec(t, "", WithVectorModel("random", dims))
	if err := b.UpsertVectors(ctx, docs, vecs); err != nil {
		t.Fatal(err)
	}
	filters := []retrieval.Filter{{}, {Kinds: []string{"method"}}, {ExcludeTests: true, Languages: []string{"python"}}}
	found, total := 0, 0
	for qi := 0; qi < 40; qi++ {
		q := testfixture.RandomVectors(r, 1, dims)[0]
		for j := range q {
			q[j] = centers[qi][j] + 0.15*q[j]
		}
		for _, f := range filters {
			want := exactTop(docs, vecs, q, k, f)
			hits, err := b.QueryVector(ctx, q, k, f)
			if err != nil {
				t.Fatal(err)
			}
			in := map[string]bool{}
			for _, h := range hits {
				in[h.Document.ID] = true
			}
			for _, w := range want {
				total++
				if in[w.ID] {
					found++
				}
			}
		}
	}
	recall := float64(found) / float64(total)
	t.Logf("recall@%d = %.3f", k, recall)
	if recall < 0.95 {
		t.Errorf("recall@%d = %.3f (%d/%d), want ≥ 0.95", k, recall, found, total)
	}
	if b.qcache.Load() == nil {
		t.Fatal("the quantised index was not used")
	}
}

func TestQuantizedHitsCarryExactScoresInExactOrder(t *testing.T) {
	forceQuantized(t, 2048)
	ctx := context.Background()
	const dims = 32
	r := mrand.New(mrand.NewPCG(5, 6))
	docs := testfixture.VectorDocs(600)
	vecs := testfixture.RandomVectors(r, 600, dims)
	// Ties: seven documents share one direction at lengths 2^0..2^6 (so
	// their unit vectors are bit-identical); docs[99] has the largest id.
	docs[99].ID, docs[103].ID = docs[103].ID, docs[99].ID
	for i := 100; i < 106; i++ {
		vecs[i] = make([]float32, dims)
		for j := range vecs[i] {
			vecs[i][j] = vecs[99][j] * float32(int(1)<<(i-99))
		}
	}
	b := openVec(t, "", WithVectorModel("random", dims))
	if err := b.UpsertVectors(ctx, docs, vecs); err != nil {
		t.Fatal(err)
	}
	for qi, q := range append([][]float32{vecs[99]}, testfixture.RandomVectors(r, 10, dims)...) {
		hits, err := b.QueryVector(ctx, q, 20, retrieval.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		// The exact search's float32 arithmetic: the scores must be those
		// of the stored vectors (binary16, read back), not of their codes.
		qn := make([]float32, dims)
		normalize(qn, q)
		byID := map[string][]float32{}
		for i, v := range asStored(vecs) {
			byID[docs[i].ID] = v
		}
		for i, h := range hits {
			u := byID[h.Document.ID]
			if want := float64(dot(qn, u)); h.Score != want {
				t.Errorf("query %d hit %d %s: score %v, want exactly %v", qi, i, h.Document.ID, h.Score, want)
			}
			if i > 0 && (hits[i-1].Score < h.Score || hits[i-1].Score == h.Score && hits[i-1].Document.ID > h.Document.ID) {
				t.Errorf("query %d: hit %d (%s %v) after (%s %v)", qi, i, h.Document.ID, h.Score, hits[i-1].Document.ID, hits[i-1].Score)
			}
		}
		want := exactTop(docs, vecs, q, 20, retrieval.Filter{})
		if diff := cmp.Diff(want, idScores(hits), cmpopts.EquateApprox(0, 1e-5)); diff != "" {
			t.Errorf("query %d (-exact +quantised):\n%s", qi, diff)
		}
	}
}

func TestQuantizedSearchForgetsDeletedAndFindsRewrittenDocuments(t *testing.T) {
	for _, compact := range []int{1 << 20, 1} { // edits stay in the delta; every search compacts
		t.Run(fmt.Sprint("compactAt=", compact), func(t *testing.T) {
			forceQuantized(t, compact)
			ctx := context.Background()
			const n, dims, k = 1500, 32, 10
			r := mrand.New(mrand.NewPCG(7, 8))
			docs := testfixture.VectorDocs(n)
			// Deleting the cluster leaves a pool full of dead rows unless
			// they are skipped.
			vecs, center := clustered(r, n, dims)
			path := filepath.Join(t.TempDir(), "v.db")
			b := openVec(t, path, WithVectorModel("random", dims))
			if err := b.UpsertVectors(ctx, docs, vecs); err != nil {
				t.Fatal(err)
			}
			if err := b.CompactVectors(ctx); err != nil {
				t.Fatal(err)
			}
			if files := SidecarFiles(path); len(files) != 1 {
				t.Fatalf("sidecar files after CompactVectors: %v", files)
			}
			// Within the cluster, codes cannot order near copies (their
			// cosines differ by less than the quantisation error): the
			// center is asked for only once the cluster is gone.
			check := func(step string, docs []retrieval.Document, vecs [][]float32, extra ...[]float32) {
				t.Helper()
				for _, q := range append(extra, vecs[len(vecs)-1], testfixture.RandomVectors(r, 1, dims)[0]) {
					hits, err := b.QueryVector(ctx, q, k, retrieval.Filter{})
					if err != nil {
						t.Fatal(err)
					}
					want := exactTop(docs, vecs, q, k, retrieval.Filter{})
					if diff := cmp.Diff(want, idScores(hits), cmpopts.EquateApprox(0, 1e-5)); diff != "" {
						t.Errorf("%s (-exact +quantised):\n%s", step, diff)
					}
				}
			}
			check("after the bulk write", docs, vecs)

			// Delete the cluster.
			var gone []string
			for _, d := range docs[:300] {
				gone = append(gone, d.ID)
			}
			if err := b.Delete(ctx, gone); err != nil {
				t.Fatal(err)
			}
			docs, vecs = docs[300:], vecs[300:]
			check("after deleting 300", docs, vecs, center)

			// Rewrite 50 documents with new vectors and add 20 new ones.
			re := append([]retrieval.Document(nil), docs[:50]...)
			revecs := testfixture.RandomVectors(r, 50, dims)
			copy(vecs[:50], revecs)
			add := testfixture.VectorDocs(n + 20)[n:]
			addvecs := testfixture.RandomVectors(r, 20, dims)
			if err := b.UpsertVectors(ctx, append(re, add...), append(revecs, addvecs...)); err != nil {
				t.Fatal(err)
			}
			docs, vecs = append(docs, add...), append(vecs, addvecs...)
			check("after rewriting 50 and adding 20", docs, vecs, center, revecs[0])

			// A new Backend on the same file (another process) agrees.
			b2 := openVec(t, path, WithVectorModel("random", dims))
			b = b2
			check("in a second backend", docs, vecs, center, revecs[0])
		})
	}
}

func TestDamagedBaseFileIsRebuiltNotBelieved(t *testing.T) {
	forceQuantized(t, 2048)
	ctx := context.Background()
	const n, dims, k = 800, 16, 10
	r := mrand.New(mrand.NewPCG(9, 10))
	docs := testfixture.VectorDocs(n)
	vecs := testfixture.RandomVectors(r, n, dims)
	path := filepath.Join(t.TempDir(), "v.db")
	b := openVec(t, path, WithVectorModel("random", dims))
	if err := b.UpsertVectors(ctx, docs, vecs); err != nil {
		t.Fatal(err)
	}
	if err := b.CompactVectors(ctx); err != nil {
		t.Fatal(err)
	}
	file := segmentFile(path, "random", dims)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	damage := map[string]func([]byte) []byte{
		"rids shifted by one": func(b []byte) []byte {
			for i := 0; i < n; i++ {
				off := segmentHeader + 8*i
				binary.LittleEndian.PutUint64(b[off:], binary.LittleEndian.Uint64(b[off:])+1)
			}
			return b
		},
		"truncated":        func(b []byte) []byte { return b[:len(b)-1] },
		"other dimensions": func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 8); return b },
		"another database": func(b []byte) []byte { b[40] ^= 1; return b },
		"not a base file":  func(b []byte) []byte { return []byte("hello") },
	}
	for name, f := range damage {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(file, f(append([]byte(nil), good...)), 0o644); err != nil {
				t.Fatal(err)
			}
			// A new Backend (a new process) has only the file to go by.
			b := openVec(t, path, WithVectorModel("random", dims))
			for qi := 0; qi < 5; qi++ {
				q := testfixture.RandomVectors(r, 1, dims)[0]
				hits, err := b.QueryVector(ctx, q, k, retrieval.Filter{})
				if err != nil {
					t.Fatal(err)
				}
				want := exactTop(docs, vecs, q, k, retrieval.Filter{})
				if diff := cmp.Diff(want, idScores(hits), cmpopts.EquateApprox(0, 1e-5)); diff != "" {
					t.Errorf("query %d (-exact +quantised):\n%s", qi, diff)
				}
			}
		})
	}
}

func TestMalformedStoredVectorIsNamedByTheQuantizedSearch(t *testing.T) {
	forceQuantized(t, 2048)
	ctx := context.Background()
	b := openVec(t, "", WithVectorModel("m", 4))
	docs := testfixture.VectorDocs(50)
	vecs := testfixture.RandomVectors(mrand.New(mrand.NewPCG(1, 1)), 50, 4)
	if err := b.UpsertVectors(ctx, docs, vecs); err != nil {
		t.Fatal(err)
	}
	nan := make([]byte, 16)
	binary.LittleEndian.PutUint32(nan[4:], math.Float32bits(float32(math.NaN())))
	for name, blob := range map[string][]byte{"short": {1, 2, 3}, "NaN": nan} {
		t.Run(name, func(t *testing.T) {
			if _, err := b.db.ExecContext(ctx, "UPDATE vectors SET vec = ?, gen = gen + 1000 WHERE doc_rid = (SELECT rid FROM docs WHERE id = ?)", blob, docs[7].ID); err != nil {
				t.Fatal(err)
			}
			b.db.ExecContext(ctx, "UPDATE vector_generation SET gen = gen + 1000")
			_, err := b.QueryVector(ctx, vecs[7], 5, retrieval.Filter{})
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("document %q: stored vector", docs[7].ID)) {
				t.Errorf("err = %v, want one naming the stored vector of %s", err, docs[7].ID)
			}
		})
	}
}

func TestSmallSetsAreSearchedExactly(t *testing.T) {
	ctx := context.Background()
	const n, dims, k = 1000, 32, 10
	r := mrand.New(mrand.NewPCG(11, 12))
	docs := testfixture.VectorDocs(n)
	// Only the exact search orders the near copies.
	vecs, center := clustered(r, n, dims)
	b := openVec(t, "", WithVectorModel("random", dims))
	if err := b.UpsertVectors(ctx, docs, vecs); err != nil {
		t.Fatal(err)
	}
	if n*dims > exactMaxFloats {
		t.Fatalf("%d × %d is above the exact search's bound %d", n, dims, exactMaxFloats)
	}
	for _, q := range [][]float32{center, vecs[1], vecs[2]} {
		hits, err := b.QueryVector(ctx, q, k, retrieval.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		want := exactTop(docs, vecs, q, k, retrieval.Filter{})
		if diff := cmp.Diff(want, idScores(hits), cmpopts.EquateApprox(0, 1e-6)); diff != "" {
			t.Errorf("(-exact +got):\n%s", diff)
		}
	}
}
