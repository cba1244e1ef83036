package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
	pl "github.com/ichiban/prolog/engine"

	"github.com/rlm-dev/rlm/internal/plsyntax"
)

// checkContiguous refuses a predicate whose clauses are split by other
// clauses or directives without a discontiguous/1 declaration before the
// later ones: ichiban/prolog would refuse the whole file, without a line.
func checkContiguous(f *parsedFile) error {
	allowed := map[string]bool{} // declared discontiguous
	ended := map[string]int{}    // predicate -> offset of its first clause, once its run ended
	prev, first := "", 0
	for _, c := range f.clauses {
		if c.indicator != prev && prev != "" {
			if _, ok := ended[prev]; !ok {
				ended[prev] = first
			}
		}
		if c.directive != "" {
			if c.declKind == "discontiguous" {
				for _, pi := range c.declares {
					allowed[pi] = true
				}
			}
			prev = ""
			continue
		}
		if c.indicator == prev {
			continue
		}
		if at, ok := ended[c.indicator]; ok && !allowed[c.indicator] {
			line, _ := f.lines.Pos(at)
			return f.errorAt(c.offset, c.indicator, fmt.Sprintf(
				"clauses are not together (the first ones are at line %d); keep them together or declare :- discontiguous(%s) before them",
				line, c.indicator))
		}
		prev, first = c.indicator, c.offset
	}
	return nil
}

// checkCalls refuses a clause body that calls a predicate nobody defines
// (see Engine.defined); local holds the file's own predicates when they
// are not in the engine (a test file's helpers).
func (e *Engine) checkCalls(f *parsedFile, local map[string]bool) error {
	for _, c := range f.clauses {
		if c.body == nil {
			continue
		}
		loc := plsyntax.NewLocator(c.clause)
		walk := plsyntax.WalkGoals
		if c.dcg {
			loc.SkipPast("-->")
			walk = func(t pl.Term, _ int, l *plsyntax.Locator, y func(plsyntax.Goal)) { plsyntax.WalkDCGBody(t, l, y) }
		} else {
			loc.SkipPast(":-")
		}
		var bad *LoadError
		walk(c.body, 0, loc, func(g plsyntax.Goal) {
			pi := g.Indicator()
			if e.called != nil {
				e.called[pi] = true
			}
			if bad != nil || g.Module == "" && (e.defined[pi] || local[pi]) {
				return
			}
			at := c.clause.Start
			if g.Token >= 0 {
				at = c.clause.Tokens[g.Token].Start
			}
			if g.Module != "" {
				bad = f.errorAt(at, "", fmt.Sprintf("calls %s:%s, but rule files have no modules", g.Module, pi))
				return
			}
			bad = f.errorAt(at, "", "calls undefined predicate "+pi+e.nearMiss(g.Name, g.Arity, local))
		})
		if bad != nil {
			return bad
		}
	}
	return nil
}

// nearMiss suggests defined predicates for an undefined name/arity: the
// same name with other arities, else names within edit distance 2. It
// returns "" or " (did you mean ...?)".
func (e *Engine) nearMiss(name string, arity int, local map[string]bool) string {
	type cand struct {
		pi         string
		dist, diff int
	}
	var cs []cand
	consider := func(pi string) {
		i := strings.LastIndexByte(pi, '/')
		n := pi[:i]
		a, _ := strconv.Atoi(pi[i+1:])
		d := 0
		if n != name {
			d = levenshtein.ComputeDistance(n, name)
			if d > 2 || d >= utf8.RuneCountInString(name) {
				return
			}
		}
		diff := a - arity
		if diff < 0 {
			diff = -diff
		}
		cs = append(cs, cand{pi, d, diff})
	}
	for pi := range e.defined {
		consider(pi)
	}
	for pi := range local {
		if !e.defined[pi] {
			consider(pi)
		}
	}
	if len(cs) == 0 {
		return ""
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].dist != cs[j].dist {
			return cs[i].dist < cs[j].dist
		}
		if cs[i].diff != cs[j].diff {
			return cs[i].diff < cs[j].diff
		}
		return cs[i].pi < cs[j].pi
	})
	var names []string
	for _, c := range cs {
		if len(names) == 3 || c.dist > cs[0].dist {
			break
		}
		names = append(names, c.pi)
	}
	return " (did you mean " + strings.Join(names, " or ") + "?)"
}

// nearHook suggests the hook predicates (declared multifile by some file)
// closest to name/arity: " (did you mean extra_class_rule/4?)" or "".
func (e *Engine) nearHook(name string, arity int, hooks map[string][]mfDeclRef) string {
	best, bestD := "", 3
	for pi, ds := range hooks {
		if len(ds) == 0 {
			continue
		}
		i := strings.LastIndexByte(pi, '/')
		if pi[:i] == name {
			if a, _ := strconv.Atoi(pi[i+1:]); a == arity {
				continue
			}
		}
		if d := levenshtein.ComputeDistance(pi[:i], name); d < bestD || d == bestD && pi < best {
			best, bestD = pi, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + best + "?)"
}
