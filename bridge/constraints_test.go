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
		{"retry logic changed since last index", []Constraint{{ConstraintChanged, ChangedLast}}, []string{"retry", "logic"}},
		{"what changed since the previous generation", []Constraint{{ConstraintChanged, ChangedLast}}, nil},
		{"recently changed parsers", []Constraint{{ConstraintChanged, ChangedLast}}, []string{"parsers"}},
		{"parsers modified recently", []Constraint{{ConstraintChanged, ChangedLast}}, []string{"parsers"}},
		{"retry changed since generation 12", []Constraint{{ConstraintChanged, "12"}}, []string{"retry"}},
		{"retry after gen 3", []Constraint{{ConstraintChanged, "3"}}, []string{"retry"}},
		{"tree-sitter only retry helpers", []Constraint{{ConstraintParser, "tree-sitter"}}, []string{"retry", "helpers"}},
		{"retry helpers parsed by tree-sitter", []Constraint{{ConstraintParser, "tree-sitter"}}, []string{"retry", "helpers"}},
		{"prolog facts about retry", []Constraint{{ConstraintParser, "ichiban-prolog"}}, []string{"retry"}},
		{"retry in prolog facts changed since last index", []Constraint{{ConstraintParser, "ichiban-prolog"}, {ConstraintChanged, ChangedLast}}, []string{"retry"}},
		{"since generation five", nil, []string{"since", "generation", "five"}},
		{"the last index entry", nil, []string{"last", "index", "entry"}},
		{"wrapping tree-sitter", nil, []string{"wrapping", "tree-sitter"}},
		{"cookies in net/http", nil, []string{"cookies"}},
		{"written in go", nil, []string{"written", "go"}},
		{"only the test harness", nil, []string{"only", "test", "harness"}},
		// "since the last INDEX" outside a question about changes is text.
		{"time elapsed since the last refresh", nil, []string{"time", "elapsed", "since", "last", "refresh"}},
		{"idle time since last index update", nil, []string{"idle", "time", "since", "last", "index", "update"}},
		{"what is new since the last index", []Constraint{{ConstraintChanged, ChangedLast}}, []string{"new"}},
		{"retry helpers without examples", []Constraint{{ConstraintExamples, "exclude"}}, []string{"retry", "helpers"}},
		{"non-example parsers", []Constraint{{ConstraintExamples, "exclude"}}, []string{"parsers"}},
		{"examples only retry attempts", []Constraint{{ConstraintExamples, "only"}}, []string{"retry", "attempts"}},
		{"retry attempts in examples", []Constraint{{ConstraintExamples, "only"}}, []string{"retry", "attempts"}},
		{"retry in examples without tests", []Constraint{{ConstraintExamples, "only"}, {ConstraintTests, "exclude"}}, []string{"retry"}},
		{"an example of retry", nil, []string{"example", "retry"}},
		// A trailing "only" belongs to the filter.
		{"Server from tree-sitter only", []Constraint{{ConstraintParser, "tree-sitter"}}, []string{"server"}},
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

// TestTheStepsSearchTheQueryWithoutItsConstraintPhrases: the text the
// rules hand to lexical, hybrid and vector steps (text/1) leaves out the
// words a constraint used, so "last" in "changed since the last index" is
// not searched for; a query without constraints searches as written.
func TestTheStepsSearchTheQueryWithoutItsConstraintPhrases(t *testing.T) {
	for q, want := range map[string]string{
		"parse multipart form changed since the last index": "parse multipart form",
		"retry helpers from tree-sitter only":               "retry helpers",
		`"Server" in python only`:                           `"Server"`,
		"parse multipart form":                              "",
	} {
		if got := QueryFeatures(q).Search; got != want {
			t.Errorf("%q: search text %q, want %q", q, got, want)
		}
	}
}
