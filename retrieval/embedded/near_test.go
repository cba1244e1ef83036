package embedded

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestExactNearFindsOnlyTheNearestNamesWithinTheEditBound: with
// Request.Near an exact search that matches no name in either case
// returns the definitions of the names nearest the misspelling —
// nearest without case, then with case; a swap of two adjacent letters
// is one edit — and none farther than retrieval.NearEdits; a name that
// matches exactly is answered as without Near; the filter applies.
func TestExactNearFindsOnlyTheNearestNamesWithinTheEditBound(t *testing.T) {
	b := openMem(t)
	doc := func(id, path, symbol, qualified string) retrieval.Document {
		return retrieval.Document{ID: id, Path: path, StartLine: 1, EndLine: 2, Symbol: symbol, Qualified: qualified, Kind: "function", Language: "go"}
	}
	docs := []retrieval.Document{
		doc("fh", "mux/mux.go", "findHandler", "ServeMux.findHandler"),
		doc("fhs", "mux/mux.go", "findHandlers", "findHandlers"),    // two edits from findHandlr
		doc("fhss", "other/o.go", "findHandlerss", "findHandlerss"), // two edits from findHandlerz, findHandler one
		doc("nr", "client/req.go", "NewRequest", "NewRequest"),
		doc("nr-lower", "client/req.go", "newRequest", "newRequest"), // as near without case, farther with it
		doc("srv", "server/server.go", "Server", "Server"),
		doc("rd", "io/read.go", "Read", "Read"),
		doc("h", "h.go", "h", "h"),
		doc("get-a", "tie/a.go", "getA", "getA"),
		doc("got-b", "tie/b.go", "gotB", "gotB"),
	}
	if err := b.Upsert(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		req  retrieval.Request
		want []string
	}{
		{"one edit away", retrieval.Request{Name: "findHandlr", Near: true}, []string{"fh"}},
		{"without Near nothing", retrieval.Request{Name: "findHandlr"}, nil},
		{"case breaks a tie", retrieval.Request{Name: "NewRequst", Near: true}, []string{"nr"}},
		{"a swap is one edit", retrieval.Request{Name: "Sevrer", Near: true}, []string{"srv"}},
		{"a four-letter name allows one edit", retrieval.Request{Name: "Raed", Near: true}, []string{"rd"}},
		{"a three-letter name allows none", retrieval.Request{Name: "Rad", Near: true}, nil},
		{"nothing within the bound", retrieval.Request{Name: "frobnicate", Near: true}, nil},
		{"equally near names all come", retrieval.Request{Name: "gotA", Near: true}, []string{"get-a", "got-b"}},
		{"a qualified name is compared with qualified names", retrieval.Request{Name: "ServeMux.findHandlr", Near: true}, []string{"fh"}},
		{"an exact match is answered as without Near", retrieval.Request{Name: "Server", Near: true}, []string{"srv"}},
		{"the filter applies to the names", retrieval.Request{Name: "findHandlr", Near: true, Filter: retrieval.Filter{PathPrefixes: []string{"client/"}}}, nil},
		{"the filter chooses among its own names", retrieval.Request{Name: "findHandlerz", Near: true, Filter: retrieval.Filter{PathPrefixes: []string{"other/"}}}, []string{"fhss"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Strategy = retrieval.Exact
			hits, err := b.Search(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, ids(hits)); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			for _, h := range hits {
				want := 0.25 // one edit away
				switch {
				case tc.req.Name == h.Document.Symbol || tc.req.Name == h.Document.Qualified:
					want = 1
				case h.Document.ID == "fhss":
					want = 0.125 // two edits
				}
				if h.ScoreKind != retrieval.ScoreExact || h.Score != want {
					t.Errorf("%s: score %v %s, want exact %v", h.Document.ID, h.Score, h.ScoreKind, want)
				}
			}
		})
	}
}
