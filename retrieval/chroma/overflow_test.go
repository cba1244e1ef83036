package chroma

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rlm-dev/rlm/retrieval"
)

// opcodeTable is shaped like go/cmd/compile/internal/ssa/opGen.go's
// opcodeTable, whose ~718 KB of references once stopped `rlm index
// --backend chroma` on GOROOT/src.
func opcodeTable() retrieval.Document {
	d := retrieval.Document{ID: "go/cmd/compile/internal/ssa/opGen.go#opcodeTable", Path: "go/cmd/compile/internal/ssa/opGen.go",
		Symbol: "opcodeTable", Qualified: "ssa.opcodeTable", Kind: "var", Language: "go", StartLine: 3000, EndLine: 40000,
		ContentHash: "xxh64:0123456789abcdef:1", Metadata: map[string]string{"scope": "cmd/compile/internal/ssa"}}
	for i := range 6000 {
		d.Refs = append(d.Refs, retrieval.Ref{Name: fmt.Sprintf("OpAMD64Op%05d", i), Kind: "type", Line: 3000 + i,
			Via: "scope", Scope: "cmd/compile/internal/ssa", Type: "Op"})
	}
	return d
}

// overflowRecords counts the records of b's overflow collection (0 when
// there is none).
func overflowRecords(t *testing.T, b *Backend) int {
	t.Helper()
	var info collectionInfo
	ctx := context.Background()
	err := b.c.do(ctx, "get", http.MethodGet, b.dbPath()+"/collections/"+url.PathEscape(OverflowCollectionName(b.name)), nil, &info)
	if isNotFound(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := b.c.do(ctx, "count", http.MethodGet, b.dbPath()+"/collections/"+url.PathEscape(info.ID)+"/count", nil, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOversizedReferencesAreKeptOutsideTheRecordAndFetchedWhole: a
// definition whose references are over a record's metadata bound is
// stored (not refused), Fetch returns all its references, and its overflow
// parts follow the record: replaced by a version that fits, they are gone;
// written again and deleted, they are gone; the collection dropped, the
// overflow collection is dropped with it.
func TestOversizedReferencesAreKeptOutsideTheRecordAndFetchedWhole(t *testing.T) {
	b := openLive(t, func(c *Config) { c.Limits = Limits{MaxDocumentBytes: 64 << 10} })
	ctx := context.Background()
	big := opcodeTable()
	if err := b.Upsert(ctx, []retrieval.Document{big}); err != nil {
		t.Fatalf("Upsert of %s: %v", big.ID, err)
	}
	got, err := b.Fetch(ctx, []string{big.ID})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]retrieval.Document{big}, got, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("Fetch (-want +got):\n%s", diff)
	}
	if n := overflowRecords(t, b); n < 2 {
		t.Fatalf("%d overflow parts, want the references split over several", n)
	}
	small := big
	small.Refs = big.Refs[:3]
	if err := b.Upsert(ctx, []retrieval.Document{small}); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Fetch(ctx, []string{big.ID}); err != nil || len(got) != 1 || len(got[0].Refs) != 3 {
		t.Fatalf("Fetch after shrinking: %v, %v", got, err)
	}
	if n := overflowRecords(t, b); n != 0 {
		t.Errorf("%d overflow parts left after the record shrank, want 0", n)
	}
	if err := b.Upsert(ctx, []retrieval.Document{big}); err != nil {
		t.Fatal(err)
	}
	if err := b.Delete(ctx, []string{big.ID}); err != nil {
		t.Fatal(err)
	}
	if n := overflowRecords(t, b); n != 0 {
		t.Errorf("%d overflow parts left after Delete, want 0", n)
	}
	if err := b.Upsert(ctx, []retrieval.Document{big}); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteCollection(ctx); err != nil {
		t.Fatal(err)
	}
	if n := overflowRecords(t, b); n != 0 {
		t.Errorf("%d overflow parts left after DeleteCollection, want 0", n)
	}
}

// TestWhatFiltersReadMustFitARecordAndIsRefusedByName: metadata that
// filters read cannot move out of the record, so a value over the server's
// bound is refused before anything is written, with a
// *retrieval.DocumentError naming the document and wrapping
// retrieval.ErrTooLarge; what can move is moved, largest first.
func TestWhatFiltersReadMustFitARecordAndIsRefusedByName(t *testing.T) {
	l := CloudLimits()
	long := strings.Repeat("d/", 5000) + "x.go"
	m, err := toMetadata(retrieval.Document{ID: "deep", Path: long})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = l.fit("deep", m, "", false)
	var de *retrieval.DocumentError
	if !errors.As(err, &de) || de.ID != "deep" || !errors.Is(err, retrieval.ErrTooLarge) {
		t.Fatalf("fit of a path over the value bound: %v, want a DocumentError for \"deep\" wrapping ErrTooLarge", err)
	}
	d := retrieval.Document{ID: "many", Path: "a.go", Doc: strings.Repeat("x", 9000), Signature: "func F()", Metadata: map[string]string{}}
	for i := range 40 {
		d.Metadata[fmt.Sprintf("k%02d", i)] = strings.Repeat("v", i+1)
	}
	m, err = toMetadata(d)
	if err != nil {
		t.Fatal(err)
	}
	text, payload, err := l.fit("many", m, strings.Repeat("t", 20000), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(m)+overflowKeys > l.MaxMetadataKeys || len(text) > l.MaxDocumentBytes {
		t.Errorf("record keeps %d keys and a %d-byte document, over %d and %d", len(m)+overflowKeys, len(text), l.MaxMetadataKeys, l.MaxDocumentBytes)
	}
	if _, ok := payload[MetaDoc]; !ok || payload[overflowText] == nil {
		t.Errorf("payload keys %v: want the doc over the value bound and the whole text", keysOf(payload))
	}
	if _, kept := m[MetaUserPrefix+"k39"]; kept {
		t.Errorf("the largest user key stayed while smaller ones moved: %v", keysOf(m))
	}
	for _, k := range []string{MetaPath, MetaTest, MetaRole, MetaSymbolLC} {
		if _, moved := payload[k]; moved {
			t.Errorf("filter key %s moved out of the record", k)
		}
	}
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
