package retrieval_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// ranked is a backend whose every search ranks the same documents in the
// same order, keeping those that pass the request's role filters, up to
// its limit; it counts searches.
type ranked struct {
	retrieval.Backend
	docs     []retrieval.Document
	searches int
}

func (r *ranked) Search(_ context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	r.searches++
	var hits []retrieval.Hit
	for _, d := range r.docs {
		role := retrieval.RoleOf(d)
		if len(req.Filter.Roles) > 0 && !slices.Contains(req.Filter.Roles, role) || slices.Contains(req.Filter.ExcludeRoles, role) {
			continue
		}
		if len(hits) == req.Limit {
			break
		}
		hits = append(hits, retrieval.Hit{Document: d, Score: float64(100 - len(hits)), ScoreKind: retrieval.ScoreBM25, Rank: len(hits) + 1})
	}
	return hits, nil
}

// rankedDocs are n documents "d0".."d<n-1>" in rank order, each of the
// role roles gives it (source when missing).
func rankedDocs(n int, roles map[int]string) []retrieval.Document {
	docs := make([]retrieval.Document, n)
	for i := range docs {
		docs[i] = retrieval.Document{ID: fmt.Sprintf("d%d", i), Symbol: fmt.Sprintf("F%d", i), Role: roles[i], Doc: fmt.Sprintf("F%d does thing number %d.", i, i)}
	}
	return docs
}

func ids(hits []retrieval.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Document.ID
		if h.Rank != i+1 {
			out[i] += fmt.Sprintf("(rank %d)", h.Rank)
		}
	}
	return out
}

func TestDemotionRanksTheDemotedRolesAfterTheOthersAndSparesWhatTheQueryNames(t *testing.T) {
	roles := map[int]string{0: retrieval.RoleTest, 1: retrieval.RoleExample, 2: retrieval.RoleTest, 4: retrieval.RoleTest}
	tests := []struct {
		name  string
		d     retrieval.Demotion
		text  string
		limit int
		want  []string
	}{
		{"nothing demoted", retrieval.Demotion{}, "", 6, []string{"d0", "d1", "d2", "d3", "d4", "d5"}},
		{"tests and examples last", retrieval.Demotion{Roles: []string{retrieval.RoleTest, retrieval.RoleExample}}, "", 6,
			[]string{"d3", "d5", "d0", "d1", "d2", "d4"}},
		{"only tests", retrieval.Demotion{Roles: []string{retrieval.RoleTest}}, "", 6, []string{"d1", "d3", "d5", "d0", "d2", "d4"}},
		{"the others fill the limit", retrieval.Demotion{Roles: []string{retrieval.RoleTest, retrieval.RoleExample}}, "", 2, []string{"d3", "d5"}},
		{"a quoted doc comment keeps its place", retrieval.Demotion{Roles: []string{retrieval.RoleTest}, Quoted: "F2 does thing number"}, "", 6,
			[]string{"d1", "d2", "d3", "d5", "d0", "d4"}},
		{"a quote needs three words", retrieval.Demotion{Roles: []string{retrieval.RoleTest}, Quoted: "F2 does"}, "", 6,
			[]string{"d1", "d3", "d5", "d0", "d2", "d4"}},
		{"a named definition keeps its place", retrieval.Demotion{Roles: []string{retrieval.RoleTest}, Names: []string{"F4"}}, "", 6,
			[]string{"d1", "d3", "d4", "d5", "d0", "d2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &ranked{docs: rankedDocs(6, roles)}
			got, err := retrieval.SearchDemoting(context.Background(), b, retrieval.Request{Strategy: retrieval.Lexical, Text: "thing", Limit: tt.limit}, tt.d)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, ids(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestDemotionFindsTheOthersBelowTheDepthItReads: when the hits read are
// almost all demoted, the others ranked below them still come first.
func TestDemotionFindsTheOthersBelowTheDepthItReads(t *testing.T) {
	n := retrieval.DemotionDepth(10) + 20
	roles := map[int]string{}
	for i := 0; i < n-3; i++ {
		roles[i] = retrieval.RoleTest
	}
	b := &ranked{docs: rankedDocs(n, roles)}
	got, err := retrieval.SearchDemoting(context.Background(), b, retrieval.Request{Strategy: retrieval.Lexical, Text: "thing", Limit: 10},
		retrieval.Demotion{Roles: []string{retrieval.RoleTest}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprintf("d%d", n-3), fmt.Sprintf("d%d", n-2), fmt.Sprintf("d%d", n-1), "d0", "d1", "d2", "d3", "d4", "d5", "d6"}
	if diff := cmp.Diff(want, ids(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if b.searches != 2 {
		t.Errorf("%d searches, want 2", b.searches)
	}
}

func TestQuotesMatchesTheFirstWordsOfADocComment(t *testing.T) {
	doc := "ShippingCost computes the shipping cost of a parcel. It rounds up."
	for text, want := range map[string]bool{
		"ShippingCost computes the shipping cost of a parcel.":                       true,
		"shippingcost COMPUTES the":                                                  true,
		"ShippingCost computes":                                                      false, // too short to be a quote
		"computes the shipping cost":                                                 false, // not its start
		"ShippingCost computes the shipping cost of a parcel. It rounds up and down": false,
	} {
		if got := retrieval.Quotes(text, doc); got != want {
			t.Errorf("Quotes(%q) = %v, want %v", text, got, want)
		}
	}
}
