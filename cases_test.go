package rlm_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

var caseTree = map[string]string{
	"server.go":  "package h\n\n// ServeHTTP answers a request.\nfunc ServeHTTP() {}\n",
	"handler.go": "package h\n\n// Handle routes a request.\nfunc Handle() { ServeHTTP() }\n\n// Wrap wraps a handler.\nfunc Wrap() { ServeHTTP() }\n",
}

func openCases(t *testing.T, root, rules string) *rlm.Project {
	t.Helper()
	p, err := rlm.Open(context.Background(), root, rlm.Options{InMemory: true, Cases: true, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func symbols(a *rlm.Answer) []string {
	var out []string
	for _, h := range a.Hits {
		out = append(out, h.Path+":"+h.Symbol)
	}
	slices.Sort(out)
	return out
}

// TestAReusedCaseIsExplainedAndSkipsTheStepsThatFailed: "what calls
// servehttp" needs the case-insensitive fallback before its graph step;
// the case is retained, and "who calls ServeHttp?" reuses its graph step
// alone: the same hits and resolution, one step, and the explanation
// names the case and the question it came from.
func TestAReusedCaseIsExplainedAndSkipsTheStepsThatFailed(t *testing.T) {
	root := testfixture.WriteTree(t, caseTree)
	p := openCases(t, root, "")
	first := search(t, p, "what calls servehttp")
	if len(first.Plan) < 3 || first.ReusedCase != 0 || p.CaseStats().Retained != 1 {
		t.Fatalf("first search: %d steps, reused %d, stats %+v", len(first.Plan), first.ReusedCase, p.CaseStats())
	}
	again := search(t, p, "who calls ServeHttp?")
	if again.ReusedCase == 0 || len(again.Plan) != 1 || p.CaseStats().Reused != 1 {
		t.Fatalf("second search: reused %d, %d steps, stats %+v", again.ReusedCase, len(again.Plan), p.CaseStats())
	}
	if !slices.Equal(symbols(first), symbols(again)) || again.Resolved == nil || again.Resolved.To != "ServeHTTP" {
		t.Errorf("reused answer %v (resolved %+v), planned %v", symbols(again), again.Resolved, symbols(first))
	}
	why := again.Explain[1]
	premises := strings.Join(why.Premises, " ")
	if why.Rule != "cb_reuse" || !strings.Contains(premises, `query("what calls servehttp")`) || !strings.Contains(premises, "case(") {
		t.Errorf("the explanation does not name the case: %v", why)
	}
	cs, err := p.Cases(context.Background())
	if err != nil || len(cs) != 1 || cs[0].Uses != 1 {
		t.Errorf("cases: %+v, %v", cs, err)
	}
}

// TestACaseIsNotReusedOnAnotherSnapshot: a case's skipped steps failed on
// the snapshot it was retained on; once the tree changes they may succeed
// ("servehttp" now exists), so the case is vetoed and the question planned
// afresh: the answer is about the new function, with no false "no symbol"
// note.
func TestACaseIsNotReusedOnAnotherSnapshot(t *testing.T) {
	root := testfixture.WriteTree(t, caseTree)
	p := openCases(t, root, "")
	search(t, p, "what calls servehttp")
	testfixture.WriteFiles(t, root, map[string]string{"lower.go": "package h\n\nfunc servehttp() {}\n\nfunc callsLower() { servehttp() }\n"})
	again := search(t, p, "what calls servehttp")
	if again.ReusedCase != 0 || p.CaseStats().Reused != 0 {
		t.Fatalf("the case was reused on a changed tree: reused %d, stats %+v", again.ReusedCase, p.CaseStats())
	}
	if got := symbols(again); !slices.Equal(got, []string{"lower.go:callsLower"}) || again.Resolved != nil {
		t.Errorf("answer %v (resolved %+v), want lower.go:callsLower, not resolved", got, again.Resolved)
	}
	vetoed := false
	for _, b := range again.Explain {
		vetoed = vetoed || strings.Contains(strings.Join(b.Premises, " "), "cb_veto_other_snapshot")
	}
	if !vetoed {
		t.Errorf("the explanation does not say why the case was not reused: %+v", again.Explain)
	}
}

// TestARuleCanVetoReuse: a harness's veto_reuse/3 clause keeps the case
// from being reused; the question is planned as usual.
func TestARuleCanVetoReuse(t *testing.T) {
	root := testfixture.WriteTree(t, caseTree)
	rules := testfixture.WriteTree(t, map[string]string{"mine/veto.pl": `:- multifile(rule_id/2).
:- multifile(veto_reuse/3).
rule_id(my_fresh_callers, "callers are always planned afresh").
veto_reuse(F, _, because(my_fresh_callers, [])) :-
    feature(relation(callers), F).
`})
	p := openCases(t, root, rules)
	search(t, p, "what calls servehttp")
	again := search(t, p, "who calls ServeHttp?")
	if again.ReusedCase != 0 || len(again.Plan) < 3 || p.CaseStats().Reused != 0 {
		t.Errorf("a vetoed case was reused: case %d, %d steps, %+v", again.ReusedCase, len(again.Plan), p.CaseStats())
	}
}

// TestAReuseThatFindsNothingIsPlannedAfreshAndRevised: with a harness
// rule allowing reuse across snapshots, after the callers are gone the
// reused step finds nothing; the answer is the planned one and the case
// counts the failure.
func TestAReuseThatFindsNothingIsPlannedAfreshAndRevised(t *testing.T) {
	root := testfixture.WriteTree(t, caseTree)
	rules := testfixture.WriteTree(t, map[string]string{"mine/allow.pl": `:- multifile(allow_other_snapshot/2).
allow_other_snapshot(_, _).
`})
	p := openCases(t, root, rules)
	search(t, p, "what calls servehttp")
	write(t, root, "handler.go", "package h\n\n// Handle routes a request.\nfunc Handle() {}\n")
	again := search(t, p, "who calls ServeHttp?")
	if again.ReusedCase != 0 || p.CaseStats().Failed != 1 || len(again.Hits) != 0 {
		t.Errorf("after the callers went: reused %d, hits %v, stats %+v", again.ReusedCase, symbols(again), p.CaseStats())
	}
	cs, _ := p.Cases(context.Background())
	if len(cs) != 1 || cs[0].Failures != 1 {
		t.Errorf("the case was not revised: %+v", cs)
	}
}
