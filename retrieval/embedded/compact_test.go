package embedded

import (
	"context"
	"math"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// TestABodyIsReadBackAsWritten: every Text comes back from the table byte
// for byte, and docs.body holds neither the fields a Text starts with
// (bodyFields) nor, where deflating is shorter, the rest raw.
func TestABodyIsReadBackAsWritten(t *testing.T) {
	ctx := context.Background()
	base := retrieval.Document{Path: "a/b.go", Symbol: "Serve", Qualified: "Server.Serve",
		Signature: "func (s *Server) Serve(l net.Listener) error", Doc: "Serve accepts connections."}
	fields := "Server.Serve\n" + base.Signature + "\n" + base.Doc + "\na/b.go"
	code := strings.Repeat("\tif err := s.accept(l); err != nil {\n\t\treturn err\n\t}\n", 20)
	tests := []struct {
		name      string
		text      string
		edit      func(*retrieval.Document)
		wantFlags byte // of the stored BLOB; 0xff: stored as ""
	}{
		{name: "empty", text: "", wantFlags: 0xff},
		{name: "the fields alone", text: fields, wantFlags: bodyFields},
		{name: "the fields, then names", text: fields + "\naccept close", wantFlags: bodyFields},
		{name: "the fields, then code", text: fields + "\n" + code, wantFlags: bodyFields | bodyDeflate},
		{name: "code alone", text: code, wantFlags: bodyDeflate},
		{name: "short text", text: "x", wantFlags: 0},
		{name: "a prefix of the fields only", text: fields[:10], wantFlags: 0},
		{name: "no qualified name: the symbol leads", text: "Serve\n" + base.Signature + "\n" + base.Doc + "\na/b.go\nmore",
			edit: func(d *retrieval.Document) { d.Qualified = "" }, wantFlags: bodyFields},
		{name: "no fields at all", text: "some text", edit: func(d *retrieval.Document) {
			d.Path, d.Symbol, d.Qualified, d.Signature, d.Doc = "", "", "", "", ""
		}, wantFlags: 0},
		{name: "not UTF-8", text: fields + "\n\xff\xfe" + code, wantFlags: bodyFields | bodyDeflate},
	}
	b := openVec(t, "")
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := base
			d.ID = "doc" + string(rune('a'+i))
			if tt.edit != nil {
				tt.edit(&d)
			}
			d.Text = tt.text
			if err := b.Upsert(ctx, []retrieval.Document{d}); err != nil {
				t.Fatal(err)
			}
			got, err := b.Fetch(ctx, []string{d.ID})
			if err != nil || len(got) != 1 {
				t.Fatalf("Fetch = %v, %v", got, err)
			}
			if got[0].Text != tt.text {
				t.Errorf("Text = %q, want %q", got[0].Text, tt.text)
			}
			var stored []byte
			var typ string
			if err := b.db.QueryRowContext(ctx, "SELECT CAST(body AS BLOB), typeof(body) FROM docs WHERE id = ?", d.ID).Scan(&stored, &typ); err != nil {
				t.Fatal(err)
			}
			if tt.wantFlags == 0xff {
				if len(stored) != 0 {
					t.Errorf("body of an empty Text = %q (%s)", stored, typ)
				}
				return
			}
			if typ != "blob" || len(stored) == 0 || stored[0] != tt.wantFlags {
				t.Fatalf("body is %s %q, want a BLOB with flags %#x", typ, stored, tt.wantFlags)
			}
			if tt.wantFlags&bodyFields != 0 && strings.Contains(string(stored), base.Signature) {
				t.Errorf("body holds the signature again: %q", stored)
			}
			if tt.wantFlags&bodyDeflate != 0 && len(stored) >= len(tt.text)/2 {
				t.Errorf("deflated body is %d bytes of a %d-byte Text", len(stored), len(tt.text))
			}
		})
	}
}

// TestADamagedBodyIsAnErrorNamingTheDocument: a BLOB with unknown flags or
// DEFLATE data that does not inflate fails the read, naming the document,
// instead of returning a wrong Text.
func TestADamagedBodyIsAnErrorNamingTheDocument(t *testing.T) {
	ctx := context.Background()
	b := openVec(t, "")
	d := retrieval.Document{ID: "d1", Path: "p.go", Symbol: "F", Text: strings.Repeat("func F() { return 1 }\n", 10)}
	if err := b.Upsert(ctx, []retrieval.Document{d}); err != nil {
		t.Fatal(err)
	}
	for name, blob := range map[string][]byte{
		"unknown flags":   {0x80, 'x'},
		"not DEFLATE":     {bodyDeflate, 0xff, 0xff, 0xff},
		"truncated data":  {bodyDeflate, 0x4a},
		"flags, no bytes": {bodyFields | bodyDeflate},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := b.db.ExecContext(ctx, "UPDATE docs SET body = ? WHERE id = ?", blob, d.ID); err != nil {
				t.Fatal(err)
			}
			if got, err := b.Fetch(ctx, []string{d.ID}); err == nil || !strings.Contains(err.Error(), `"d1"`) {
				t.Errorf("Fetch = %d documents, %v; want an error naming d1", len(got), err)
			}
		})
	}
}

// TestAnIDMadeFromPathAndNameIsNotStoredAgain: an id that is
// retrieval.SymbolDocumentID's of the document's path and qualified name
// (nth 0) is not stored (id_own NULL; the generated column makes it), any
// other id is; either is found, fetched, ordered and deleted by.
func TestAnIDMadeFromPathAndNameIsNotStoredAgain(t *testing.T) {
	ctx := context.Background()
	b := openVec(t, "")
	docs := []retrieval.Document{
		{ID: retrieval.SymbolDocumentID("net/http/server.go", "Server.Serve", 0), Path: "net/http/server.go", Symbol: "Serve", Qualified: "Server.Serve", Text: "serve"},
		{ID: retrieval.SymbolDocumentID("net/http/server.go", "Server.Serve", 1), Path: "net/http/server.go", Symbol: "Serve", Qualified: "Server.Serve", Text: "serve again"},
		{ID: "net/http/server.go#Server.Serv", Path: "net/http/server.go", Symbol: "Serve", Qualified: "Server.Serve", Text: "serve"},
		{ID: "other#Server.Serve", Path: "net/http/server.go", Symbol: "Serve", Qualified: "Server.Serve", Text: "serve"},
		{ID: "#", Text: "serve"},
		{ID: "a.go#X.Y.Z", Path: "a.go", Symbol: "Z", Qualified: "Y.Z", Text: "serve"},
		{ID: "plain", Path: "x.go", Symbol: "x", Qualified: "x", Text: "serve"},
	}
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	wantOwn := map[string]bool{docs[1].ID: true, docs[2].ID: true, docs[3].ID: true, docs[5].ID: true, "plain": true}
	for _, d := range docs {
		var own *string
		if err := b.db.QueryRowContext(ctx, "SELECT id_own FROM docs WHERE id = ?", d.ID).Scan(&own); err != nil {
			t.Fatalf("%s: %v", d.ID, err)
		}
		if (own != nil) != wantOwn[d.ID] || own != nil && *own != d.ID {
			t.Errorf("%s: id_own = %v, want stored %v", d.ID, own, wantOwn[d.ID])
		}
	}
	var ids []string
	for _, d := range docs {
		ids = append(ids, d.ID)
	}
	got, err := b.Fetch(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	var gotIDs []string
	for _, d := range got {
		gotIDs = append(gotIDs, d.ID)
	}
	if diff := cmp.Diff(ids, gotIDs); diff != "" {
		t.Errorf("fetched ids (-want +got):\n%s", diff)
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: "serve", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var hitIDs []string
	for _, h := range hits {
		hitIDs = append(hitIDs, h.Document.ID)
	}
	if want := slices.Sorted(slices.Values(ids)); !cmp.Equal(slices.Sorted(slices.Values(hitIDs)), want) {
		t.Errorf("lexical hits %v, want every document %v", hitIDs, want)
	}
	if err := b.Delete(ctx, []string{docs[0].ID, docs[2].ID}); err != nil {
		t.Fatal(err)
	}
	if n, err := b.Count(ctx); err != nil || n != len(docs)-2 {
		t.Errorf("Count after deleting two = %d, %v; want %d", n, err, len(docs)-2)
	}
}

// TestBinary16IsTheNearestHalfTiesToEven: float32ToHalf gives back every
// finite half from its float32 exactly, and for any other float32 the
// nearest finite half (ties to the even one), ±Inf past the largest half
// plus half its last step, checked against a table of every half.
func TestBinary16IsTheNearestHalfTiesToEven(t *testing.T) {
	var finite []uint16 // non-negative finite halves in ascending value
	for h := 0; h < 0x7c00; h++ {
		finite = append(finite, uint16(h))
	}
	for h := 0; h < 1<<16; h++ {
		f := halfToFloat32(uint16(h))
		if math.IsNaN(float64(f)) {
			if got := float32ToHalf(f); got&0x7c00 != 0x7c00 || got&0x3ff == 0 {
				t.Errorf("NaN %#04x → %#04x, want a NaN", h, got)
			}
			continue
		}
		if got := float32ToHalf(f); got != uint16(h) {
			t.Errorf("half %#04x (%v) → %#04x", h, f, got)
		}
	}
	nearest := func(f float32) uint16 {
		a := math.Abs(float64(f))
		sign := uint16(0)
		if math.Signbit(float64(f)) {
			sign = 0x8000
		}
		maxHalf := float64(halfToFloat32(0x7bff))
		if a >= maxHalf+16 { // the step at the top is 32
			return sign | 0x7c00
		}
		i, _ := slices.BinarySearchFunc(finite, a, func(h uint16, a float64) int {
			return cmpFloat(float64(halfToFloat32(h)), a)
		})
		if i == len(finite) {
			return sign | finite[i-1]
		}
		if i == 0 {
			return sign | finite[0]
		}
		lo, hi := finite[i-1], finite[i]
		dlo, dhi := a-float64(halfToFloat32(lo)), float64(halfToFloat32(hi))-a
		switch {
		case dhi == 0 || dhi < dlo:
			return sign | hi
		case dlo < dhi:
			return sign | lo
		case hi&1 == 0:
			return sign | hi
		}
		return sign | lo
	}
	r := mrand.New(mrand.NewPCG(3, 4))
	var inputs []float32
	for range 200000 {
		inputs = append(inputs, math.Float32frombits(r.Uint32()))                   // any bits
		inputs = append(inputs, float32(r.NormFloat64()*0.05))                      // a unit vector's components
		inputs = append(inputs, float32(math.Ldexp(r.Float64(), -r.IntN(30))))      // down into the subnormals
		inputs = append(inputs, halfToFloat32(uint16(r.IntN(0x7c00)))*(1+1.0/4096)) // near ties
	}
	inputs = append(inputs, 65504, 65519.99, 65520, -65520, 1e-8, 2.98e-8, 2.9802322e-8, 5.9604645e-8, 1, -1)
	for _, f := range inputs {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			continue
		}
		if got, want := float32ToHalf(f), nearest(f); got != want {
			t.Errorf("float32ToHalf(%v) = %#04x (%v), want %#04x (%v)", f, got, halfToFloat32(got), want, halfToFloat32(want))
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestAStoredVectorIsItsUnitVectorInBinary16: the vectors table holds 2
// bytes a dimension, each component of the unit vector within binary16's
// rounding of it, whatever the vector's length.
func TestAStoredVectorIsItsUnitVectorInBinary16(t *testing.T) {
	ctx := context.Background()
	const dims = 48
	b := openVec(t, "", WithVectorModel("m", dims))
	r := mrand.New(mrand.NewPCG(1, 2))
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(r.NormFloat64() * 1e6) // far beyond binary16's range before scaling
	}
	if err := b.UpsertVectors(ctx, []retrieval.Document{{ID: "a"}}, [][]float32{v}); err != nil {
		t.Fatal(err)
	}
	var blob []byte
	if err := b.db.QueryRowContext(ctx, "SELECT vec FROM vectors").Scan(&blob); err != nil {
		t.Fatal(err)
	}
	if len(blob) != 2*dims {
		t.Fatalf("stored vector of %d bytes, want %d", len(blob), 2*dims)
	}
	u := make([]float32, dims)
	normalize(u, v)
	for i := range u {
		got := halfToFloat32(uint16(blob[2*i]) | uint16(blob[2*i+1])<<8)
		if d := math.Abs(float64(got - u[i])); d > math.Abs(float64(u[i]))/2048+1.0/(1<<25) {
			t.Errorf("component %d: stored %v, unit %v", i, got, u[i])
		}
	}
}
