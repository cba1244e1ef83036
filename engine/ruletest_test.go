package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRuleTestsNeedUniqueGroundNames: the runner calls test(Name) by its
// head, so a second clause with the same name would only run when the
// first failed (and then pass for it), and a name with a variable would
// answer for every name. Both are refused as a *LoadError at the offending
// clause, before any test runs.
func TestRuleTestsNeedUniqueGroundNames(t *testing.T) {
	type where struct {
		Line   int
		Clause string
		Reason string // a part of LoadError.Reason
	}
	cases := []struct {
		name, text string
		want       *where // nil: loads, every test passes
	}{
		{"distinct names", "test(one) :- p(1).\ntest(two) :- p(1).\n", nil},
		{"duplicate atom", "test(same) :- p(1).\n\ntest(other) :- p(1).\n\ntest(same) :-\n    p(2).\n",
			&where{5, "test/1", "duplicate test name same (first at line 1); each test needs its own name"}},
		{"duplicate compound", "test(t(1)) :- p(1).\ntest(t(1)) :- p(1).\n",
			&where{2, "test/1", "duplicate test name t(1) (first at line 1); each test needs its own name"}},
		{"variable name", "test(ok) :- p(1).\ntest(_) :- p(1).\n",
			&where{2, "test/1", "has a variable; name each test with a ground term"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newTestEngine(t, map[string]string{"a.pl": "p(1).\n", "a_test.pl": c.text}, Options{})
			res, err := e.RunTests(context.Background(), e.TestSources()[0])
			if c.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range res {
					if !r.Passed {
						t.Errorf("%s", r)
					}
				}
				return
			}
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("want a *LoadError, got %v (results %v)", err, res)
			}
			got := &where{le.Line, le.Clause, c.want.Reason}
			if !strings.Contains(le.Reason, c.want.Reason) {
				got.Reason = le.Reason
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("(-want +got):\n%s\nerror: %v", d, err)
			}
		})
	}
}
