package planner

import (
	"context"
	"fmt"
	"slices"

	pl "github.com/ichiban/prolog/engine"

	"github.com/rlm-dev/rlm/internal/plsyntax"
)

// RuleIDProblem is a rule ID used but not registered with rule_id/2, or
// registered but used by no rule.
type RuleIDProblem struct {
	File string // display path of the rule file
	Line int    // 1-based line of the use or of the registration
	ID   string
	What string // "not registered" or "registered but never used"
}

func (p RuleIDProblem) String() string {
	return fmt.Sprintf("%s:%d: rule ID %s is %s", p.File, p.Line, p.ID, p.What)
}

// idHeads are the predicates whose first argument is a rule ID (the class
// rules carry theirs there rather than in a because/2).
var idHeads = map[string]int{"class_rule": 4, "extra_class_rule": 4}

// CheckRuleIDs reads every loaded rule file (not the tests) and reports
// each rule ID that a because(ID, _) or a class rule's head names but no
// rule_id/2 fact registers, and each registered ID no rule uses. A rule ID
// is an atom in those positions; variables (IDs chosen at run time) are
// not checked.
func (p *Planner) CheckRuleIDs(ctx context.Context) ([]RuleIDProblem, error) {
	reg, err := p.RuleIDs(ctx)
	if err != nil {
		return nil, err
	}
	registered := map[string]bool{}
	for _, r := range reg {
		registered[r.ID] = true
	}
	vm, err := plsyntax.NewParserVM()
	if err != nil {
		return nil, err
	}
	type place struct {
		file string
		line int
	}
	used := map[string]bool{}
	regAt := map[string]place{}
	var problems []RuleIDProblem
	for _, src := range p.eng.Sources() {
		lines := plsyntax.NewLines(src.Text)
		sc := plsyntax.NewScanner(src.Text)
		for {
			c, ok := sc.Next()
			if !ok {
				break
			}
			terms, err := plsyntax.ReadClause(vm, src.Text, &c)
			if err != nil {
				return nil, fmt.Errorf("planner: %s: %w", src.Path, err)
			}
			at := func(id string) int {
				i := plsyntax.FindName(c.Tokens, 0, len(c.Tokens), id, false)
				off := c.Start
				if i >= 0 {
					off = c.Tokens[i].Start
				}
				l, _ := lines.Pos(off)
				return l
			}
			for _, t := range terms {
				head := t
				if cp, ok := t.(pl.Compound); ok && cp.Functor() == pl.NewAtom(":-") && cp.Arity() == 2 {
					head = cp.Arg(0)
				}
				if cp, ok := head.(pl.Compound); ok && cp.Functor() == pl.NewAtom("rule_id") && cp.Arity() == 2 {
					if id, ok := cp.Arg(0).(pl.Atom); ok {
						regAt[id.String()] = place{src.Path, at(id.String())}
					}
					continue
				}
				if cp, ok := head.(pl.Compound); ok && idHeads[cp.Functor().String()] == cp.Arity() {
					if id, ok := cp.Arg(0).(pl.Atom); ok {
						used[id.String()] = true
						if !registered[id.String()] {
							problems = append(problems, RuleIDProblem{src.Path, at(id.String()), id.String(), "not registered"})
						}
					}
				}
				walkBecause(t, 0, func(id string) {
					used[id] = true
					if !registered[id] {
						problems = append(problems, RuleIDProblem{src.Path, at(id), id, "not registered"})
					}
				})
			}
		}
	}
	for _, r := range reg {
		if !used[r.ID] {
			at := regAt[r.ID]
			problems = append(problems, RuleIDProblem{at.file, at.line, r.ID, "registered but never used"})
		}
	}
	slices.SortStableFunc(problems, func(a, b RuleIDProblem) int {
		if a.File != b.File {
			if a.File < b.File {
				return -1
			}
			return 1
		}
		return a.Line - b.Line
	})
	return problems, nil
}

// walkBecause calls fn with the atom ID of every because(ID, _) in t.
func walkBecause(t pl.Term, depth int, fn func(string)) {
	cp, ok := t.(pl.Compound)
	if !ok || depth > 1000 {
		return
	}
	if cp.Functor() == pl.NewAtom("because") && cp.Arity() == 2 {
		if id, ok := cp.Arg(0).(pl.Atom); ok {
			fn(id.String())
		}
	}
	for i := 0; i < cp.Arity(); i++ {
		walkBecause(cp.Arg(i), depth+1, fn)
	}
}
