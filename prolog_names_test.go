package rlm_test

import (
	"context"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestPrologPredicatesAreFoundByNameOrIndicator: a Prolog predicate is
// defined as name/arity; asked for by its name alone, or by its
// indicator, its definitions are the first hits, from the exact step.
func TestPrologPredicatesAreFoundByNameOrIndicator(t *testing.T) {
	root := testfixture.WriteTree(t, map[string]string{
		"rules/classify.pl": "classify(Q, C, W) :- class_rule(Q, C, W, _).\n\nclass_rule(_, broad, none, x).\nclassify(Q) :- classify(Q, _, _).\n",
		"classify.go":       "package c\n\n// Classifyer is not the predicate.\nfunc Classifyer() {}\n",
	})
	p, err := rlm.Open(context.Background(), root, rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"where is classify defined?", []string{"classify/3", "classify/1"}},
		{"where is class_rule/4 defined?", []string{"class_rule/4"}},
		{"classify", []string{"classify/3", "classify/1"}},
	} {
		a := search(t, p, c.query)
		var got []string
		for _, h := range a.Hits {
			got = append(got, h.Symbol+" "+h.Strategy)
		}
		for i, w := range c.want {
			if i >= len(got) || got[i] != w+" exact" {
				t.Errorf("%q: hits %v, want first %v by exact", c.query, got, c.want)
				break
			}
		}
	}
}
