package embedded

import (
	"encoding/binary"
	"math"
)

// Scalar quantisation of unit vectors to 7-bit codes, and the
// multiply-based (SWAR) dot product over them.
//
// Contract. A stored vector v (finite, not zero: checkVector) is scaled to
// unit length u = v/‖v‖ (float64 norm, as normalize) and quantised
// symmetrically per vector with L = quantLevels = 63 levels on each side:
//
//	s = max_i |u_i| / L      (float32; s > 0 since u ≠ 0)
//	c_i = round(u_i / s)     (math.Round: half away from zero; c_i ∈ [-L, L])
//	stored code  w_i = c_i + 64 ∈ [1, 127] (one byte), padded with w = 64
//	(c = 0) to a multiple of 8 dimensions; sumC = Σ c_i (int32)
//
// so u_i ≈ s·c_i with |u_i − s·c_i| ≤ s/2. A query unit vector q is
// quantised the same way to q'_i ∈ [-L, L] with scale t, offset to
// p_i = q'_i + 63 ∈ [0, 126]. The approximate cosine is
//
//	â(v) = s · (Σ_i p_i·w_i − 64·Σq' − 63·sumC − 63·64·D)  (= s·Σ q'_i·c_i)
//
// times the common factor t, which does not change the order and is dropped
// (D is the padded dimension count). This is the per-vector "SQ8" scalar
// quantisation of FAISS (IndexScalarQuantizer) and of the int8 quantisation
// of Qdrant and Lucene, at 7 bits so that the dot product runs four lanes
// per 64-bit multiply (dot7): each product p·w ≤ 126·127 = 16,002 and four
// of them ≤ 64,008 < 2^16, so no lane carries into the next. Error: by
// Cauchy–Schwarz |u·q − s·t·Σ c_i q'_i| ≤ (s+t)·√D/2 + s·t·D/4; measured on
// GOROOT/src's 236,777 local-embedder vectors, re-ranking the best 20 codes
// of each of 300 queries found every exact top-10 document (bench/vector
// -tree, docs/BENCHMARKS.md).

// quantLevels is L: codes lie in [-L, L].
const quantLevels = 63

// codeOffset is added to a code to make it a byte in [1, 127]; queryOffset
// to a query code, making it [0, 126].
const (
	codeOffset  = 64
	queryOffset = 63
)

// paddedDims rounds dims up to a multiple of 8: codes are read 8 bytes at
// a time.
func paddedDims(dims int) int { return (dims + 7) &^ 7 }

// quantize writes the codes of the unit vector u into dst (paddedDims(len(u))
// bytes) and returns its scale s and Σ c_i.
func quantize(dst []byte, u []float32) (scale float32, sum int32) {
	var m float64
	for _, x := range u {
		m = max(m, math.Abs(float64(x)))
	}
	scale = float32(m / quantLevels)
	inv := 1 / float64(scale)
	for i, x := range u {
		c := int32(math.Round(float64(x) * inv))
		c = min(max(c, -quantLevels), quantLevels) // float32 rounding of scale
		dst[i] = byte(c + codeOffset)
		sum += c
	}
	for i := len(u); i < len(dst); i++ {
		dst[i] = codeOffset
	}
	return scale, sum
}

// query is a quantised query: per 8 dimensions two 64-bit words holding
// p of the even and of the odd dimensions in reverse lane order (see dot7),
// and the constant of the approximate score.
type query struct {
	words []uint64
	bias  int64 // 64·Σq' + 63·64·D
}

// newQuery quantises the unit vector q (see the contract above).
func newQuery(q []float32) query {
	d := paddedDims(len(q))
	p := make([]uint64, d)
	var m float64
	for _, x := range q {
		m = max(m, math.Abs(float64(x)))
	}
	inv := quantLevels / m
	var sum int64
	for i := range p {
		var c int64
		if i < len(q) {
			c = int64(math.Round(float64(q[i]) * inv))
			c = min(max(c, -quantLevels), quantLevels)
		}
		sum += c
		p[i] = uint64(c + queryOffset)
	}
	words := make([]uint64, 0, d/4)
	for i := 0; i < d; i += 8 {
		words = append(words,
			p[i+6]|p[i+4]<<16|p[i+2]<<32|p[i]<<48,
			p[i+7]|p[i+5]<<16|p[i+3]<<32|p[i+1]<<48)
	}
	return query{words: words, bias: codeOffset*sum + queryOffset*codeOffset*int64(d)}
}

// lanes masks the even bytes of a word into four 16-bit lanes.
const lanes = 0x00FF00FF00FF00FF

// dot7 is Σ p_i·w_i over the codes w (4·len(words) bytes). Eight code
// bytes split into two words of four 16-bit lanes (even and odd
// dimensions); multiplying such a word by the query word with the matching
// p in reverse lane order puts Σ of the four products in the top lane (the
// X³ coefficient of the polynomial product), the lower lanes holding
// partial sums that never carry into it (see the contract).
func dot7(words []uint64, w []byte) int64 {
	w = w[:4*len(words)]
	var s0, s1, s2, s3 uint64
	i := 0
	for ; i+3 < len(words); i += 4 { // 16 dimensions, bounds checked once
		b := w[4*i : 4*i+16 : 4*i+16]
		ws := words[i : i+4 : i+4]
		x, y := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
		s0 += ((x & lanes) * ws[0]) >> 48
		s1 += (((x >> 8) & lanes) * ws[1]) >> 48
		s2 += ((y & lanes) * ws[2]) >> 48
		s3 += (((y >> 8) & lanes) * ws[3]) >> 48
	}
	for ; i+1 < len(words); i += 2 {
		x := binary.LittleEndian.Uint64(w[4*i:])
		s0 += ((x & lanes) * words[i]) >> 48
		s1 += (((x >> 8) & lanes) * words[i+1]) >> 48
	}
	return int64(s0 + s1 + s2 + s3)
}

// approx is the approximate score of a vector with the given codes, scale
// and Σc against q.
func (q *query) approx(codes []byte, scale float32, sumC int32) float32 {
	return scale * float32(dot7(q.words, codes)-q.bias-queryOffset*int64(sumC))
}
