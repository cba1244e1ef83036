package bridge

import (
	"strings"

	"github.com/rlm-dev/rlm/engine"
)

// Constraint is a filter a query asks for in words, parsed by Go as data:
// Kind is one of the Constraint* constants, Value its argument.
type Constraint struct {
	Kind  string
	Value string
}

// Constraint kinds, the closed vocabulary of Constraint.Kind (the step
// arguments of the same names apply them).
const (
	ConstraintPath     = "path"     // "in sourcefacts/", "under cmd/rlm/": a directory, ending in "/"
	ConstraintLanguage = "language" // "python only", "only go", "in rust"
	ConstraintKind     = "kind"     // "functions only", "only interfaces"
	ConstraintTests    = "tests"    // "tests only", "in tests" (only); "non-test", "no tests" (exclude)
)

// constraintLanguages maps the words of a language to its name in the
// knowledge base.
var constraintLanguages = map[string]string{
	"go": "go", "golang": "go", "python": "python", "javascript": "javascript", "js": "javascript",
	"typescript": "typescript", "ts": "typescript", "java": "java", "rust": "rust", "ruby": "ruby",
	"c": "c", "cpp": "cpp", "prolog": "prolog",
}

// constraintKinds maps the plural of a definition kind to the kind.
var constraintKinds = map[string]string{
	"functions": "function", "methods": "method", "types": "type", "interfaces": "interface",
	"structs": "struct", "classes": "class", "constants": "constant", "enums": "enum",
	"macros": "macro", "modules": "module", "predicates": "predicate",
}

var (
	pathWords     = setOf(`in under within inside`)
	testWords     = setOf(`test tests`)
	noTestPhrases = setOf(`no without excluding except not`)
)

// constraints finds the constraint phrases among the lowercased tokens and
// returns them with the tokens they use, which are then not words,
// identifiers or paths of the query.
func constraints(toks, lower []string) ([]Constraint, []bool) {
	used := make([]bool, len(toks))
	var out []Constraint
	add := func(c Constraint, idx ...int) {
		for _, prev := range out {
			if prev.Kind == c.Kind {
				return // the first of a kind wins
			}
		}
		out = append(out, c)
		for _, i := range idx {
			used[i] = true
		}
	}
	at := func(i int) string {
		if i < 0 || i >= len(lower) {
			return ""
		}
		return lower[i]
	}
	for i, w := range lower {
		prev, next := at(i-1), at(i+1)
		switch {
		case pathWords[w] && isPath(at(i+1)) && strings.HasSuffix(toks[i+1], "/"):
			add(Constraint{ConstraintPath, toks[i+1]}, i, i+1)
		case w == "non-test" || w == "non-tests" || w == "nontest":
			add(Constraint{ConstraintTests, "exclude"}, i)
		case testWords[w] && noTestPhrases[prev]:
			add(Constraint{ConstraintTests, "exclude"}, i-1, i)
		case testWords[w] && next == "only":
			add(Constraint{ConstraintTests, "only"}, i, i+1)
		case testWords[w] && (prev == "only" || prev == "in"):
			add(Constraint{ConstraintTests, "only"}, i-1, i)
		case constraintLanguages[w] != "" && next == "only":
			add(Constraint{ConstraintLanguage, constraintLanguages[w]}, i, i+1)
		case constraintLanguages[w] != "" && (prev == "only" || prev == "in" && w != "c" && w != "go"):
			add(Constraint{ConstraintLanguage, constraintLanguages[w]}, i-1, i)
		case constraintKinds[w] != "" && next == "only":
			add(Constraint{ConstraintKind, constraintKinds[w]}, i, i+1)
		case constraintKinds[w] != "" && prev == "only":
			add(Constraint{ConstraintKind, constraintKinds[w]}, i-1, i)
		}
	}
	return out, used
}

// constraintTerm is c as the rules read it: path(S) with a string, the
// others with an atom of their closed vocabulary.
func constraintTerm(c Constraint) engine.Term {
	if c.Kind == ConstraintPath {
		return engine.Compound(c.Kind, engine.String(c.Value))
	}
	return engine.Compound(c.Kind, engine.Atom(c.Value))
}
