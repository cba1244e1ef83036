package rules_test

import (
	"testing"

	"github.com/rlm-dev/rlm/engine/ruletest"
	"github.com/rlm-dev/rlm/planner"
)

// TestRules runs every *_test.pl beside the default rules, one subtest per
// test clause, with the host predicates the planner registers.
func TestRules(t *testing.T) {
	ruletest.Run(t, planner.EngineOptions(planner.Options{}, nil))
}
