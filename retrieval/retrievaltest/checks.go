package retrievaltest

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

func (s *suite) capabilities(t *testing.T) {
	c := s.caps
	if c.MaxLimit < 1 || c.MaxLimit > retrieval.MaxLimit {
		t.Errorf("MaxLimit = %d, want 1..%d", c.MaxLimit, retrieval.MaxLimit)
	}
	if len(c.Strategies) == 0 {
		t.Error("no strategies")
	}
	seen := map[retrieval.Strategy]bool{}
	for _, st := range c.Strategies {
		known := false
		for _, k := range allStrategies {
			known = known || k == st
		}
		if !known || seen[st] {
			t.Errorf("strategy %q unknown or listed twice in %v", st, c.Strategies)
		}
		seen[st] = true
	}
}

func (s *suite) bounded(t *testing.T) {
	b := s.seeded(t)
	for _, st := range s.supported() {
		t.Run(string(st), func(t *testing.T) {
			for _, tc := range []struct {
				limit, want int
			}{
				{3, 3},
				{0, retrieval.DefaultLimit},
				{s.caps.MaxLimit, min(s.caps.MaxLimit, corpusSize)},
			} {
				hits := search(t, b, baseRequest(st, tc.limit))
				if len(hits) != tc.want {
					t.Errorf("Limit %d: %d hits, want %d", tc.limit, len(hits), tc.want)
				}
			}
			for _, limit := range []int{-1, retrieval.MaxLimit + 1} {
				hits, err := b.Search(context.Background(), baseRequest(st, limit))
				if !isBadRequest(err) || hits != nil {
					t.Errorf("Limit %d: %d hits, err %v; want ErrBadRequest", limit, len(hits), err)
				}
			}
			// Emphasis is a closed vocabulary: EmphasisDoc is a request
			// like any other, an unknown one a bad request.
			doc := baseRequest(st, 3)
			doc.Emphasis = retrieval.EmphasisDoc
			if hits := search(t, b, doc); len(hits) != 3 {
				t.Errorf("Emphasis %q: %d hits, want 3", doc.Emphasis, len(hits))
			}
			doc.Emphasis = "name"
			if hits, err := b.Search(context.Background(), doc); !isBadRequest(err) || hits != nil {
				t.Errorf("Emphasis %q: %d hits, err %v; want ErrBadRequest", doc.Emphasis, len(hits), err)
			}
		})
	}
}

// scoreKinds is the score kind of each strategy but vector (whose kind
// depends on the backend's distance).
var scoreKinds = map[retrieval.Strategy]retrieval.ScoreKind{
	retrieval.Exact: retrieval.ScoreExact, retrieval.Lexical: retrieval.ScoreBM25, retrieval.Graph: retrieval.ScoreCount,
	retrieval.Structural: retrieval.ScoreExact, retrieval.Hybrid: retrieval.ScoreRank,
}

// checkHits checks the shape of a result list of req: strategy, rank, one
// score kind (the strategy's, when it has a fixed one), best first, and no
// Refs in the hits' documents (retrieval.Hit).
func checkHits(t *testing.T, req retrieval.Request, hits []retrieval.Hit) {
	t.Helper()
	for i, h := range hits {
		if h.Document.Refs != nil {
			t.Errorf("hit %d (%s): carries %d refs, want none (Fetch returns them)", i, h.Document.ID, len(h.Document.Refs))
		}
		if h.Strategy != req.Strategy || h.Rank != i+1 {
			t.Errorf("hit %d (%s): strategy %q rank %d, want %q and %d", i, h.Document.ID, h.Strategy, h.Rank, req.Strategy, i+1)
		}
		want, fixed := scoreKinds[req.Strategy]
		if !fixed {
			want = hits[0].ScoreKind
		}
		if h.ScoreKind != want || h.ScoreKind == "" {
			t.Errorf("hit %d (%s): score kind %q, want %q", i, h.Document.ID, h.ScoreKind, want)
		}
		if i > 0 {
			prev := hits[i-1].Score
			if h.ScoreKind.HigherIsBetter() && h.Score > prev || !h.ScoreKind.HigherIsBetter() && h.Score < prev {
				t.Errorf("hit %d scores %v after %v: not best first for %s", i, h.Score, prev, h.ScoreKind)
			}
		}
	}
}

func (s *suite) scores(t *testing.T) {
	b := s.seeded(t)
	docs := corpus()
	own := docs[5]
	for _, st := range s.supported() {
		t.Run(string(st), func(t *testing.T) {
			req := baseRequest(st, everything)
			checkHits(t, req, search(t, b, req))
			switch st {
			case retrieval.Exact:
				for _, tc := range []struct {
					name  string
					ci    bool
					score float64
					n     int
				}{{"Open", false, 1, corpusSize}, {"open", false, 0, 0}, {"open", true, 0.5, corpusSize}} {
					hits := search(t, b, retrieval.Request{Strategy: st, Name: tc.name, CaseInsensitive: tc.ci, Limit: everything})
					if len(hits) != tc.n {
						t.Errorf("exact %q (case-insensitive %v): %d hits, want %d", tc.name, tc.ci, len(hits), tc.n)
					}
					for _, h := range hits {
						if h.Score != tc.score || h.ScoreKind != retrieval.ScoreExact {
							t.Errorf("exact %q (case-insensitive %v): %s scores %v %s, want %v exact", tc.name, tc.ci, h.Document.ID, h.Score, h.ScoreKind, tc.score)
						}
					}
				}
			case retrieval.Lexical:
				hits := search(t, b, retrieval.Request{Strategy: st, Text: corpusWords[5], Limit: everything})
				if diff := cmp.Diff([]string{own.ID}, hitIDs(hits)); diff != "" || hits[0].Score <= 0 {
					t.Errorf("lexical %q: a word of one document must find it alone, score > 0 (-want +got):\n%s%v", corpusWords[5], diff, hits)
				}
			case retrieval.Vector, retrieval.Hybrid:
				req := retrieval.Request{Strategy: st, Text: own.Text, Limit: everything}
				hits := search(t, b, req)
				checkHits(t, req, hits)
				if len(hits) != corpusSize || hits[0].Document.ID != own.ID {
					t.Errorf("%s for the text of %s: %v, want it first of %d", st, own.ID, hitIDs(hits), corpusSize)
				}
			}
		})
	}
}

func (s *suite) fetch(t *testing.T) {
	b := s.seeded(t)
	docs := corpus()
	got := fetch(t, b, "missing-1", docs[3].ID, "missing-2", docs[0].ID, docs[11].ID)
	if diff := diffDocs([]retrieval.Document{docs[3], docs[0], docs[11]}, got); diff != "" {
		t.Errorf("Fetch (-want +got):\n%s", diff)
	}
	for _, ids := range [][]string{nil, {}, {"missing-1", "missing-2"}} {
		if got := fetch(t, b, ids...); len(got) != 0 {
			t.Errorf("Fetch %q = %v, want nothing", ids, docIDs(got))
		}
	}
}

func (s *suite) replace(t *testing.T) {
	b := s.seeded(t)
	docs := corpus()
	old := docs[2]
	repl := old
	repl.Symbol, repl.Qualified, repl.Kind, repl.Language, repl.Test = "Replaced", "T2.Replaced", "type", "rust", !old.Test
	repl.Signature, repl.Doc, repl.Text, repl.ContentHash = "type Replaced struct{}", "Replaced is new.", "zebra giraffe", "xxh64:ffff:1"
	repl.Refs = []retrieval.Ref{{Name: "store", Kind: "type", Line: old.StartLine + 2}}
	repl.Metadata = map[string]string{"rev": "2"}
	if err := b.Upsert(context.Background(), []retrieval.Document{repl}); err != nil {
		t.Fatal(err)
	}
	if diff := diffDocs([]retrieval.Document{repl}, fetch(t, b, old.ID)); diff != "" {
		t.Errorf("Fetch after replace (-want +got):\n%s", diff)
	}
	for _, st := range s.supported() {
		hits := search(t, b, baseRequest(st, everything))
		for _, h := range hits {
			if h.Document.ID == old.ID && st != retrieval.Vector && st != retrieval.Hybrid {
				t.Errorf("%s: the replaced version of %s is still found", st, old.ID)
			}
		}
	}
	probes := map[retrieval.Strategy]retrieval.Request{
		retrieval.Exact:      {Strategy: retrieval.Exact, Name: "Replaced"},
		retrieval.Structural: {Strategy: retrieval.Structural, Name: "Replaced"},
		retrieval.Lexical:    {Strategy: retrieval.Lexical, Text: "zebra"},
		retrieval.Vector:     {Strategy: retrieval.Vector, Text: "zebra giraffe"},
		retrieval.Hybrid:     {Strategy: retrieval.Hybrid, Text: "zebra giraffe"},
		retrieval.Graph:      {Strategy: retrieval.Graph, Relation: retrieval.References, Name: "store"},
	}
	for _, st := range s.supported() {
		req := probes[st]
		req.Limit = everything
		hits := search(t, b, req)
		if len(hits) == 0 || hits[0].Document.ID != old.ID {
			t.Errorf("%s %+v after replace: %v, want %s first", st, req, hitIDs(hits), old.ID)
		}
	}
}

func (s *suite) delete(t *testing.T) {
	b := s.seeded(t)
	docs := corpus()
	gone := []string{docs[0].ID, docs[7].ID}
	if err := b.Delete(context.Background(), append(gone, "never-stored")); err != nil {
		t.Fatal(err)
	}
	if got := fetch(t, b, gone...); len(got) != 0 {
		t.Errorf("Fetch after Delete = %v", docIDs(got))
	}
	var rest []string
	for _, d := range docs[1:] {
		if d.ID != docs[7].ID {
			rest = append(rest, d.ID)
		}
	}
	for _, st := range s.supported() {
		hits := search(t, b, baseRequest(st, everything))
		if diff := cmp.Diff(sorted(rest), sorted(hitIDs(hits))); diff != "" {
			t.Errorf("%s after Delete (-want +got):\n%s", st, diff)
		}
	}
	if err := b.Delete(context.Background(), nil); err != nil {
		t.Errorf("Delete(nil) = %v", err)
	}
}

// suiteFilters each split corpus: some documents pass, some do not, except
// the last, which none passes.
var suiteFilters = []retrieval.Filter{
	{Kinds: []string{"method"}},
	{Kinds: []string{"type", "function"}},
	{Languages: []string{"python"}},
	{ExcludeTests: true},
	{OnlyTests: true},
	{PathPrefixes: []string{"internal/server/"}},
	{PathPrefixes: []string{"internal/serv"}},
	{PathPrefixes: []string{"cmd", "pkg/store/a.go"}},
	{PathPrefixes: []string{"pkg/stor"}, Kinds: []string{"function", "method"}, ExcludeTests: true},
	{ChangedSince: 1},
	{ChangedSince: 2, Kinds: []string{"function", "type"}},
	{Parsers: []string{"tree", "ichiban-prolog"}}, // a parser's name, never a prefix of it
	{Parsers: []string{"tree-sitter"}, ChangedSince: 2},
	{Roles: []string{retrieval.RoleExample}},
	{Roles: []string{retrieval.RoleSource, retrieval.RoleTest}, Kinds: []string{"function", "type"}},
	{ExcludeRoles: []string{retrieval.RoleTest, retrieval.RoleExample}},
	{ExcludeRoles: []string{retrieval.RoleSource}, OnlyTests: true},
	{Languages: []string{"rust"}},
}

func (s *suite) filters(t *testing.T) {
	b := s.seeded(t)
	for i, f := range suiteFilters {
		pass := 0
		for _, d := range corpus() {
			if testfixture.Passes(d, f) {
				pass++
			}
		}
		if (pass == 0 || pass == corpusSize) != (i == len(suiteFilters)-1) {
			t.Fatalf("fixture: filter %+v passes %d of %d documents", f, pass, corpusSize)
		}
	}
	for _, st := range s.supported() {
		t.Run(string(st), func(t *testing.T) {
			all := search(t, b, baseRequest(st, everything))
			for _, f := range suiteFilters {
				var want []string
				for _, h := range all {
					if testfixture.Passes(h.Document, f) {
						want = append(want, h.Document.ID)
					}
				}
				req := baseRequest(st, everything)
				req.Filter = f
				got := search(t, b, req)
				checkHits(t, req, got)
				if diff := cmp.Diff(sorted(want), sorted(hitIDs(got))); diff != "" {
					t.Errorf("filter %+v (-want +got):\n%s", f, diff)
				}
			}
		})
	}
}

// demoted checks retrieval.SearchDemoting against every advertised
// strategy: every hit of the demoted roles comes after every other hit,
// none is lost, and a limit the others fill leaves the demoted out.
func (s *suite) demoted(t *testing.T) {
	b := s.seeded(t)
	demote := []string{retrieval.RoleTest, retrieval.RoleExample}
	d := retrieval.Demotion{Roles: demote}
	isDemoted := func(d retrieval.Document) bool { return slices.Contains(demote, retrieval.RoleOf(d)) }
	for _, st := range s.supported() {
		t.Run(string(st), func(t *testing.T) {
			all := search(t, b, baseRequest(st, everything))
			req := baseRequest(st, everything)
			got, err := retrieval.SearchDemoting(context.Background(), b, req, d)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(sorted(hitIDs(all)), sorted(hitIDs(got))); diff != "" {
				t.Errorf("demoting loses or adds hits (-want +got):\n%s", diff)
			}
			kept := 0
			for i, h := range got {
				if h.Rank != i+1 {
					t.Errorf("hit %d (%s): rank %d", i, h.Document.ID, h.Rank)
				}
				if !isDemoted(h.Document) {
					kept++
					if i > 0 && isDemoted(got[i-1].Document) {
						t.Errorf("%s (%s) ranks after the demoted %s", h.Document.ID, retrieval.RoleOf(h.Document), got[i-1].Document.ID)
					}
				}
			}
			if kept == 0 || kept == len(got) {
				t.Fatalf("fixture: %d of %d hits are not demoted", kept, len(got))
			}
			req.Limit = kept
			few, err := retrieval.SearchDemoting(context.Background(), b, req, d)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range few {
				if isDemoted(h.Document) {
					t.Errorf("limit %d: demoted %s (%s) is among the hits", kept, h.Document.ID, retrieval.RoleOf(h.Document))
				}
			}
			if len(few) != kept {
				t.Errorf("limit %d: %d hits", kept, len(few))
			}
		})
	}
}

func (s *suite) unsupportedFail(t *testing.T) {
	b := s.seeded(t)
	for _, st := range s.unsupported() {
		hits, err := b.Search(context.Background(), baseRequest(st, 5))
		if !errors.Is(err, retrieval.ErrUnsupported) || hits != nil {
			t.Errorf("%s: %d hits, err %v; want ErrUnsupported", st, len(hits), err)
		}
	}
}

func (s *suite) closed(t *testing.T) {
	b := s.seeded(t)
	if err := b.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	ctx := context.Background()
	docs := corpus()
	for _, st := range s.supported() {
		if hits, err := b.Search(ctx, baseRequest(st, 5)); err == nil {
			t.Errorf("%s on a closed backend: %d hits, no error", st, len(hits))
		}
	}
	if got, err := b.Fetch(ctx, []string{docs[0].ID}); err == nil {
		t.Errorf("Fetch on a closed backend: %v, no error", docIDs(got))
	}
	if err := b.Upsert(ctx, docs[:1]); err == nil {
		t.Error("Upsert on a closed backend: no error")
	}
	if err := b.Delete(ctx, []string{docs[0].ID}); err == nil {
		t.Error("Delete on a closed backend: no error")
	}
}
