package sourcefacts

import (
	"errors"
	"math"
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
