package retrievaltest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/retrieval"
)

// Sizes of the large document: its references' JSON is ~460 KB, over the
// 256 KiB a Chroma record's metadata keeps by default (the size of the
// generated opcode table's references that once stopped a GOROOT build),
// its id, doc, text and metadata over Chroma Cloud's per-record quotas
// (the id is over 128 bytes, like a deep generated file's definition), and
// the whole under the embedded backend's 1 MiB per document.
const (
	largeRefs     = 4000
	largeDocBytes = 20 << 10
	largeText     = 40 << 10
	largeMetaKeys = 100
)

// large is a definition whose references, doc, text and metadata are each
// larger than a server may keep in one record; rev makes versions differ.
func large(rev string) retrieval.Document {
	d := corpus()[1]
	d.ID, d.Symbol, d.Qualified = "large-"+strings.Repeat("generated/", 12)+d.ID, "Huge", "T1.Huge"
	d.Doc = strings.Repeat("Huge documents "+rev+". ", largeDocBytes/(17+len(rev)))
	d.Text = "open the store huge " + strings.Repeat("table row "+rev+" ", largeText/(11+len(rev)))
	d.Refs = make([]retrieval.Ref, largeRefs)
	for i := range d.Refs {
		d.Refs[i] = retrieval.Ref{Name: fmt.Sprintf("op%s%05d", rev, i), Kind: "call", Line: 1000 + i,
			Via: "scope", Scope: "cmd/compile/internal/ssa", Type: "Op"}
	}
	d.Refs[0] = retrieval.Ref{Name: "hugeload", Kind: "call", Line: 999}
	d.Metadata = map[string]string{}
	for i := range largeMetaKeys {
		d.Metadata[fmt.Sprintf("field%03d", i)] = fmt.Sprintf("value %s %d", rev, i)
	}
	return d
}

// largeKeptWhole: a document over any per-record limit of the server is
// stored, fetched whole (references included), found by every strategy with
// all but its references, replaced whole by a smaller version and by a
// large one again, and deleted.
func (s *suite) largeKeptWhole(t *testing.T) {
	ctx := context.Background()
	b := s.seeded(t)
	big := large("a")
	if err := b.Upsert(ctx, []retrieval.Document{big}); err != nil {
		t.Fatalf("Upsert of a large document: %v", err)
	}
	if diff := diffDocs([]retrieval.Document{big}, fetch(t, b, big.ID)); diff != "" {
		t.Fatalf("Fetch of the large document (-want +got):\n%s", diff)
	}
	asHit := big
	asHit.Refs = nil
	probes := map[retrieval.Strategy]retrieval.Request{
		retrieval.Exact:      {Strategy: retrieval.Exact, Name: "Huge"},
		retrieval.Structural: {Strategy: retrieval.Structural, Name: "Huge"},
		retrieval.Lexical:    {Strategy: retrieval.Lexical, Text: "huge"},
		retrieval.Vector:     {Strategy: retrieval.Vector, Text: big.Text},
		retrieval.Hybrid:     {Strategy: retrieval.Hybrid, Text: big.Text},
		retrieval.Graph:      {Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "hugeload"},
	}
	for _, st := range s.supported() {
		req := probes[st]
		req.Limit = everything
		hits := search(t, b, req)
		found := false
		for _, h := range hits {
			if h.Document.ID == big.ID {
				found = true
				if diff := cmp.Diff(asHit, h.Document, equateEmpty); diff != "" {
					t.Errorf("%s hit of the large document (-want +got):\n%s", st, diff)
				}
			}
		}
		if !found {
			t.Errorf("%s %+v: %v, want %s among them", st, req, hitIDs(hits), big.ID)
		}
	}
	small := corpus()[1]
	small.ID = big.ID
	for _, next := range []retrieval.Document{small, large("bb"), big} {
		if err := b.Upsert(ctx, []retrieval.Document{next}); err != nil {
			t.Fatalf("Upsert of a new version: %v", err)
		}
		if diff := diffDocs([]retrieval.Document{next}, fetch(t, b, big.ID)); diff != "" {
			t.Fatalf("Fetch after replacing the large document (-want +got):\n%s", diff)
		}
	}
	if err := b.Delete(ctx, []string{big.ID}); err != nil {
		t.Fatal(err)
	}
	if got := fetch(t, b, big.ID); len(got) != 0 {
		t.Errorf("Fetch after Delete = %v, want nothing", docIDs(got))
	}
}
