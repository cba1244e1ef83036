package bridge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConstraintsAreParsedFromTheQueryAsData: filter phrases become
// constraints, and their words leave the content words (so "retry logic
// python only" is still a two-word description); words that only look
// like a phrase stay words.
func TestConstraintsAreParsedFromTheQueryAsData(t *testing.T) {
	cases := []struct {
		q     string
		want  []Constraint
		words []string
	}{
		{"where is Store defined in sourcefacts/", []Constraint{{ConstraintPath, "sourcefacts/"}}, nil},
		{"retry logic python only", []Constraint{{ConstraintLanguage, "python"}}, []string{"retry", "logic"}},
		{"only rust parsers for tokens", []Constraint{{ConstraintLanguage, "rust"}}, []string{"parsers", "tokens"}},
		{"non-test helpers for parsing", []Constraint{{ConstraintTests, "exclude"}}, []string{"helpers", "parsing"}},
		{"retry helpers without tests", []Constraint{{ConstraintTests, "exclude"}}, []string{"retry", "helpers"}},
		{"tests only retry attempts", []Constraint{{ConstraintTests, "only"}}, []string{"retry", "attempts"}},
		{"retry attempts in tests", []Constraint{{ConstraintTests, "only"}}, []string{"retry", "attempts"}},
		{"interfaces only that write output", []Constraint{{ConstraintKind, "interface"}}, []string{"write", "output"}},
		{"retry in python under cmd/rlm/ tests only", []Constraint{{ConstraintLanguage, "python"}, {ConstraintPath, "cmd/rlm/"}, {ConstraintTests, "only"}}, []string{"retry"}},
		{"cookies in net/http", nil, []string{"cookies"}},
		{"written in go", nil, []string{"written", "go"}},
		{"only the test harness", nil, []string{"only", "test", "harness"}},
	}
	for _, c := range cases {
		f := QueryFeatures(c.q)
		if diff := cmp.Diff(c.want, f.Constraints); diff != "" {
			t.Errorf("%q constraints (-want +got):\n%s", c.q, diff)
		}
		if diff := cmp.Diff(c.words, f.ContentWords); diff != "" {
			t.Errorf("%q words (-want +got):\n%s", c.q, diff)
		}
	}
}
