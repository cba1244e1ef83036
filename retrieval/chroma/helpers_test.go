package chroma

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"strings"
	"sync/atomic"
	"unicode"
)

// hashEmbedder is a deterministic bag-of-words embedder for tests: each
// lower-cased word adds ±1 to a few hashed dimensions; the result is
// L2-normalised. Texts sharing words get similar vectors.
type hashEmbedder struct {
	model string
	dims  int
	calls atomic.Int64
	fail  error
}

func (h *hashEmbedder) Model() string   { return h.model }
func (h *hashEmbedder) Dimensions() int { return h.dims }

func (h *hashEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	h.calls.Add(1)
	if h.fail != nil {
		return nil, h.fail
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = hashVector(t, h.dims)
	}
	return out, nil
}

func hashVector(text string, dims int) []float32 {
	v := make([]float32, dims)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		sum := sha256.Sum256([]byte(w))
		for k := 0; k < 4; k++ {
			x := binary.LittleEndian.Uint32(sum[4*k:])
			sign := float32(1)
			if x&1 == 1 {
				sign = -1
			}
			v[int(x>>1)%dims] += sign
		}
	}
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		v[0] = 1
		return v
	}
	inv := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= inv
	}
	return v
}
