package rlm_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/planner"
)

var recencyTree = map[string]string{
	"retry.go":  "package r\n\n// Retry repeats a failed attempt with backoff.\nfunc Retry() {}\n",
	"parse.go":  "package r\n\n// Parse reads a retry header.\nfunc Parse() {}\n",
	"policy.pl": "% retry_policy(Attempts): how often to retry.\nretry_policy(3).\n",
	"close.go":  "package r\n\n// Close ends the stream.\nfunc Close() {}\n",
}

func hitPaths(a *rlm.Answer) []string {
	var out []string
	for _, h := range a.Hits {
		if !slices.Contains(out, h.Path) {
			out = append(out, h.Path)
		}
	}
	slices.Sort(out)
	return out
}

// TestRecencyAndProvenanceConstraintsAreAppliedByTheBackendAndShownInThePlan:
// "changed since last index" keeps the definitions of the files whose bytes
// changed in the snapshot's own generation, "changed since generation N"
// those changed after N, "tree-sitter only" and "prolog facts" those one
// parser extracted; the backend filters the hits and the plan's steps
// carry the filter.
func TestRecencyAndProvenanceConstraintsAreAppliedByTheBackendAndShownInThePlan(t *testing.T) {
	root, p := openPlain(t, recencyTree)
	first := p.Snapshot().Generation
	write(t, root, "parse.go", strings.Replace(recencyTree["parse.go"], "Parse()", "Parse(s string)", 1))
	search(t, p, "Parse") // refreshes: a new generation with parse.go changed
	write(t, root, "retry.go", strings.Replace(recencyTree["retry.go"], "Retry()", "Retry(n int)", 1))
	search(t, p, "Retry")
	if got := p.Snapshot().Generation; got != first+2 {
		t.Fatalf("generation %d after two edits, want %d", got, first+2)
	}
	g0, g1 := itoa(first), itoa(first+1)
	cases := []struct {
		query, strategy, filter string // filter: how the plan's first step shows it ("" none)
		paths                   []string
	}{
		{"what changed since the last index", "structural", "changed-since=last", []string{"retry.go"}},
		{"recently changed", "structural", "changed-since=last", []string{"retry.go"}},
		{"what changed since generation " + g0, "structural", "changed-since=" + g0, []string{"parse.go", "retry.go"}},
		{"what changed since generation " + g1, "structural", "changed-since=" + g1, []string{"retry.go"}},
		{"retry header changed since generation " + g1, "lexical", "changed-since=" + g1, []string{"retry.go"}},
		{"retry policy attempts", "lexical", "", []string{"parse.go", "policy.pl", "retry.go"}},
		{"retry policy attempts tree-sitter only", "lexical", "parser=tree-sitter", []string{"parse.go", "retry.go"}},
		{"prolog facts retry policy attempts", "lexical", "parser=ichiban-prolog", []string{"policy.pl"}},
	}
	for _, c := range cases {
		a, err := p.Search(context.Background(), c.query, 10)
		if err != nil {
			t.Fatalf("%q: %v", c.query, err)
		}
		if got := hitPaths(a); !slices.Equal(got, c.paths) {
			t.Errorf("%q: hits in %v, want %v", c.query, got, c.paths)
		}
		if len(a.Plan) == 0 {
			t.Fatalf("%q: no plan", c.query)
		}
		s := a.Plan[0].Step
		shown := strings.Contains(s.String(), c.filter)
		if c.filter == "" {
			shown = !strings.Contains(s.String(), "changed-since=") && !strings.Contains(s.String(), "parser=")
		}
		if s.Strategy != c.strategy || !shown {
			t.Errorf("%q: plan %v, want a %s step showing %q", c.query, a.Plan, c.strategy, c.filter)
		}
	}
}

// TestChangedSinceTheLastIndexNeedsTheSnapshotsGeneration: the planner
// alone, given no generation, refuses a changed(last) step with
// ErrNoGeneration instead of filtering on nothing.
func TestChangedSinceTheLastIndexNeedsTheSnapshotsGeneration(t *testing.T) {
	pl, err := rlm.NewPlanner(rlm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := pl.Plan(context.Background(), "recently changed")
	if err != nil {
		t.Fatal(err)
	}
	s := plan.Steps[0]
	if _, err := s.Request(10, 0); !errors.Is(err, planner.ErrNoGeneration) {
		t.Errorf("step %s without a generation: %v, want ErrNoGeneration", s, err)
	}
	req, err := s.Request(10, 4)
	if err != nil || req.Filter.ChangedSince != 3 {
		t.Errorf("step %s at generation 4: filter %+v, %v; want changes after generation 3", s, req.Filter, err)
	}
}

// TestAnAnswerAboutTheLastIndexIsNotServedOnceAnotherGenerationIsPublished:
// "retry attempt changed since last index" rests on every change: after
// an edit to a file that mentions neither word, the cached answer goes OUT and
// the new answer no longer holds retry.go (it did not change in the new
// generation).
func TestAnAnswerAboutTheLastIndexIsNotServedOnceAnotherGenerationIsPublished(t *testing.T) {
	root := testfixture.WriteTree(t, recencyTree)
	p := openMemory(t, root)
	write(t, root, "retry.go", strings.Replace(recencyTree["retry.go"], "Retry()", "Retry(n int)", 1))
	const q = "retry attempt changed since last index"
	if got := hitPaths(search(t, p, q)); !slices.Equal(got, []string{"retry.go"}) {
		t.Fatalf("after editing retry.go: hits in %v", got)
	}
	write(t, root, "close.go", strings.Replace(recencyTree["close.go"], "ends", "ends and flushes", 1))
	if got := hitPaths(search(t, p, q)); len(got) != 0 {
		t.Errorf("after editing close.go: hits in %v, want none (retry.go did not change in the last generation)", got)
	}
}

// openPlain writes tree and opens it in memory, without memory or cases.
func openPlain(t *testing.T, tree map[string]string) (string, *rlm.Project) {
	t.Helper()
	root := testfixture.WriteTree(t, tree)
	p, err := rlm.Open(context.Background(), root, rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return root, p
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestWhyNotNamesTheRecencyFilter: asked why a definition whose file did
// not change is not among "what changed since the last index", the rules
// name the recency filter that left it out, not the hit limit.
func TestWhyNotNamesTheRecencyFilter(t *testing.T) {
	root, p := openPlain(t, map[string]string{
		"a.go": "package a\n\n// Fresh is edited below.\nfunc Fresh() {}\n",
		"b.go": "package a\n\n// ConcB never changes.\nfunc ConcB() {}\n",
	})
	write(t, root, "a.go", "package a\n\n// Fresh was edited.\nfunc Fresh() {}\n\nfunc Fresher() {}\n")
	w, err := p.WhyNot(context.Background(), "what changed since the last index", "ConcB")
	if err != nil {
		t.Fatal(err)
	}
	premises := strings.Join(w.Because.Premises, " ")
	if !w.Excluded || w.Because.Rule != "wn_filtered" || !strings.Contains(premises, "filter(changed(") {
		t.Errorf("why not ConcB: %+v", w)
	}
}
