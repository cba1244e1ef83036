package sourcefacts

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestContentHashStringParsesBackExactly: ParseContentHash inverts String
// for any hash, and refuses every other spelling (so a hash a client sends
// back names exactly one byte sequence).
func TestContentHashStringParsesBackExactly(t *testing.T) {
	for _, h := range []ContentHash{
		{}, HashBytes(nil), HashBytes([]byte("package main\n")), {XXH64: math.MaxUint64, Len: math.MaxInt64}, {XXH64: 1, Len: 7},
	} {
		got, err := ParseContentHash(h.String())
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		if diff := cmp.Diff(h, got); diff != "" {
			t.Errorf("%s parsed back as %+v (-want +got)\n%s", h, got, diff)
		}
	}
	for _, s := range []string{
		"", "xxh64:", "xxh64:0123456789abcdef", "xxh64:0123456789abcdef:", "XXH64:0123456789abcdef:1",
		"xxh64:0123456789ABCDEF:1", "xxh64:0123456789abcde:1", "xxh64:0123456789abcdef0:1", "xxh64:0123456789abcdef:-1",
		"xxh64:0123456789abcdef:+1", "xxh64:0123456789abcdef:01", "xxh64:0123456789abcdef:1 ", " xxh64:0123456789abcdef:1",
		"xxh64:0123456789abcdef:1:2", "xxh64:0123456789abcdef:9223372036854775808", "xxh64:g123456789abcdef:1",
		"sha256:0123456789abcdef:1",
	} {
		if h, err := ParseContentHash(s); !errors.Is(err, ErrBadContentHash) {
			t.Errorf("ParseContentHash(%q) = %v, %v; want ErrBadContentHash", s, h, err)
		}
	}
}

// TestContentHashStringIsTheFormattedForm: String spells every hash as
// fmt's "xxh64:%016x:%d" does — leading zeros, the largest and smallest
// values, negative lengths (never stored, still spelled the same).
func TestContentHashStringIsTheFormattedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 100))
	hashes := []ContentHash{{}, {XXH64: 1}, {XXH64: 0xf, Len: 10}, {XXH64: 0xf0, Len: 9}, {XXH64: math.MaxUint64, Len: math.MaxInt64},
		{XXH64: 1 << 63, Len: math.MinInt64}, {Len: -1}, {XXH64: 0x0123456789abcdef, Len: 100}}
	for range 1000 {
		hashes = append(hashes, ContentHash{XXH64: rng.Uint64() >> rng.IntN(64), Len: rng.Int64N(1 << rng.IntN(63))})
	}
	for _, h := range hashes {
		if got, want := h.String(), fmt.Sprintf("xxh64:%016x:%d", h.XXH64, h.Len); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}
