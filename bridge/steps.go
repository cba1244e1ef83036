package bridge

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/retrieval"
)

// The step protocol: the rules plan retrieval as step(Strategy, Args, Role)
// terms and judge the results as outcome(Events, Whys). This file is the one
// place that names the closed vocabulary of those terms; the planner decodes
// them by shape and refuses anything else, and the engine checks the step
// terms written in rule files against the same lists when it loads them.

// Step roles, the closed vocabulary of step/3's third argument.
const (
	// RoleEvidence: the step's hits answer the query.
	RoleEvidence = "evidence"
	// RoleCheck: the step verifies a premise (e.g. that the target symbol
	// exists); its hits are not part of the answer.
	RoleCheck = "check"
)

// StepArg is one argument a step may carry, e.g. name("ServeHTTP").
type StepArg struct {
	Functor string   // e.g. "name"
	Doc     string   // what it means
	Values  []string // if set, the only values it may take (atoms)
}

// StepArgs lists the arguments of step/3's second argument (a list), each of
// arity 1. Their values are text (string or atom) unless Values closes them;
// changed/1 takes a non-negative integer or the atom last (CheckChanged).
var StepArgs = []StepArg{
	{Functor: "name", Doc: "a symbol name (exact, graph)"},
	{Functor: "text", Doc: "free text (lexical, vector, hybrid); on an exact step, the text its definitions are ranked by (BM25)"},
	{Functor: "path", Doc: "a path prefix the hits must lie under (any strategy)"},
	{Functor: "relation", Doc: "the edges a graph step follows",
		Values: []string{string(retrieval.Callers), string(retrieval.Callees), string(retrieval.References)}},
	{Functor: "case", Doc: "exact matching may ignore case", Values: []string{"insensitive"}},
	{Functor: "spelling", Doc: "exact matching may fall back, when no name matches in either case, to the nearest names a few edits away (a misspelled name: retrieval.NearEdits)", Values: []string{"near"}},
	{Functor: "kind", Doc: "only definitions of this kind (function, method, type, interface, ...)"},
	{Functor: "language", Doc: "only definitions in this language (go, python, ...)"},
	{Functor: "tests", Doc: "leave out definitions in test files (exclude), or keep only those (only)", Values: []string{"exclude", "only"}},
	{Functor: "examples", Doc: "leave out example definitions (exclude), or keep only those (only)", Values: []string{"exclude", "only"}},
	{Functor: "demote", Doc: "rank definitions of this role (or, for internal, of internal packages) after all others (repeatable: one each)", Values: DemotableRoles},
	{Functor: "quoted", Doc: "a demoted definition whose doc comment starts with this text keeps its rank"},
	{Functor: "named", Doc: "a demoted definition of this name keeps its rank (repeatable: one name each)"},
	{Functor: "changed", Doc: "only definitions whose file changed after project generation N (a non-negative integer), or in the snapshot's own generation (last)"},
	{Functor: "parser", Doc: "only definitions extracted by this parser", Values: ParserNames},
	{Functor: "emphasis", Doc: "the text describes what a definition does: its BM25 ranking weighs doc comments more (lexical, hybrid, an exact step with text)",
		Values: []string{string(retrieval.EmphasisDoc)}},
	{Functor: "name_part", Doc: "a lexical step keeps only the definitions whose name holds every word of this name (its parts, as the index splits names: \"message-id\" is held by parse_message_id), in the step's BM25 order"},
	{Functor: "types", Doc: "the step's type definitions (retrieval.TypeKinds) rank before its other hits, and a type two or more hits are members of joins them (retrieval.TypesFirst): the query describes a type",
		Values: []string{TypesFirst}},
	{Functor: "match", Doc: "a callers step keeps only the calls resolved to the name's definitions (or, for a name the tree does not define, to a module outside it), none matched by name alone",
		Values: []string{MatchResolved}},
}

// DemotableRoles are what a demote(R) step argument may name: tests and
// examples (retrieval.RoleTest, retrieval.RoleExample), and the
// definitions of internal packages (retrieval.Internal: the hit's
// retrieval.IsInternal, data the knowledge base gives each definition).
var DemotableRoles = []string{retrieval.RoleTest, retrieval.RoleExample, retrieval.Internal}

// TypesFirst is the value of the types/1 step argument: types rank first
// (retrieval.TypesFirst).
const TypesFirst = "first"

// MatchResolved is the value of the match/1 step argument: only resolved
// calls (retrieval.Request.Resolved).
const MatchResolved = "resolved"

// Strategies is every strategy a step may name: the retrieval contract's.
// Which of them a given backend offers is its Capabilities; the rules get
// that list and plan only those.
var Strategies = []retrieval.Strategy{
	retrieval.Exact, retrieval.Structural, retrieval.Graph, retrieval.Lexical, retrieval.Vector, retrieval.Hybrid,
}

// Roles is every step role.
var Roles = []string{RoleEvidence, RoleCheck}

// OutcomeEvents names the events of outcome(Events, Whys) that Go decodes,
// by functor/arity:
//
//	gap(G)                 the gap G is left unfilled
//	resolved(From, To, R)  the answer is about the name To, not the
//	                       query's From; rule R found To
//	discard(R)             the newest step's hits are not evidence (rule
//	                       R, e.g. under the relevance floor): they leave
//	                       the answer
var OutcomeEvents = []string{"gap/1", "resolved/3", "discard/1"}

// StrategyNames returns Strategies as strings.
func StrategyNames() []string {
	out := make([]string, len(Strategies))
	for i, s := range Strategies {
		out[i] = string(s)
	}
	return out
}

// StepArgIndicators returns StepArgs as "name/1" indicators.
func StepArgIndicators() []string {
	out := make([]string, len(StepArgs))
	for i, a := range StepArgs {
		out[i] = a.Functor + "/1"
	}
	return out
}

// CheckChanged reads the value of a changed/1 step argument: a
// non-negative integer (a project generation) as its decimal string, or
// the atom last as ChangedLast. ok is false for anything else.
func CheckChanged(v any) (string, bool) {
	switch x := v.(type) {
	case int64:
		if x >= 0 {
			return strconv.FormatInt(x, 10), true
		}
	case engine.AtomValue:
		if string(x) == ChangedLast {
			return ChangedLast, true
		}
	}
	return "", false
}

// CheckStepArg reports whether functor(value) is a valid step argument;
// the error says why not, in words for a rule author.
func CheckStepArg(functor, value string) error {
	for _, a := range StepArgs {
		if a.Functor != functor {
			continue
		}
		if a.Values != nil && !slices.Contains(a.Values, value) {
			return fmt.Errorf("%s(%s) is not allowed: %s takes %s", functor, value, functor, strings.Join(a.Values, " or "))
		}
		return nil
	}
	return fmt.Errorf("unknown step argument %s/1 (allowed: %s)", functor, strings.Join(StepArgIndicators(), ", "))
}

// Vocabulary is the step protocol as the engine checks it in rule files at
// load time: wherever a rule writes step(Strategy, Args, Role), a bound
// strategy, role and argument name must be in the lists above (values are
// checked when the planner decodes the step).
func Vocabulary() []engine.TermShape {
	return []engine.TermShape{{
		Functor: "step", Arity: 3,
		Args: []engine.ArgShape{
			{Name: "strategy", Atoms: StrategyNames()},
			{Name: "arguments", Members: StepArgIndicators()},
			{Name: "role", Atoms: Roles},
		},
	}}
}
