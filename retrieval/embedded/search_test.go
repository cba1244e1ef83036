package embedded

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/internal/hostile"
	"github.com/rlm-dev/rlm/retrieval"
)

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
			// The qualifier is part of the name: no definition is
			// conn.readRequest and no call resolves to a module conn,
			// so no call of readRequest counts (callers_test.go).
			name: "graph callers of a qualified name are not those of its last segment",
			req:  retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "conn.readRequest", Filter: retrieval.Filter{ExcludeTests: true}},
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

func hostileQueries(t *testing.T) []string {
	t.Helper()
	out := hostile.Queries(t, filepath.Join("..", "..", "testdata", "hostile-queries.txt"))
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

func trunc(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
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
