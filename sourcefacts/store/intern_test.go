package store

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// TestFactsReadBackShareRepeatedStringsAndSpareNoCapacity: the facts of
// two files that call the same names hold one copy of each repeated
// name, kind and receiver, and a file's fact slices have no spare
// capacity — what a caller holding a whole tree's facts keeps is the
// facts (issue 13: cold index peak RSS).
func TestFactsReadBackShareRepeatedStringsAndSpareNoCapacity(t *testing.T) {
	ctx := testCtx(t)
	root := t.TempDir()
	var body strings.Builder
	for i := range 100 { // 100 calls: an appended slice would have spare capacity
		fmt.Fprintf(&body, "\tfmt.Println(%d)\n", i)
	}
	for _, name := range []string{"a.go", "b.go"} {
		writeFile(t, root, name, []byte("package p\n\nimport \"fmt\"\n\nfunc F() {\n"+body.String()+"}\n"))
	}
	s := openStore(t, root, &Options{Extractor: newCountingExtractor(t), ExtractorVersion: sourcefacts.ExtractorVersion})
	snap := snapshot(t, s, Scope{}, SnapshotOptions{})
	a, err := snap.Facts(ctx, "a.go")
	if err != nil {
		t.Fatal(err)
	}
	b, err := snap.Facts(ctx, "b.go")
	if err != nil {
		t.Fatal(err)
	}
	ra, rb := a.Facts.References, b.Facts.References
	if len(ra) < 100 || len(ra) != len(rb) {
		t.Fatalf("%d and %d references, want the same 100 or more", len(ra), len(rb))
	}
	same := func(x, y string) bool { return unsafe.StringData(x) == unsafe.StringData(y) }
	for i := range ra {
		if ra[i].Name != rb[i].Name || !same(ra[i].Name, rb[i].Name) || !same(ra[i].Kind, rb[i].Kind) || !same(ra[i].Receiver, rb[i].Receiver) {
			t.Fatalf("reference %d: %q/%q (%s) in a.go and b.go are separate copies", i, ra[i].Receiver, ra[i].Name, ra[i].Kind)
		}
	}
	if !same(a.Facts.Symbols[0].Name, b.Facts.Symbols[0].Name) || !same(a.Facts.Imports[0].Path, b.Facts.Imports[0].Path) {
		t.Errorf("the symbol %q or the import %q of a.go and b.go are separate copies", a.Facts.Symbols[0].Name, a.Facts.Imports[0].Path)
	}
	if cap(ra) != len(ra) || cap(a.Facts.Symbols) != len(a.Facts.Symbols) {
		t.Errorf("references: len %d cap %d; symbols: len %d cap %d; want no spare capacity", len(ra), cap(ra), len(a.Facts.Symbols), cap(a.Facts.Symbols))
	}
}
