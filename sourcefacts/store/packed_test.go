package store

import (
	"context"
	"testing"

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
