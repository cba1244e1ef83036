package testfixture

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"unicode"

	"github.com/rlm-dev/rlm/retrieval"
)

// WordEmbedder is a deterministic bag-of-words retrieval.Embedder for
// tests: each lower-cased word (run of letters and digits) of a text adds ±1
// to three hashed components of its vector (WordVector). Texts sharing words
// get similar vectors. Hooks let a test slow it down, fail it, or corrupt
// its output. It is safe for concurrent use when the hooks are.
type WordEmbedder struct {
	ModelID string
	Dims    int
	// Calls counts Embed calls; Texts counts the texts of calls that got
	// past Before and the context check.
	Calls atomic.Int64
	Texts atomic.Int64
	// Before, when set, runs at the start of each call with its 1-based
	// number; an error it returns is Embed's error.
	Before func(ctx context.Context, call int64) error
	// After, when set, may rewrite the vectors of each call.
	After func(vecs [][]float32) [][]float32
}

var _ retrieval.Embedder = (*WordEmbedder)(nil)

// Model returns w.ModelID.
func (w *WordEmbedder) Model() string { return w.ModelID }

// Dimensions returns w.Dims.
func (w *WordEmbedder) Dimensions() int { return w.Dims }

// Embed returns WordVector(text, w.Dims) for each text, in order, after
// Before and before After; a done ctx gives its error.
func (w *WordEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	call := w.Calls.Add(1)
	if w.Before != nil {
		if err := w.Before(ctx, call); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w.Texts.Add(int64(len(texts)))
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = WordVector(t, w.Dims)
	}
	if w.After != nil {
		out = w.After(out)
	}
	return out, nil
}

// WordVector is the dims-long vector of text: for each lower-cased word,
// ±1 at three components picked by its SHA-256 (not normalised). A text
// without words, or whose words cancel out, gets the unit vector e0, so
// every vector has a cosine direction.
func WordVector(text string, dims int) []float32 {
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
	for _, x := range v {
		if x != 0 {
			return v
		}
	}
	v[0] = 1
	return v
}

// RandomVectors returns n vectors of dims standard normal values from r.
func RandomVectors(r *rand.Rand, n, dims int) [][]float32 {
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

// Cosine is the cosine similarity of a and b (equal lengths), computed in
// float64.
func Cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}
