package main

import (
	"context"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/engine/ruletest"
	"github.com/rlm-dev/rlm/planner"
)

// TestExtensionRules runs the extension's own rule tests (and the
// defaults') through go test, as a host would.
func TestExtensionRules(t *testing.T) {
	ruletest.Run(t, planner.EngineOptions(planner.Options{RulesDir: rulesDir()}, nil))
}

// TestExtensionAnswersInterfaceQuestions: with the extension loaded, an
// interface question is answered with interface definitions only; without
// it, the same question is a plain description.
func TestExtensionAnswersInterfaceQuestions(t *testing.T) {
	ctx := context.Background()
	for _, ext := range []bool{true, false} {
		opts := rlm.Options{InMemory: true}
		if ext {
			opts.Rules = rulesDir()
		}
		p, err := rlm.Open(ctx, "../../testdata/gosample", opts)
		if err != nil {
			t.Fatal(err)
		}
		ans, err := p.Search(ctx, "which interfaces write output?", 10)
		p.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !ext {
			if ans.Class == "interface_listing" {
				t.Fatal("the default rules know interface_listing without the extension")
			}
			continue
		}
		if ans.Class != "interface_listing" || len(ans.Hits) == 0 {
			t.Fatalf("class %s, %d hits", ans.Class, len(ans.Hits))
		}
		for _, h := range ans.Hits {
			if h.Kind != "interface" {
				t.Errorf("hit %s is a %s, not an interface", h.Symbol, h.Kind)
			}
		}
	}
}
