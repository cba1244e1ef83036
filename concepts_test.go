package rlm_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestConceptExpansionAppearsInThePlanAndFindsSynonyms: a description
// that says "auth" searches for login and credentials too, the plan's step
// shows the added words and its rule names the expansion; a definition
// that says only "login" is found.
func TestConceptExpansionAppearsInThePlanAndFindsSynonyms(t *testing.T) {
	root := testfixture.WriteTree(t, map[string]string{
		"session.go": "package s\n\n// CheckLogin validates the login credential of a session.\nfunc CheckLogin() bool { return true }\n",
		"cache.go":   "package s\n\n// Evict drops stale entries.\nfunc Evict() {}\n",
	})
	p, err := rlm.Open(context.Background(), root, rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	const q = "check the auth token expiry"
	plan, err := p.Plan(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Steps) != 1 || !strings.Contains(plan.Steps[0].Text, "login credential") {
		t.Fatalf("plan steps: %v", plan.Steps)
	}
	why := strings.Join(plan.Because[1].Premises, " ")
	if !strings.Contains(why, `because(cx_synonym, [word("auth"), adds([`) {
		t.Errorf("the step's rule does not name the expansion: %s", why)
	}
	a, err := p.Search(context.Background(), q, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Hits) == 0 || a.Hits[0].Symbol != "CheckLogin" {
		t.Errorf("hits: %+v", a.Hits)
	}
}

// TestConstraintsInTheQueryAreAppliedByTheBackendAndShownInThePlan: "in
// DIR/", "tests only" and "non-test" narrow the hits the backend returns,
// and the plan's steps carry the filters.
func TestConstraintsInTheQueryAreAppliedByTheBackendAndShownInThePlan(t *testing.T) {
	root := testfixture.WriteTree(t, map[string]string{
		"sourcefacts/store.go": "package sourcefacts\n\n// Store keeps facts.\nfunc Store() {}\n",
		"cmd/store.go":         "package cmd\n\n// Store keeps commands.\nfunc Store() {}\n",
		"retry.go":             "package r\n\n// Retry repeats a failed attempt with backoff.\nfunc Retry() {}\n",
		"retry_test.go":        "package r\n\n// TestRetry checks each attempt and the backoff.\nfunc TestRetry() {}\n",
	})
	p, err := rlm.Open(context.Background(), root, rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cases := []struct {
		query, step string
		paths       []string
	}{
		{"where is Store defined", `exact("Store")`, []string{"cmd/store.go", "sourcefacts/store.go"}},
		{"where is Store defined in sourcefacts/", `exact("Store", path=sourcefacts/)`, []string{"sourcefacts/store.go"}},
		// A description demotes examples (rules/retrieval/roles.pl); its
		// tests filter replaces the demotion of tests.
		{"backoff attempt tests only", `lexical("backoff attempt", tests-only, demote=example, spare=doc-start, weigh=doc)`, []string{"retry_test.go"}},
		{"non-test backoff attempt", `lexical("backoff attempt", no-tests, demote=example, spare=doc-start, weigh=doc)`, []string{"retry.go"}},
	}
	for _, c := range cases {
		a, err := p.Search(context.Background(), c.query, 10)
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, h := range a.Hits {
			paths = append(paths, h.Path)
		}
		slices.Sort(paths)
		if !slices.Equal(paths, c.paths) {
			t.Errorf("%q: hits %v, want %v", c.query, paths, c.paths)
		}
		if len(a.Plan) == 0 || a.Plan[0].Step.String() != c.step {
			t.Errorf("%q: plan %v, want first step %s", c.query, a.Plan, c.step)
		}
	}
}
