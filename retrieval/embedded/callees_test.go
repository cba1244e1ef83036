package embedded

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestCalleesFollowResolvedCallsAndNameTheRestAsSuch: the callees of a
// definition are, for a call resolved in the tree, the definitions of
// that name in that scope and type only (resolved); for an unresolved
// call, every definition of the name but the caller itself (by name); a
// call resolved outside the tree or of a local function value leads to
// none. Each hit says how it matched, resolved ones first.
func TestCalleesFollowResolvedCallsAndNameTheRestAsSuch(t *testing.T) {
	b := openMem(t)
	def := func(id, path, sym, qualified, scope string, refs ...retrieval.Ref) retrieval.Document {
		return retrieval.Document{ID: id, Path: path, StartLine: 1, EndLine: 9, Symbol: sym, Qualified: qualified, Kind: "method", Language: "go",
			Metadata: map[string]string{retrieval.MetaScope: scope}, Refs: refs}
	}
	call := func(name, via, scope, typ string) retrieval.Ref {
		return retrieval.Ref{Name: name, Kind: "call", Line: 3, Via: via, Scope: scope, Type: typ}
	}
	docs := []retrieval.Document{
		def("mux-serve", "p/mux.go", "ServeHTTP", "Mux.ServeHTTP", "p",
			call("Set", "receiver", "p", "Header"),   // resolved: p's Header.Set only
			call("ServeHTTP", "", "", ""),            // h.ServeHTTP: by name, never the caller itself
			call("Println", "import", "ext:fmt", ""), // outside the tree
			call("helper", "local", "", ""),          // a local function value
			call("find", "receiver", "p", "Mux")),    // resolved
		def("p-set", "p/header.go", "Set", "Header.Set", "p"),
		def("q-set", "q/header.go", "Set", "Header.Set", "q"), // the same name and type in another scope
		def("p-other-set", "p/values.go", "Set", "Values.Set", "p"),
		def("h-serve", "p/handler.go", "ServeHTTP", "Handler.ServeHTTP", "p"),
		def("mux-find", "p/mux.go", "find", "Mux.find", "p"),
		def("println", "p/print.go", "Println", "Println", "p"),
		def("helper", "p/helper.go", "helper", "helper", "p"),
	}
	if err := b.Upsert(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	hits, err := b.Search(context.Background(), retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: "Mux.ServeHTTP"})
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]string
	for _, h := range hits {
		got = append(got, [2]string{h.Document.ID, h.Match})
	}
	want := [][2]string{{"p-set", retrieval.MatchResolved}, {"mux-find", retrieval.MatchResolved}, {"h-serve", retrieval.MatchName}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("callees (-want +got):\n%s", diff)
	}
}
