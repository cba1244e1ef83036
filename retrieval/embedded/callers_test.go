package embedded

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// callersCorpus: two packages defining Unmarshal, two types defining
// Read, and callers whose calls resolved (Ref.Via, Scope, Type) to each,
// to modules outside the tree, to a local function value, or by name.
func callersCorpus() []retrieval.Document {
	def := func(id, path, sym, qual, scope, module string) retrieval.Document {
		return retrieval.Document{ID: id, Path: path, StartLine: 1, EndLine: 9, Symbol: sym, Qualified: qual, Kind: "function",
			Language: "go", Metadata: map[string]string{retrieval.MetaScope: scope, retrieval.MetaModule: module}}
	}
	caller := func(id, path string, test bool, refs ...retrieval.Ref) retrieval.Document {
		return retrieval.Document{ID: id, Path: path, StartLine: 1, EndLine: 99, Symbol: id, Qualified: id, Kind: "function",
			Language: "go", Test: test, Refs: refs, Metadata: map[string]string{retrieval.MetaScope: "go:app:main", retrieval.MetaModule: "main"}}
	}
	const js, xs, hs = "go:encoding/json:json", "go:encoding/xml:xml", "go:net/http:http"
	return []retrieval.Document{
		def("json-unmarshal", "encoding/json/decode.go", "Unmarshal", "Unmarshal", js, "json"),
		def("xml-unmarshal", "encoding/xml/read.go", "Unmarshal", "Unmarshal", xs, "xml"),
		def("body-read", "net/http/transfer.go", "Read", "body.Read", hs, "http"),
		def("conn-read", "net/http/server.go", "Read", "conn.Read", hs, "http"),
		caller("uses-json", "app/a.go", false, retrieval.Ref{Name: "Unmarshal", Kind: "call", Line: 10, Via: "import", Scope: js}),
		caller("uses-xml", "app/b.go", false, retrieval.Ref{Name: "Unmarshal", Kind: "call", Line: 20, Via: "import", Scope: xs}),
		caller("reads-body", "app/c.go", false, retrieval.Ref{Name: "Read", Kind: "call", Line: 30, Via: "receiver", Scope: hs, Type: "body"}),
		caller("reads-conn", "app/d.go", false, retrieval.Ref{Name: "Read", Kind: "call", Line: 31, Via: "receiver", Scope: hs, Type: "conn"}),
		caller("reads-unknown", "app/e.go", false,
			retrieval.Ref{Name: "Read", Kind: "call", Line: 40}, retrieval.Ref{Name: "Read", Kind: "call", Line: 41}),
		caller("reads-local", "app/f.go", false, retrieval.Ref{Name: "Read", Kind: "call", Line: 50, Via: "local"}),
		caller("reads-elsewhere", "app/g.go", false, retrieval.Ref{Name: "Read", Kind: "call", Line: 55, Via: "receiver", Scope: "ext:bufio", Type: "Reader"}),
		caller("uses-strings", "app/h.go", false,
			retrieval.Ref{Name: "HasPrefix", Kind: "call", Line: 60, Via: "import", Scope: "ext:strings"},
			retrieval.Ref{Name: "Sprintf", Kind: "call", Line: 61, Via: "import", Scope: "ext:fmt"}),
		caller("sprintf-method", "app/i.go", false, retrieval.Ref{Name: "Sprintf", Kind: "call", Line: 70}),
		caller("reads-body-test", "app/c_test.go", true, retrieval.Ref{Name: "Read", Kind: "call", Line: 80, Via: "receiver", Scope: hs, Type: "body"}),
	}
}

// match is what the callers tests compare of a hit: its document and how
// its calls matched.
type match struct{ ID, Match string }

func TestCallersFollowResolvedCallsNotNames(t *testing.T) {
	b := openMem(t)
	if err := b.Upsert(context.Background(), callersCorpus()); err != nil {
		t.Fatal(err)
	}
	const r, x, n = retrieval.MatchResolved, retrieval.MatchExternal, retrieval.MatchName
	tests := []struct {
		name     string
		resolved bool
		want     []match
	}{
		// A package qualifier selects the package's definition; calls
		// resolved to another package's Unmarshal are not its callers.
		{name: "json.Unmarshal", want: []match{{"uses-json", r}}},
		{name: "Unmarshal", want: []match{{"uses-json", r}, {"uses-xml", r}}},
		// A receiver type selects its method; calls by name follow the
		// resolved ones, and Resolved leaves them out. A call of a local
		// function value or of bufio's Read is no caller.
		{name: "body.Read", want: []match{{"reads-body", r}, {"reads-body-test", r}, {"reads-unknown", n}}},
		{name: "body.Read", resolved: true, want: []match{{"reads-body", r}, {"reads-body-test", r}}},
		{name: "http.body.Read", resolved: true, want: []match{{"reads-body", r}, {"reads-body-test", r}}},
		{name: "Read", want: []match{{"reads-body", r}, {"reads-conn", r}, {"reads-body-test", r}, {"reads-unknown", n}}},
		// A name the tree does not define: its calls resolved outside the
		// tree whose module ends with the qualifier, marked external; by
		// name only without a qualifier.
		{name: "strings.HasPrefix", want: []match{{"uses-strings", x}}},
		{name: "fmt.Sprintf", want: []match{{"uses-strings", x}}},
		{name: "Sprintf", want: []match{{"uses-strings", x}, {"sprintf-method", n}}},
		{name: "Sprintf", resolved: true, want: []match{{"uses-strings", x}}},
		{name: "os.HasPrefix"},
		{name: "strings.Zqx"},
	}
	for _, tc := range tests {
		hits, err := b.Search(context.Background(), retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callers,
			Name: tc.name, Resolved: tc.resolved, Limit: 50})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []match
		for _, h := range hits {
			got = append(got, match{h.Document.ID, h.Match})
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("callers of %s (resolved %v) (-want +got):\n%s", tc.name, tc.resolved, d)
		}
	}
}

func TestResolvedIsOnlyForGraphCallers(t *testing.T) {
	b := openMem(t)
	for _, req := range []retrieval.Request{
		{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: "Read", Resolved: true},
		{Strategy: retrieval.Exact, Name: "Read", Resolved: true},
	} {
		if _, err := b.Search(context.Background(), req); !errors.Is(err, retrieval.ErrBadRequest) {
			t.Errorf("%+v: error %v, want ErrBadRequest", req, err)
		}
	}
}

func TestExactFindsScopeQualifiedNamesOnlyWhenNothingElseMatches(t *testing.T) {
	b := openMem(t)
	docs := callersCorpus()
	// A definition whose own qualified name is "json.Unmarshal" wins over
	// the package-qualified reading.
	shadow := docs[0]
	shadow.ID, shadow.Path, shadow.Qualified = "json-type-unmarshal", "app/j.go", "json.Unmarshal"
	shadow.Metadata = map[string]string{retrieval.MetaScope: "go:app:main", retrieval.MetaModule: "main"}
	if err := b.Upsert(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"json.Unmarshal", []string{"json-unmarshal"}},
		{"xml.Unmarshal", []string{"xml-unmarshal"}},
		{"http.body.Read", []string{"body-read"}},
		{"http.Unmarshal", nil},
		{"Unmarshal", []string{"json-unmarshal", "xml-unmarshal"}},
	} {
		hits, err := b.Search(context.Background(), retrieval.Request{Strategy: retrieval.Exact, Name: tc.name})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, ids(hits)); d != "" {
			t.Errorf("exact %s (-want +got):\n%s", tc.name, d)
		}
	}
	if err := b.Upsert(context.Background(), []retrieval.Document{shadow}); err != nil {
		t.Fatal(err)
	}
	hits, err := b.Search(context.Background(), retrieval.Request{Strategy: retrieval.Exact, Name: "json.Unmarshal"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"json-type-unmarshal"}, ids(hits)); d != "" {
		t.Errorf("exact json.Unmarshal with a definition of that qualified name (-want +got):\n%s", d)
	}
}
