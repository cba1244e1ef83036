package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	pl "github.com/ichiban/prolog/engine"

	"github.com/rlm-dev/rlm/internal/plsyntax"
)

// The rule-ID registry
//
// Every decision rule names itself with a stable ID in a because(ID,
// Premises) term, and every ID is registered, in the file that uses it,
// with a one-line meaning:
//
//	:- multifile(rule_id/2).
//	rule_id(cls_relation, "a relation word (calls, callers, uses) with a target").
//
// RuleIDs lists the registry; CheckRuleIDs finds IDs used but not
// registered and IDs registered but never used. Hosts with their own rule
// folders (the retrieval planner, the prompt compiler) share these.

// RuleID is one entry of the rules' registry rule_id/2.
type RuleID struct {
	ID      string `json:"id"`
	Meaning string `json:"meaning"`
}

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

// RuleIDs returns the registry of decision rules: the rule_id/2 facts of
// every loaded rule file, in load order. A fact that is not
// rule_id(Atom, "meaning") is an error naming it.
func (e *Engine) RuleIDs(ctx context.Context) ([]RuleID, error) {
	sols, err := e.All(ctx, 0, "rule_id", NewVar(), NewVar())
	if err != nil {
		return nil, fmt.Errorf("engine: rule_id/2: %w", err)
	}
	out := make([]RuleID, 0, len(sols))
	for _, s := range sols {
		id, ok := s[0].(AtomValue)
		meaning, ok2 := Text(s[1])
		if !ok || !ok2 {
			return nil, fmt.Errorf("engine: rule_id/2: want rule_id(Atom, \"meaning\"), got rule_id(%s, %s)",
				FormatValue(s[0]), FormatValue(s[1]))
		}
		out = append(out, RuleID{ID: string(id), Meaning: meaning})
	}
	return out, nil
}

// CheckRuleIDs reads every loaded rule file (not the tests) and reports
// each rule ID that a because(ID, _) — or the first argument of a clause
// head whose name/arity is in idHeads (e.g. "class_rule/4", for rules that
// carry their ID there) — names but no rule_id/2 fact registers, and each
// registered ID no rule uses. A rule ID is an atom in those positions;
// variables (IDs chosen at run time) are not checked. Problems are sorted
// by file and line.
func (e *Engine) CheckRuleIDs(ctx context.Context, idHeads []string) ([]RuleIDProblem, error) {
	reg, err := e.RuleIDs(ctx)
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
	for _, src := range e.Sources() {
		lines := plsyntax.NewLines(src.Text)
		sc := plsyntax.NewScanner(src.Text)
		for {
			c, ok := sc.Next()
			if !ok {
				break
			}
			terms, err := plsyntax.ReadClause(vm, src.Text, &c)
			if err != nil {
				return nil, fmt.Errorf("engine: %s: %w", src.Path, err)
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
			use := func(id string) {
				used[id] = true
				if !registered[id] {
					problems = append(problems, RuleIDProblem{src.Path, at(id), id, "not registered"})
				}
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
				if cp, ok := head.(pl.Compound); ok && slices.Contains(idHeads, fmt.Sprintf("%s/%d", cp.Functor(), cp.Arity())) {
					if id, ok := cp.Arg(0).(pl.Atom); ok {
						use(id.String())
					}
				}
				walkBecause(t, 0, use)
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
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
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
