package store

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/rlm-dev/rlm/sourcefacts"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestPackedFactsUnpackToTheExtractedFacts: a check holds each changed
// file's facts packed until it publishes them; what writeFile unpacks is
// what was extracted, every field of every definition, reference and
// import (an empty list may come back nil); damaged packed facts are an
// error.
func TestPackedFactsUnpackToTheExtractedFacts(t *testing.T) {
	ex := newCountingExtractor(t)
	for _, tc := range []struct{ path, src string }{
		{"a/calls.go", "package a\n\nimport (\n\t\"fmt\"\n\ts \"strings\"\n)\n\n// T is a type.\ntype T struct{ n int }\n\n// Run runs.\nfunc (t *T) Run(x string) string { fmt.Println(t.n); return s.ToUpper(x) + s.TrimSpace(x) }\n"},
		{"b/empty.go", "package b\n"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			ff, err := ex.Extract(context.Background(), tc.path, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			p, err := packFacts(ff)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.unpack()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(ff, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("unpacked facts differ from the extracted ones (-extracted +unpacked):\n%s", diff)
			}
			if tc.path == "a/calls.go" && (len(ff.References) < 3 || len(ff.Symbols) < 3) {
				t.Fatalf("%d references, %d symbols: the case proves little", len(ff.References), len(ff.Symbols))
			}
		})
	}
	if ff, err := (packedFacts("not gob")).unpack(); err == nil {
		t.Errorf("damaged packed facts unpacked without an error, into %+v", ff)
	}
}

// fillEvery sets every field v holds (nested structs, two elements of
// every slice) to a value of its own: strings "s1", "s2", ..., numbers 1,
// 2, ... (every other one negative, where signed), bools true.
func fillEvery(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fillEvery(v.Field(i), n)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fillEvery(v.Index(i), n)
		}
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n))
	case reflect.Int, reflect.Int64:
		x := int64(*n) << (*n % 40)
		if *n%2 == 1 {
			x = -x
		}
		v.SetInt(x)
	case reflect.Uint64:
		v.SetUint(math.MaxUint64 - uint64(*n))
	case reflect.Bool:
		v.SetBool(true)
	default:
		panic(fmt.Sprintf("fillEvery: a field of kind %s: teach the test (and packFacts) about it", v.Kind()))
	}
}

// TestPackedFactsKeepEveryField: packed and unpacked, facts with every
// field set (a field added to FileFacts, Provenance, Symbol, Reference,
// Import or Range included) come back the same; every truncation of the
// packed bytes, and a byte added, is an error, never a panic.
func TestPackedFactsKeepEveryField(t *testing.T) {
	ff := &sourcefacts.FileFacts{}
	n := 0
	fillEvery(reflect.ValueOf(ff).Elem(), &n)
	p, err := packFacts(ff)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.unpack()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ff, got); diff != "" {
		t.Fatalf("unpacked facts differ (-packed +unpacked):\n%s", diff)
	}
	for i := range len(p) {
		if got, err := p[:i].unpack(); err == nil {
			t.Fatalf("the first %d of %d packed bytes unpacked without an error, into %+v", i, len(p), got)
		}
	}
	if got, err := append(slices.Clone(p), 0).unpack(); err == nil {
		t.Fatalf("packed bytes with one more unpacked without an error, into %+v", got)
	}
}
