package bridge

import (
	"slices"
	"strconv"
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
	ConstraintExamples = "examples" // "examples only", "in examples" (only); "no examples", "without examples" (exclude)
	// ConstraintChanged: "changed since last index", "recently changed"
	// (Value ChangedLast); "changed since generation 5" (Value "5", a
	// project generation in decimal).
	ConstraintChanged = "changed"
	// ConstraintParser: "tree-sitter only", "parsed by tree-sitter",
	// "prolog facts": Value is a parser's name (ParserNames).
	ConstraintParser = "parser"
)

// ChangedLast is the Value of a ConstraintChanged for "since the last
// index": the files that changed in the snapshot's own generation.
const ChangedLast = "last"

// ParserNames are the names of the parsers that extract facts
// (retrieval.ParserName of sourcefacts.Provenance.Parser): tree-sitter
// for the grammars' languages, ichiban-prolog for Prolog source.
var ParserNames = []string{"tree-sitter", "ichiban-prolog"}

// constraintParsers maps the words naming a parser to its name.
var constraintParsers = map[string]string{
	"tree-sitter": "tree-sitter", "treesitter": "tree-sitter", "ichiban-prolog": "ichiban-prolog",
}

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
	pathWords       = setOf(`in under within inside`)
	noRolePhrases   = setOf(`no without excluding except not`)
	changeWords     = setOf(`changed modified edited updated touched`)
	changeNouns     = setOf(`change changes new recent recently`)
	indexWords      = setOf(`index indexing generation refresh snapshot`)
	generationWords = setOf(`generation gen`)
	prologSources   = setOf(`facts reader parser`)
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
	// "since the last INDEX" is read only in a question about changes:
	// in "time elapsed since the last refresh" it is text. A generation
	// number ("after gen 3") is read anywhere.
	aboutChange := false
	for _, w := range lower {
		aboutChange = aboutChange || changeWords[w] || changeNouns[w]
	}
	// only consumes a trailing "only" after a filter ("from tree-sitter
	// only"), which is then not a word of the query either.
	only := func(idx []int) []int {
		if last := idx[len(idx)-1]; at(last+1) == "only" {
			return append(idx, last+1)
		}
		return idx
	}
	// lead is the tokens of "W only" at i, with the word before it when it
	// is one of words ("from tree-sitter only", "in python only").
	lead := func(i int, words ...string) []int {
		if slices.Contains(words, at(i-1)) {
			return []int{i - 1, i, i + 1}
		}
		return []int{i, i + 1}
	}
	for i, w := range lower {
		prev, next := at(i-1), at(i+1)
		if v, idx := recency(lower, i); idx != nil && (aboutChange || v != ChangedLast) {
			add(Constraint{ConstraintChanged, v}, idx...)
			continue
		}
		role, roleIdx := roleFilter(lower, i)
		switch {
		case constraintParsers[w] != "" && (next == "only" || next == "facts"):
			add(Constraint{ConstraintParser, constraintParsers[w]}, lead(i, "only", "from", "by")...)
		case constraintParsers[w] != "" && prev == "by" && at(i-2) == "parsed":
			add(Constraint{ConstraintParser, constraintParsers[w]}, i-2, i-1, i)
		case constraintParsers[w] != "" && (prev == "only" || prev == "from" || prev == "by"):
			add(Constraint{ConstraintParser, constraintParsers[w]}, only([]int{i - 1, i})...)
		case w == "prolog" && prologSources[next]:
			add(Constraint{ConstraintParser, "ichiban-prolog"}, i, i+1)
		case pathWords[w] && isPath(at(i+1)) && strings.HasSuffix(toks[i+1], "/"):
			add(Constraint{ConstraintPath, toks[i+1]}, i, i+1)
		case role.Kind != "":
			add(role, roleIdx...)
		case constraintLanguages[w] != "" && next == "only":
			add(Constraint{ConstraintLanguage, constraintLanguages[w]}, lead(i, "in")...)
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

// roleFilters are the constraints on a definition's role, each with the
// words that name its role and the words that negate it in one.
var roleFilters = []struct {
	kind           string
	words, negated map[string]bool
}{
	{ConstraintTests, setOf(`test tests`), setOf(`non-test non-tests nontest`)},
	{ConstraintExamples, setOf(`example examples`), setOf(`non-example non-examples`)},
}

// roleFilter reads a role constraint at token i: "non-test", "no|without
// tests" (exclude); "tests only", "only|in tests" (only). It returns the
// constraint and the tokens it uses; a zero Constraint if none is there.
func roleFilter(lower []string, i int) (Constraint, []int) {
	at := func(j int) string {
		if j < 0 || j >= len(lower) {
			return ""
		}
		return lower[j]
	}
	w, prev, next := at(i), at(i-1), at(i+1)
	for _, r := range roleFilters {
		switch {
		case r.negated[w]:
			return Constraint{r.kind, "exclude"}, []int{i}
		case r.words[w] && noRolePhrases[prev]:
			return Constraint{r.kind, "exclude"}, []int{i - 1, i}
		case r.words[w] && next == "only":
			return Constraint{r.kind, "only"}, []int{i, i + 1}
		case r.words[w] && (prev == "only" || prev == "in"):
			return Constraint{r.kind, "only"}, []int{i - 1, i}
		}
	}
	return Constraint{}, nil
}

// recency reads a recency phrase starting at token i: "since [the]
// last|previous INDEX", "since|after generation|gen N" (each optionally
// after a change word: "changed since ..."), "recently changed",
// "changed recently", "recent changes". It returns the constraint's value
// and the tokens it uses (nil if none starts at i).
func recency(lower []string, i int) (string, []int) {
	at := func(j int) string {
		if j < 0 || j >= len(lower) {
			return ""
		}
		return lower[j]
	}
	w := at(i)
	switch {
	case w == "recently" && changeWords[at(i+1)]:
		return ChangedLast, []int{i, i + 1}
	case changeWords[w] && at(i+1) == "recently":
		return ChangedLast, []int{i, i + 1}
	case w == "recent" && (at(i+1) == "changes" || changeWords[at(i+1)]):
		return ChangedLast, []int{i, i + 1}
	}
	start := i
	if changeWords[w] {
		i++
	}
	if at(i) != "since" && at(i) != "after" {
		return "", nil
	}
	j := i + 1
	if at(j) == "the" {
		j++
	}
	if (at(j) == "last" || at(j) == "previous") && indexWords[at(j+1)] {
		return ChangedLast, span(start, j+1)
	}
	if generationWords[at(j)] {
		if n, err := strconv.ParseInt(at(j+1), 10, 64); err == nil && n >= 0 {
			return strconv.FormatInt(n, 10), span(start, j+1)
		}
	}
	return "", nil
}

// span is the indices from..to, inclusive.
func span(from, to int) []int {
	out := make([]int, 0, to-from+1)
	for k := from; k <= to; k++ {
		out = append(out, k)
	}
	return out
}

// constraintTerm is c as the rules read it: path(S) with a string,
// changed(N) with an integer (or changed(last)), the others with an atom
// of their closed vocabulary.
func constraintTerm(c Constraint) engine.Term {
	switch c.Kind {
	case ConstraintPath:
		return engine.Compound(c.Kind, engine.String(c.Value))
	case ConstraintChanged:
		if n, err := strconv.ParseInt(c.Value, 10, 64); err == nil {
			return engine.Compound(c.Kind, engine.Int(n))
		}
	}
	return engine.Compound(c.Kind, engine.Atom(c.Value))
}
