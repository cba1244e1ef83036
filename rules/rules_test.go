package rules_test

import (
	"context"
	"testing"

	"github.com/rlm-dev/rlm/engine/ruletest"
	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/tms"
)

// TestRules runs every *_test.pl beside the default rules, one subtest per
// test clause, with the host predicates the planner registers.
func TestRules(t *testing.T) {
	ruletest.Run(t, planner.EngineOptions(planner.Options{}, nil))
}

// TestPromptRules runs the prompt rules' tests in the prompt compiler's
// own engine: only rules/prompt, with its closed vocabulary.
func TestPromptRules(t *testing.T) {
	opts, err := prompt.EngineOptions(prompt.CompilerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ruletest.Run(t, opts)
}

// TestEveryRuleIDIsRegisteredAndUsed: every rule ID a default rule names
// (in a because/2 or a class rule's head) is registered with rule_id/2,
// and every registered ID is named by a rule — in the planner's engine
// (every folder) and in the prompt compiler's (rules/prompt alone).
func TestEveryRuleIDIsRegisteredAndUsed(t *testing.T) {
	pl, err := planner.New(planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	problems, err := pl.CheckRuleIDs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	ids, err := pl.RuleIDs(context.Background())
	if err != nil || len(ids) < 40 {
		t.Fatalf("registry: %d IDs, %v", len(ids), err)
	}
	c, err := prompt.NewCompiler(prompt.CompilerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	problems, err = c.CheckRuleIDs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error("prompt compiler:", p)
	}
	if ids, err := c.RuleIDs(context.Background()); err != nil || len(ids) < 15 {
		t.Fatalf("prompt registry: %d IDs, %v", len(ids), err)
	}
}

// TestTMSRulesInTheirOwnEngine runs the truth-maintenance rules' tests in
// the engine package tms loads (rules/tms alone, with its label/5
// vocabulary) and checks their rule IDs there.
func TestTMSRulesInTheirOwnEngine(t *testing.T) {
	opts, err := tms.EngineOptions(tms.RulesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ruletest.Run(t, opts)
	r, err := tms.NewRules(tms.RulesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	problems, err := r.Engine().CheckRuleIDs(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error("tms:", p)
	}
}
