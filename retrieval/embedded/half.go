package embedded

import "math"

// IEEE 754 binary16 ("half precision"): 1 sign bit, 5 exponent bits (bias
// 15), 10 fraction bits. The vectors table stores unit vectors so
// (encodeVector).

// float32ToHalf is the binary16 nearest to f, ties to even: values beyond
// the largest finite half (65504) become ±Inf, those below the smallest
// subnormal (2^-24) half of it ±0, NaN stays NaN (quiet).
func float32ToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	frac := b & 0x7fffff
	switch {
	case exp == 0xff: // Inf or NaN
		if frac != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp == 0 && frac == 0:
		return sign
	}
	// The value is m · 2^(e-23) with m the 24-bit significand (the
	// implicit bit set for normals).
	e := exp - 127
	m := frac | 0x800000
	if exp == 0 { // a float32 subnormal: far below the half range
		return sign
	}
	if e > 15 {
		return sign | 0x7c00
	}
	var shift int32 // significand bits dropped
	var hexp uint32 // the half's biased exponent field
	if e >= -14 {
		shift, hexp = 13, uint32(e+15)
	} else { // a half subnormal: 2^-24 units
		shift, hexp = -e-1, 0
		if shift > 25 {
			return sign
		}
	}
	kept := m >> shift
	rest := m & (1<<shift - 1)
	halfway := uint32(1) << (shift - 1)
	if rest > halfway || rest == halfway && kept&1 == 1 {
		kept++
	}
	// For normals kept holds the implicit bit (bit 10); adding the
	// exponent field above it lets a carry out of the fraction bump the
	// exponent, up to Inf (0x7c00) exactly.
	if hexp > 0 {
		return sign | uint16((hexp-1)<<10+kept)
	}
	return sign | uint16(kept) // a carry into bit 10 is the smallest normal
}

// halfToFloat32 is the float32 of the binary16 h (exact: every half is a
// float32).
func halfToFloat32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	case exp == 0:
		if frac == 0 {
			return math.Float32frombits(sign)
		}
		v := float32(frac) / (1 << 24) // subnormal: frac · 2^-24, exact
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}
