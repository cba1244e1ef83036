package embedded

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rlm-dev/rlm/retrieval"
)

// corpus is a small net/http-like knowledge base.
func corpus() []retrieval.Document {
	return []retrieval.Document{
		{
			ID: "srv-serve", Path: "net/http/server.go", StartLine: 100, EndLine: 130,
			Symbol: "ServeHTTP", Qualified: "Server.ServeHTTP", Kind: "method", Language: "go",
			Signature: "func (srv *Server) ServeHTTP(w ResponseWriter, r *Request)",
			Doc:       "ServeHTTP dispatches the request to the handler.",
			Refs: []retrieval.Ref{
				{Name: "Handler", Kind: "type", Line: 101},
				{Name: "readRequest", Kind: "call", Line: 105},
				{Name: "readRequest", Kind: "call", Line: 110},
				{Name: "writeHeader", Kind: "call", Line: 120},
			},
			ContentHash: "xxh64:0000000000000001:4000",
			Metadata:    map[string]string{"package": "http"},
		},
		{
			ID: "hf-serve", Path: "net/http/server.go", StartLine: 30, EndLine: 33,
			Symbol: "ServeHTTP", Qualified: "HandlerFunc.ServeHTTP", Kind: "method", Language: "go",
			Signature: "func (f HandlerFunc) ServeHTTP(w ResponseWriter, r *Request)",
			Doc:       "ServeHTTP calls f(w, r).",
		},
		{
			ID: "var-serve", Path: "net/http/a_vars.go", StartLine: 5, EndLine: 5,
			Symbol: "ServeHTTP", Qualified: "ServeHTTP", Kind: "variable", Language: "go",
		},
		{
			ID: "test-serve", Path: "net/http/serve_test.go", StartLine: 10, EndLine: 20,
			Symbol: "ServeHTTP", Qualified: "fakeServer.ServeHTTP", Kind: "method", Language: "go", Test: true,
			Refs: []retrieval.Ref{{Name: "readRequest", Kind: "call", Line: 12}},
		},
		{
			ID: "handler", Path: "net/http/server.go", StartLine: 20, EndLine: 25,
			Symbol: "Handler", Qualified: "Handler", Kind: "interface", Language: "go",
			Doc: "A Handler responds to an HTTP request.",
		},
		{
			ID: "read-req", Path: "net/http/request.go", StartLine: 50, EndLine: 80,
			Symbol: "readRequest", Qualified: "readRequest", Kind: "function", Language: "go",
			Signature: "func readRequest(b *bufio.Reader) (req *Request, err error)",
			Doc:       "readRequest reads and parses an incoming request from b.",
			Refs:      []retrieval.Ref{{Name: "parseLine", Kind: "call", Line: 55}},
		},
		{
			ID: "Read-Req", Path: "net/http/request.go", StartLine: 200, EndLine: 210,
			Symbol: "ReadRequest", Qualified: "ReadRequest", Kind: "function", Language: "go",
			Doc: "ReadRequest reads and parses an incoming request.",
		},
		{
			ID: "parse-line", Path: "net/textproto/reader.go", StartLine: 10, EndLine: 30,
			Symbol: "parseLine", Qualified: "parseLine", Kind: "function", Language: "go",
		},
		{
			ID: "py-serve", Path: "tools/serve.py", StartLine: 1, EndLine: 9,
			Symbol: "serve", Qualified: "serve", Kind: "function", Language: "python",
			Doc: "Serve files over http.",
		},
	}
}

func openMem(t testing.TB) *Backend {
	t.Helper()
	b, err := Open(context.Background(), "")
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func seeded(t testing.TB) *Backend {
	t.Helper()
	b := openMem(t)
	if err := b.Upsert(context.Background(), corpus()); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	return b
}

func count(t testing.TB, b *Backend) int {
	t.Helper()
	n, err := b.Count(context.Background())
	if err != nil {
		t.Fatalf("Count: %v", err)
	}
	return n
}

// brief is the part of a hit the tests compare.
type brief struct {
	ID    string
	Score float64
	Kind  retrieval.ScoreKind
	Rank  int
	Lines []int
}

func briefs(hs []retrieval.Hit) []brief {
	var out []brief
	for _, h := range hs {
		out = append(out, brief{h.Document.ID, h.Score, h.ScoreKind, h.Rank, h.Lines})
	}
	return out
}

func ids(hs []retrieval.Hit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Document.ID)
	}
	return out
}

func TestUpsertFetchDeleteRoundTrip(t *testing.T) {
	ctx := context.Background()
	b := seeded(t)
	docs := corpus()
	want := map[string]retrieval.Document{}
	for _, d := range docs {
		want[d.ID] = d
	}
	if got := count(t, b); got != len(docs) {
		t.Fatalf("Count = %d, want %d", got, len(docs))
	}

	got, err := b.Fetch(ctx, []string{"read-req", "missing", "srv-serve", "handler"})
	if err != nil {
		t.Fatal(err)
	}
	wantDocs := []retrieval.Document{want["read-req"], want["srv-serve"], want["handler"]}
	if diff := cmp.Diff(wantDocs, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Fetch (-want +got):\n%s", diff)
	}

	// Replace srv-serve: new name, new refs; the old refs and terms go.
	repl := want["srv-serve"]
	repl.Symbol, repl.Qualified = "Dispatch", "Server.Dispatch"
	repl.Refs = []retrieval.Ref{{Name: "parseLine", Kind: "call", Line: 111}}
	repl.Metadata = nil
	if err := b.Upsert(ctx, []retrieval.Document{repl}); err != nil {
		t.Fatal(err)
	}
	if got := count(t, b); got != len(docs) {
		t.Errorf("Count after replace = %d, want %d", got, len(docs))
	}
	got, err = b.Fetch(ctx, []string{"srv-serve"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]retrieval.Document{repl}, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Fetch after replace (-want +got):\n%s", diff)
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "readRequest"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"test-serve"}, ids(hits)); diff != "" {
		t.Errorf("callers of readRequest after replace (-want +got):\n%s", diff)
	}
	hits, err = b.Search(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: "dispatch"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Document.ID != "srv-serve" {
		t.Errorf("lexical dispatch: got %v, want srv-serve first", ids(hits))
	}

	// Delete, including an unknown id.
	if err := b.Delete(ctx, []string{"srv-serve", "read-req", "nope"}); err != nil {
		t.Fatal(err)
	}
	if got := count(t, b); got != len(docs)-2 {
		t.Errorf("Count after delete = %d, want %d", got, len(docs)-2)
	}
	got, err = b.Fetch(ctx, []string{"srv-serve", "read-req"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("Fetch after delete = %v, want none", got)
	}
	for _, req := range []retrieval.Request{
		{Strategy: retrieval.Lexical, Text: "dispatch"},
		{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "parseLine"},
		{Strategy: retrieval.Exact, Name: "readRequest"},
	} {
		hits, err := b.Search(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 0 {
			t.Errorf("%+v after delete: got %v, want none", req, ids(hits))
		}
	}
	var n int
	if err := b.db.QueryRow("SELECT (SELECT COUNT(*) FROM refs) + (SELECT COUNT(*) FROM fts) - (SELECT COUNT(*) FROM docs)").Scan(&n); err != nil {
		t.Fatal(err)
	}
	// Remaining refs: test-serve's one; fts rows equal docs rows.
	if n != 1 {
		t.Errorf("refs + fts - docs = %d, want 1 (orphaned rows?)", n)
	}
}

func TestFetchDuplicatesAndBounds(t *testing.T) {
	ctx := context.Background()
	b := seeded(t)
	got, err := b.Fetch(ctx, []string{"handler", "handler"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Errorf("Fetch of a repeated id gave %d docs, want 2", len(got))
	}
	got, err = b.Fetch(ctx, nil)
	if err != nil || len(got) != 0 {
		t.Errorf("Fetch(nil) = %v, %v; want nothing", got, err)
	}
	_, err = b.Fetch(ctx, make([]string, retrieval.MaxLimit+1))
	if !errors.Is(err, retrieval.ErrTooLarge) {
		t.Errorf("Fetch of %d ids: err = %v, want ErrTooLarge", retrieval.MaxLimit+1, err)
	}
}

func TestSearch(t *testing.T) {
	b := seeded(t)
	tests := []struct {
		name string
		req  retrieval.Request
		want []brief
	}{
		{
			name: "exact case-sensitive, tests last, kinds then path",
			req:  retrieval.Request{Strategy: retrieval.Exact, Name: "ServeHTTP"},
			want: []brief{
				{"hf-serve", 1, retrieval.ScoreExact, 1, nil},
				{"srv-serve", 1, retrieval.ScoreExact, 2, nil},
				{"var-serve", 1, retrieval.ScoreExact, 3, nil},
				{"test-serve", 1, retrieval.ScoreExact, 4, nil},
			},
		},
		{
			name: "exact qualified",
			req:  retrieval.Request{Strategy: retrieval.Exact, Name: "Server.ServeHTTP"},
			want: []brief{{"srv-serve", 1, retrieval.ScoreExact, 1, nil}},
		},
		{
			name: "exact wrong case without fallback",
			req:  retrieval.Request{Strategy: retrieval.Exact, Name: "servehttp"},
		},
		{
			name: "exact case-insensitive fallback scores 0.5",
			req:  retrieval.Request{Strategy: retrieval.Exact, Name: "servehttp", CaseInsensitive: true, Filter: retrieval.Filter{ExcludeTests: true}},
			want: []brief{
				{"hf-serve", 0.5, retrieval.ScoreExact, 1, nil},
				{"srv-serve", 0.5, retrieval.ScoreExact, 2, nil},
				{"var-serve", 0.5, retrieval.ScoreExact, 3, nil},
			},
		},
		{
			name: "exact case-insensitive only when nothing matched exactly",
			req:  retrieval.Request{Strategy: retrieval.Exact, Name: "readRequest", CaseInsensitive: true},
			want: []brief{{"read-req", 1, retrieval.ScoreExact, 1, nil}},
		},
		{
			name: "exact case-insensitive qualified",
			req:  retrieval.Request{Strategy: retrieval.Exact, Name: "server.servehttp", CaseInsensitive: true},
			want: []brief{{"srv-serve", 0.5, retrieval.ScoreExact, 1, nil}},
		},
		{
			name: "exact limit",
			req:  retrieval.Request{Strategy: retrieval.Exact, Name: "ServeHTTP", Limit: 2},
			want: []brief{
				{"hf-serve", 1, retrieval.ScoreExact, 1, nil},
				{"srv-serve", 1, retrieval.ScoreExact, 2, nil},
			},
		},
		{
			name: "graph callers count call sites, lines distinct",
			req:  retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "readRequest"},
			want: []brief{
				{"srv-serve", 2, retrieval.ScoreCount, 1, []int{105, 110}},
				{"test-serve", 1, retrieval.ScoreCount, 2, []int{12}},
			},
		},
		{
			name: "graph callers of a qualified name match its last segment",
			req:  retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "conn.readRequest", Filter: retrieval.Filter{ExcludeTests: true}},
			want: []brief{{"srv-serve", 2, retrieval.ScoreCount, 1, []int{105, 110}}},
		},
		{
			name: "graph callers ignore type refs",
			req:  retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "Handler"},
		},
		{
			name: "graph references include type refs",
			req:  retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.References, Name: "Handler"},
			want: []brief{{"srv-serve", 1, retrieval.ScoreCount, 1, []int{101}}},
		},
		{
			name: "graph callees resolve to defining documents, undefined names skipped",
			req:  retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: "Server.ServeHTTP"},
			want: []brief{{"read-req", 2, retrieval.ScoreCount, 1, nil}},
		},
		{
			name: "graph callees of a bare name union its definitions",
			req:  retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: "ServeHTTP"},
			want: []brief{{"read-req", 3, retrieval.ScoreCount, 1, nil}},
		},
		{
			name: "graph callees filtered",
			req:  retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: "readRequest", Filter: retrieval.Filter{PathPrefixes: []string{"net/http/"}}},
		},
		{
			name: "graph callees unfiltered",
			req:  retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: "readRequest"},
			want: []brief{{"parse-line", 1, retrieval.ScoreCount, 1, nil}},
		},
		{
			name: "structural by path prefix",
			req:  retrieval.Request{Strategy: retrieval.Structural, Filter: retrieval.Filter{PathPrefixes: []string{"net/textproto/", "tools/"}}},
			want: []brief{
				{"parse-line", 1, retrieval.ScoreExact, 1, nil},
				{"py-serve", 1, retrieval.ScoreExact, 2, nil},
			},
		},
		{
			name: "structural by kind",
			req:  retrieval.Request{Strategy: retrieval.Structural, Filter: retrieval.Filter{Kinds: []string{"interface", "variable"}}},
			want: []brief{
				{"var-serve", 1, retrieval.ScoreExact, 1, nil},
				{"handler", 1, retrieval.ScoreExact, 2, nil},
			},
		},
		{
			name: "structural by name prefix and language",
			req:  retrieval.Request{Strategy: retrieval.Structural, Name: "Serve", Filter: retrieval.Filter{Languages: []string{"go"}, ExcludeTests: true}},
			want: []brief{
				{"var-serve", 1, retrieval.ScoreExact, 1, nil},
				{"hf-serve", 1, retrieval.ScoreExact, 2, nil},
				{"srv-serve", 1, retrieval.ScoreExact, 3, nil},
			},
		},
		{
			name: "structural with empty path prefix filters nothing",
			req:  retrieval.Request{Strategy: retrieval.Structural, Limit: 3, Filter: retrieval.Filter{PathPrefixes: []string{"zzz/", ""}}},
			want: []brief{
				{"var-serve", 1, retrieval.ScoreExact, 1, nil},
				{"read-req", 1, retrieval.ScoreExact, 2, nil},
				{"Read-Req", 1, retrieval.ScoreExact, 3, nil},
			},
		},
		{
			name: "path prefix is literal, not a pattern",
			req:  retrieval.Request{Strategy: retrieval.Structural, Filter: retrieval.Filter{PathPrefixes: []string{"net%", "_et/", "net/*"}}},
		},
		{
			name: "lexical only stopwords gives nothing",
			req:  retrieval.Request{Strategy: retrieval.Lexical, Text: "what is the"},
		},
		{
			name: "lexical empty text gives nothing",
			req:  retrieval.Request{Strategy: retrieval.Lexical},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := b.Search(context.Background(), tc.req)
			if err != nil {
				t.Fatalf("Search: %v", err)
			}
			for _, h := range hits {
				if h.Strategy != tc.req.Strategy {
					t.Errorf("hit %s has strategy %q, want %q", h.Document.ID, h.Strategy, tc.req.Strategy)
				}
			}
			if diff := cmp.Diff(tc.want, briefs(hits)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLexicalRanking(t *testing.T) {
	b := seeded(t)
	tests := []struct {
		text    string
		filter  retrieval.Filter
		wantTop []string // acceptable first hits
		wantIn  []string // must be among the hits
		wantOut []string // must not be among the hits
	}{
		{text: "serve http", wantTop: []string{"hf-serve", "srv-serve", "var-serve", "test-serve"}},
		{text: "ServeHTTP", wantTop: []string{"hf-serve", "srv-serve", "var-serve", "test-serve"}},
		// Lexical matching is case-insensitive: readRequest and ReadRequest
		// index the same name terms. Telling them apart is exact's job.
		{text: "where is readRequest defined?", wantTop: []string{"read-req", "Read-Req"}, wantIn: []string{"read-req", "Read-Req"}},
		{text: "how does the server read a request", wantTop: []string{"read-req", "Read-Req"}},
		{text: "parse line", wantTop: []string{"parse-line"}},
		{text: "textproto", wantTop: []string{"parse-line"}},
		{text: "serve", filter: retrieval.Filter{Languages: []string{"python"}}, wantTop: []string{"py-serve"}, wantOut: []string{"srv-serve"}},
		{text: "serve http", filter: retrieval.Filter{ExcludeTests: true, Kinds: []string{"method"}}, wantIn: []string{"srv-serve", "hf-serve"}, wantOut: []string{"test-serve", "var-serve", "py-serve"}},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			hits, err := b.Search(context.Background(), retrieval.Request{Strategy: retrieval.Lexical, Text: tc.text, Filter: tc.filter})
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 {
				t.Fatalf("no hits")
			}
			got := ids(hits)
			if tc.wantTop != nil && !contains(tc.wantTop, got[0]) {
				t.Errorf("first hit %s, want one of %v (all: %v)", got[0], tc.wantTop, got)
			}
			for _, id := range tc.wantIn {
				if !contains(got, id) {
					t.Errorf("%s missing from %v", id, got)
				}
			}
			for _, id := range tc.wantOut {
				if contains(got, id) {
					t.Errorf("%s present in %v", id, got)
				}
			}
			for i, h := range hits {
				if h.ScoreKind != retrieval.ScoreBM25 || h.Score <= 0 || h.Rank != i+1 {
					t.Errorf("hit %d: kind %s score %v rank %d; want bm25, > 0, %d", i, h.ScoreKind, h.Score, h.Rank, i+1)
				}
				if i > 0 && h.Score > hits[i-1].Score {
					t.Errorf("hit %d scores higher than hit %d: not best first", i, i-1)
				}
			}
		})
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func hostileQueries(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "hostile-queries.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 20 {
		t.Fatalf("only %d hostile queries read", len(out))
	}
	var words strings.Builder
	for i := 0; words.Len() < 60<<10; i++ {
		fmt.Fprintf(&words, "w%d ", i)
	}
	return append(out,
		"a\x00b", "\x00", "\xff\xfe\xfd", `"`, `'`, `""`, `a"b`, "(", ")", "((((", "^x", "x*", "name:serve", "{name}: x",
		"NEAR", "AND", "OR", "NOT", "NEAR(serve http, 2)", "serve + http", "- serve", "\u0301", "x\u0301y",
		strings.Repeat("NEAR(a b) AND NOT \"x ", 60<<10/20),
		strings.Repeat("a", 60<<10),
		words.String()[:60<<10],
	)
}

func TestHostileQueriesNeverError(t *testing.T) {
	ctx := context.Background()
	b := seeded(t)
	before := count(t, b)
	for _, q := range hostileQueries(t) {
		reqs := []retrieval.Request{
			{Strategy: retrieval.Lexical, Text: q},
			{Strategy: retrieval.Lexical, Text: "serve " + q},
			{Strategy: retrieval.Exact, Name: q, CaseInsensitive: true},
			{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: q},
			{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: q},
			{Strategy: retrieval.Graph, Relation: retrieval.References, Name: q},
			{Strategy: retrieval.Structural, Name: q},
			{Strategy: retrieval.Lexical, Text: "serve", Filter: retrieval.Filter{PathPrefixes: []string{q}, Kinds: []string{q}, Languages: []string{q}}},
		}
		for _, req := range reqs {
			if len(req.Text) > retrieval.MaxQueryBytes || len(req.Name) > retrieval.MaxQueryBytes {
				continue
			}
			if _, err := b.Search(ctx, req); err != nil {
				t.Errorf("%s %q: %v", req.Strategy, trunc(q), err)
			}
		}
		if _, err := b.Fetch(ctx, []string{q}); err != nil {
			t.Errorf("Fetch %q: %v", trunc(q), err)
		}
	}
	if after := count(t, b); after != before {
		t.Errorf("documents %d → %d after hostile queries", before, after)
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: `serve" OR 1=1 --`})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == len(corpus()) {
		t.Errorf("quote injection matched every document")
	}
}

func trunc(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func TestSearchErrors(t *testing.T) {
	b := seeded(t)
	many := make([]string, MaxFilterValues+1)
	tests := []struct {
		name string
		req  retrieval.Request
		want error
	}{
		{"negative limit", retrieval.Request{Strategy: retrieval.Lexical, Text: "x", Limit: -1}, retrieval.ErrBadRequest},
		{"limit over max", retrieval.Request{Strategy: retrieval.Lexical, Text: "x", Limit: retrieval.MaxLimit + 1}, retrieval.ErrBadRequest},
		{"exact without name", retrieval.Request{Strategy: retrieval.Exact}, retrieval.ErrBadRequest},
		{"graph without relation", retrieval.Request{Strategy: retrieval.Graph, Name: "x"}, retrieval.ErrBadRequest},
		{"unknown strategy", retrieval.Request{Strategy: "magic"}, retrieval.ErrBadRequest},
		{"vector", retrieval.Request{Strategy: retrieval.Vector, Text: "x"}, retrieval.ErrUnsupported},
		{"hybrid", retrieval.Request{Strategy: retrieval.Hybrid, Text: "x"}, retrieval.ErrUnsupported},
		{"text too long", retrieval.Request{Strategy: retrieval.Lexical, Text: strings.Repeat("x", retrieval.MaxQueryBytes+1)}, retrieval.ErrTooLarge},
		{"filter too long", retrieval.Request{Strategy: retrieval.Structural, Filter: retrieval.Filter{Kinds: many}}, retrieval.ErrTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := b.Search(context.Background(), tc.req)
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if hits != nil {
				t.Errorf("hits = %v, want nil", hits)
			}
		})
	}
	caps := b.Capabilities()
	for _, s := range []retrieval.Strategy{retrieval.Exact, retrieval.Lexical, retrieval.Graph, retrieval.Structural} {
		if !caps.Supports(s) {
			t.Errorf("Capabilities lacks %s", s)
		}
	}
	if caps.Supports(retrieval.Vector) || caps.Supports(retrieval.Hybrid) || !caps.Filters || caps.MaxLimit != retrieval.MaxLimit {
		t.Errorf("Capabilities = %+v", caps)
	}
}

func TestUpsertRejectsWholeBatch(t *testing.T) {
	ctx := context.Background()
	b := seeded(t)
	before := count(t, b)
	changed := corpus()[0]
	changed.Symbol = "Changed"
	tests := []struct {
		name    string
		batch   []retrieval.Document
		want    error
		wantID  string
		wantMsg string
	}{
		{
			name: "oversize text",
			batch: []retrieval.Document{
				{ID: "new-1", Symbol: "NewOne"},
				changed,
				{ID: "big", Symbol: "Big", Text: strings.Repeat("x", MaxDocumentBytes+1)},
				{ID: "new-2", Symbol: "NewTwo"},
			},
			want: retrieval.ErrTooLarge, wantID: "big", wantMsg: `"big"`,
		},
		{
			name: "oversize spread over fields",
			batch: []retrieval.Document{
				{ID: "new-1", Symbol: "NewOne"},
				{ID: "big2", Doc: strings.Repeat("d", MaxDocumentBytes/2), Signature: strings.Repeat("s", MaxDocumentBytes/2), Refs: []retrieval.Ref{{Name: "x", Kind: "call"}}},
			},
			want: retrieval.ErrTooLarge, wantID: "big2",
		},
		{
			name:  "empty id",
			batch: []retrieval.Document{{ID: "new-1"}, {Symbol: "NoID"}},
			want:  retrieval.ErrBadRequest, wantID: "",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := b.Upsert(ctx, tc.batch)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			var de *retrieval.DocumentError
			if !errors.As(err, &de) || de.ID != tc.wantID {
				t.Errorf("err = %v, want a DocumentError for %q", err, tc.wantID)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("err %q does not name %s", err, tc.wantMsg)
			}
			if after := count(t, b); after != before {
				t.Errorf("documents %d → %d: batch half-written", before, after)
			}
			got, err := b.Fetch(ctx, []string{"new-1", changed.ID})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Symbol != "ServeHTTP" {
				t.Errorf("after rejected batch Fetch = %v, want only the unchanged %s", got, changed.ID)
			}
		})
	}
	// Exactly at the limit is accepted.
	ok := retrieval.Document{ID: "ok"}
	ok.Text = strings.Repeat("x", MaxDocumentBytes-len(ok.ID))
	if err := b.Upsert(ctx, []retrieval.Document{ok}); err != nil {
		t.Errorf("document of exactly MaxDocumentBytes: %v", err)
	}
}

func TestUpsertBatchLastWins(t *testing.T) {
	ctx := context.Background()
	b := openMem(t)
	err := b.Upsert(ctx, []retrieval.Document{
		{ID: "d", Symbol: "First", Refs: []retrieval.Ref{{Name: "a", Kind: "call", Line: 1}}},
		{ID: "d", Symbol: "Second", Refs: []retrieval.Ref{{Name: "b", Kind: "call", Line: 2}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.Fetch(ctx, []string{"d"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Symbol != "Second" {
		t.Fatalf("Fetch = %+v, want Second", got)
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.References, Name: "a"})
	if err != nil || len(hits) != 0 {
		t.Errorf("refs of the replaced version remain: %v, %v", ids(hits), err)
	}
}

func TestCanceledContext(t *testing.T) {
	b := seeded(t)
	before := count(t, b)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: "serve"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Search: err = %v, want context.Canceled", err)
	}
	if _, err := b.Fetch(ctx, []string{"handler"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Fetch: err = %v, want context.Canceled", err)
	}
	if err := b.Upsert(ctx, []retrieval.Document{{ID: "late"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Upsert: err = %v, want context.Canceled", err)
	}
	if err := b.Delete(ctx, []string{"handler"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Delete: err = %v, want context.Canceled", err)
	}
	if after := count(t, b); after != before {
		t.Errorf("documents %d → %d after canceled writes", before, after)
	}
}

func TestFileBackedPersists(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "dir with space & ?#%", "rlm.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := b.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" {
		t.Errorf("journal_mode = %q, want wal", mode)
	}
	if err := b.Upsert(ctx, corpus()); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database file not at the path given: %v", err)
	}

	b, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := count(t, b); got != len(corpus()) {
		t.Errorf("Count after reopen = %d, want %d", got, len(corpus()))
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: "read request"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || !contains([]string{"read-req", "Read-Req"}, hits[0].Document.ID) {
		t.Errorf("lexical after reopen: %v", ids(hits))
	}
	hits, err = b.Search(ctx, retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "readRequest"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"srv-serve", "test-serve"}, ids(hits)); diff != "" {
		t.Errorf("callers after reopen (-want +got):\n%s", diff)
	}
}

func TestOpenRefusesOtherSchemaVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rlm.db")
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.db.ExecContext(ctx, "PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if b, err := Open(ctx, path); err == nil {
		b.Close()
		t.Fatal("Open accepted schema version 99")
	}
}

func TestMemoryDatabasesAreSeparate(t *testing.T) {
	ctx := context.Background()
	a := seeded(t)
	b := openMem(t)
	if got := count(t, b); got != 0 {
		t.Errorf("second in-memory backend sees %d documents of the first", got)
	}
	if got := count(t, a); got != len(corpus()) {
		t.Errorf("first backend has %d documents", got)
	}
	c, err := Open(ctx, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := count(t, c); got != 0 {
		t.Errorf(":memory: backend sees %d documents", got)
	}
}

func TestConcurrentUse(t *testing.T) {
	for _, kind := range []string{"memory", "file"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			path := ""
			if kind == "file" {
				path = filepath.Join(t.TempDir(), "rlm.db")
			}
			b, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if err := b.Upsert(ctx, corpus()); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make(chan error, 64)
			for w := 0; w < 3; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for i := 0; i < 20; i++ {
						id := fmt.Sprintf("w%d-%d", w, i)
						doc := retrieval.Document{ID: id, Symbol: "ServeHTTP", Kind: "method", Path: "x.go",
							Refs: []retrieval.Ref{{Name: "readRequest", Kind: "call", Line: i + 1}}}
						if err := b.Upsert(ctx, []retrieval.Document{doc}); err != nil {
							errs <- err
							return
						}
						if i%2 == 0 {
							if err := b.Delete(ctx, []string{id}); err != nil {
								errs <- err
								return
							}
						}
					}
				}(w)
			}
			for r := 0; r < 4; r++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < 30; i++ {
						for _, req := range []retrieval.Request{
							{Strategy: retrieval.Lexical, Text: "serve http"},
							{Strategy: retrieval.Exact, Name: "ServeHTTP", Limit: 100},
							{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "readRequest", Limit: 100},
						} {
							if _, err := b.Search(ctx, req); err != nil {
								errs <- err
								return
							}
						}
						if _, err := b.Fetch(ctx, []string{"handler", "w0-1"}); err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			if got, want := count(t, b), len(corpus())+3*10; got != want {
				t.Errorf("Count = %d, want %d", got, want)
			}
		})
	}
}
