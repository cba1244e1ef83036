package prompt

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/rules"
)

// Errors callers can match with errors.Is.
var (
	// ErrBadRules: the rules returned a term outside the compile protocol;
	// the error is a *RuleError.
	ErrBadRules = errors.New("prompt: rules returned an unexpected term")
	// ErrBadInput: an Input or Options value is out of range (the error
	// says which); nothing was compiled.
	ErrBadInput = errors.New("prompt: bad input")
	// ErrUnknownUnit: Why was asked about an id that is neither in the
	// catalog nor among the input's context units.
	ErrUnknownUnit = errors.New("prompt: unknown unit")
)

// RuleError reports a term the rules returned that is outside the compile
// protocol (see rules/prompt/compile.pl): not compiled(In, Out,
// Default), a candidate number out of range or decided twice, a because/2
// without an atom rule ID. It matches ErrBadRules.
type RuleError struct {
	Predicate string // e.g. "compile_units/5"
	Term      string // the offending term, clipped
	Reason    string
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("prompt: %s returned %s: %s", e.Predicate, e.Term, e.Reason)
}

// Unwrap makes a RuleError match ErrBadRules.
func (e *RuleError) Unwrap() error { return ErrBadRules }

func badTerm(pred string, v any, format string, args ...any) error {
	return &RuleError{Predicate: pred, Term: textclip.Clip(engine.FormatValue(v), 300), Reason: fmt.Sprintf(format, args...)}
}

// CompilerOptions configure NewCompiler.
type CompilerOptions struct {
	// Rules are the default prompt rules (the files of the prompt/ folder);
	// nil means the embedded defaults, rules.FS's prompt/ folder.
	Rules fs.FS
	// RulesDir is a directory of rules layered over the defaults, as for
	// the planner (`--rules DIR`); the compiler loads its prompt/ folder,
	// if it has one (DIR/prompt/select.pl replaces the default select.pl,
	// other files add clauses, e.g. of the extension hooks). DIR itself
	// must exist and hold .pl files (engine.DirLayer).
	RulesDir string
	// Inferences is the per-compile inference budget (0: the engine's
	// default).
	Inferences int64
	// Predicates are extra host predicates the rules may call (data only).
	// A host predicate may answer differently from call to call, so a
	// compiler with any keeps no memo (MemoSize is ignored).
	Predicates []engine.Predicate
	// MemoSize is the number of the rules' answers the compiler keeps, by
	// the exact terms the rules were given (every candidate's features,
	// the input term, the candidate order): a compile whose terms equal
	// an earlier one's reuses its answer instead of running the rules.
	// 0 means DefaultMemoSize; negative, none.
	MemoSize int
}

// Compiler decides which prompt units a model sees. Safe for concurrent
// use.
type Compiler struct {
	eng  *engine.Engine
	pack map[string]string // packing event -> rule ID (rules/prompt/packing.pl)
	memo *answerMemo       // nil: none
}

// NewCompiler loads the prompt rules. Bad rule files give an
// *engine.LoadError; a packing table (pack_because/2) without a clause for
// every packing event a *RuleError.
func NewCompiler(opts CompilerOptions) (*Compiler, error) {
	eo, err := EngineOptions(opts)
	if err != nil {
		return nil, err
	}
	eng, err := engine.New(eo)
	if err != nil {
		return nil, err
	}
	c := &Compiler{eng: eng, pack: map[string]string{}}
	if size := cmp.Or(opts.MemoSize, DefaultMemoSize); size > 0 && len(opts.Predicates) == 0 {
		c.memo = newAnswerMemo(size)
	}
	sols, err := eng.All(context.Background(), 0, "pack_because", engine.NewVar(), engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("prompt: pack_because/2: %w", err)
	}
	for _, s := range sols {
		ev, ok := s[0].(engine.AtomValue)
		b, err := decodeBecause("pack_because/2", s[1])
		if !ok || err != nil {
			return nil, badTerm("pack_because/2", engine.CompoundValue{Functor: "pack_because", Args: []any(s)}, "want pack_because(Event, because(RuleID, []))")
		}
		if _, seen := c.pack[string(ev)]; !seen {
			c.pack[string(ev)] = b.Rule
		}
	}
	for _, ev := range []string{eventOverBudget, eventDependencyPackedOut, eventRequirerPackedOut} {
		if c.pack[ev] == "" {
			return nil, badTerm("pack_because/2", engine.AtomValue(ev), "no explanation for the packing event %s", ev)
		}
	}
	return c, nil
}

// EngineOptions are the engine options NewCompiler uses: the default
// prompt rules (or opts.Rules) labelled "rules/prompt", the prompt/
// folder of opts.RulesDir, opts.Predicates, and the closed vocabularies
// of kinds, activations, host flags and modes (Vocabulary) checked at
// load time. Rule tests of a host's own prompt rules use them with
// ruletest.Run.
func EngineOptions(opts CompilerOptions) (engine.Options, error) {
	def := opts.Rules
	if def == nil {
		def = rules.Folder("prompt")
	}
	layers, err := engine.ConcernLayers(def, "prompt", opts.RulesDir)
	if err != nil {
		return engine.Options{}, err
	}
	return engine.Options{
		Layers:     layers,
		Inferences: opts.Inferences,
		Predicates: opts.Predicates,
		Vocabulary: Vocabulary(),
	}, nil
}

// Vocabulary is the closed vocabulary of the prompt rules, checked in
// every rule file at load time: the kind, activation, host flag and
// mandatory flag of unit/16, of its accessors (u_kind/2, ...) and of the
// unit_prop/2 properties, and the mode of input/4 and in_mode/2.
func Vocabulary() []engine.TermShape {
	kinds := make([]string, len(kindOrder))
	for i, k := range kindOrder {
		kinds[i] = string(k)
	}
	acts := []string{string(ActivationAlways), string(ActivationRelevant)}
	hosts := []string{hostSelected, hostDenied, hostNone}
	modes := []string{string(ModeCompiled), string(ModeAllTools)}
	flags := []string{"true", "false"}
	unit := make([]engine.ArgShape, 16)
	unit[2], unit[3], unit[4], unit[15] = engine.ArgShape{Name: "kind", Atoms: kinds}, engine.ArgShape{Name: "activation", Atoms: acts},
		engine.ArgShape{Name: "host", Atoms: hosts}, engine.ArgShape{Name: "mandatory", Atoms: flags}
	shapes := []engine.TermShape{
		{Functor: "unit", Arity: 16, Args: unit},
		{Functor: "input", Arity: 4, Args: []engine.ArgShape{{Name: "mode", Atoms: modes}}},
	}
	for _, f := range []struct {
		name  string
		atoms []string
	}{{"kind", kinds}, {"activation", acts}, {"host", hosts}, {"mode", modes}, {"mandatory", flags}} {
		shapes = append(shapes, engine.TermShape{Functor: f.name, Arity: 1, Args: []engine.ArgShape{{Name: f.name, Atoms: f.atoms}}})
		acc := "u_" + f.name
		if f.name == "mode" {
			acc = "in_mode"
		}
		shapes = append(shapes, engine.TermShape{Functor: acc, Arity: 2, Args: []engine.ArgShape{{}, {Name: f.name, Atoms: f.atoms}}})
	}
	return shapes
}

// Host flags of unit/16.
const (
	hostSelected = "selected"
	hostDenied   = "denied"
	hostNone     = "none"
)

// Packing events of rules/prompt/packing.pl.
const (
	eventOverBudget          = "over_budget"
	eventDependencyPackedOut = "dependency_packed_out"
	eventRequirerPackedOut   = "requirer_packed_out"
)

// Engine returns the compiler's rule engine (for the REPL and rule tests).
func (c *Compiler) Engine() *engine.Engine { return c.eng }

// RuleIDs returns the registry of the prompt rules (rule_id/2).
func (c *Compiler) RuleIDs(ctx context.Context) ([]engine.RuleID, error) {
	return c.eng.RuleIDs(ctx)
}

// CheckRuleIDs reports every rule ID of the loaded prompt rules (in a
// because/2, or heading a clause of a hook the rules declare with
// rule_id_head/1) used but not registered, or registered but unused
// (engine.Engine.CheckRuleIDs).
func (c *Compiler) CheckRuleIDs(ctx context.Context) ([]engine.RuleIDProblem, error) {
	return c.eng.CheckRuleIDs(ctx, nil)
}
