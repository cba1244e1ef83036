package rules_test

import (
	"context"
	"testing"

	"github.com/rlm-dev/rlm/engine/ruletest"
	"github.com/rlm-dev/rlm/planner"
)

// TestRules runs every *_test.pl beside the default rules, one subtest per
// test clause, with the host predicates the planner registers.
func TestRules(t *testing.T) {
	ruletest.Run(t, planner.EngineOptions(planner.Options{}, nil))
}

// TestEveryRuleIDIsRegisteredAndUsed: every rule ID a default rule names
// (in a because/2 or a class rule's head) is registered with rule_id/2,
// and every registered ID is named by a rule.
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
}
