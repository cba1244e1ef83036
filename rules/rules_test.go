package rules_test

import (
	"testing"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/engine/ruletest"
	"github.com/rlm-dev/rlm/rules"
)

// TestRules runs every *_test.pl beside the default rules, one subtest per
// test clause. The bridge's host predicates are registered, as rlm does:
// toplevel.pl calls query_features/2.
func TestRules(t *testing.T) {
	ruletest.Run(t, engine.Options{Rules: rules.FS, RulesLabel: "rules", Predicates: bridge.Predicates()})
}
