package planner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/planner"
)

// TestTheRulesPreferACaseWhoseEvidenceWasCited: of two similar cases, the
// rules reuse the one whose evidence answers cited over the first one
// offered, whose evidence answers were given and ignored, and the
// explanation says so; with equal citations the first is reused.
func TestTheRulesPreferACaseWhoseEvidenceWasCited(t *testing.T) {
	ctx := context.Background()
	pl := mustPlanner(t, planner.Options{})
	plan, err := pl.Plan(ctx, "who calls ServeHttp")
	if err != nil {
		t.Fatal(err)
	}
	ran := func(steps ...planner.ExecutedStep) []planner.ExecutedStep { return steps }
	ignored := planner.CaseCandidate{ID: 8, Query: "what calls ServeHTTP", Class: plan.Class, Hits: 2, Ignored: 2, SameSnapshot: true,
		Plan: ran(planner.ExecutedStep{Step: planner.Step{Strategy: "exact", Name: "ServeHTTP", Role: "evidence"}},
			planner.ExecutedStep{Step: planner.Step{Strategy: "lexical", Text: "ServeHTTP", Role: "evidence"}, Hits: 2})}
	cited := planner.CaseCandidate{ID: 7, Query: "what calls servehttp", Class: plan.Class, Hits: 4, Cited: 3, SameSnapshot: true,
		Plan: ran(planner.ExecutedStep{Step: planner.Step{Strategy: "exact", Name: "servehttp", Role: "check"}},
			planner.ExecutedStep{Step: planner.Step{Strategy: "graph", Name: "ServeHTTP", Relation: "callers", Role: "evidence"}, Hits: 4})}
	uncited := cited
	uncited.Cited = 0
	for _, c := range []struct {
		name    string
		cands   []planner.CaseCandidate
		want    int64
		because string // a premise of the reuse ("" none about citations)
	}{
		{"cited preferred", []planner.CaseCandidate{ignored, cited}, 7, "cb_prefer_cited"},
		{"cited first", []planner.CaseCandidate{cited, ignored}, 7, ""},
		{"no citations", []planner.CaseCandidate{{ID: 8, Query: ignored.Query, Class: ignored.Class, Hits: 2, Plan: ignored.Plan, SameSnapshot: true}, uncited}, 8, ""},
	} {
		r, _, err := pl.ChooseCase(ctx, plan, c.cands)
		if err != nil || r == nil {
			t.Fatalf("%s: %v %v", c.name, r, err)
		}
		premises := strings.Join(r.Because.Premises, " ")
		if r.CaseID != c.want || strings.Contains(premises, "cb_prefer_cited") != (c.because != "") {
			t.Errorf("%s: reused case %d because %v; want case %d (citation premise %q)", c.name, r.CaseID, r.Because, c.want, c.because)
		}
	}
}
