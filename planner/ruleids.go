package planner

import (
	"context"

	"github.com/rlm-dev/rlm/engine"
)

// RuleIDProblem is a rule ID used but not registered with rule_id/2, or
// registered but used by no rule (see engine.Engine.CheckRuleIDs).
type RuleIDProblem = engine.RuleIDProblem

// idHeads are the predicates whose first argument is a rule ID (the class
// rules carry theirs there rather than in a because/2).
var idHeads = []string{"class_rule/4", "extra_class_rule/4"}

// CheckRuleIDs reports each rule ID that a loaded rule file's
// because(ID, _) or class rule head names but no rule_id/2 fact registers,
// and each registered ID no rule uses (engine.Engine.CheckRuleIDs).
func (p *Planner) CheckRuleIDs(ctx context.Context) ([]RuleIDProblem, error) {
	return p.eng.CheckRuleIDs(ctx, idHeads)
}
