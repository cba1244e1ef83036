// Package ruletest runs Prolog rule tests (*_test.pl files, see
// engine.RunTests) as Go subtests, so that `go test` covers a rule
// directory. A Go host tests its own rules directory with
//
//	func TestMyRules(t *testing.T) {
//		ruletest.Run(t, engine.Options{Rules: rules.FS, UserDir: "myrules", Predicates: ...})
//	}
//
// or, with layers, engine.Options{Layers: []engine.Layer{...}}.
package ruletest

import (
	"context"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/engine"
)

// Run loads an engine with opts and runs each test file as a subtest named
// after its path relative to its layer without ".pl" (e.g.
// "retrieval/classify_test"), and each test clause as a subtest of it. A failure reads
// "file:line: test NAME: goal failed: GOAL". It fails the test if the
// engine or a test file cannot be loaded, or if there are no tests.
func Run(t *testing.T, opts engine.Options) {
	t.Helper()
	e, err := engine.New(opts)
	if err != nil {
		t.Fatalf("loading rules: %v", err)
	}
	srcs := e.TestSources()
	if len(srcs) == 0 {
		t.Fatal("no *_test.pl files found")
	}
	for _, src := range srcs {
		t.Run(strings.TrimSuffix(src.Name, ".pl"), func(t *testing.T) {
			res, err := e.RunTests(context.Background(), src)
			if err != nil {
				t.Fatalf("%v", err)
			}
			if len(res) == 0 {
				t.Fatalf("%s has no test/1 clauses", src.Path)
			}
			for _, r := range res {
				t.Run(r.Name, func(t *testing.T) {
					if !r.Passed {
						t.Error(r.String())
					}
				})
			}
		})
	}
}
