// Package engine hosts the embedded ISO Prolog interpreter
// (github.com/ichiban/prolog v1.2.2) as a sandbox for rule files.
//
// # What runs
//
// An Engine starts from the empty interpreter and registers only the Go
// builtins listed in sandboxBuiltins, then loads prelude.pl (control
// constructs and list helpers), then the host's Predicates, then the rule
// files. There is no file or stream I/O, no halt, no consult, no op/3 or
// flag changes at query time, no assert/retract, and no builtin that parses
// text into clauses. Rule files may use only the directives dynamic/1,
// discontiguous/1 and multifile/1.
//
// # Data, not code
//
// Go values reach Prolog only as terms built with Atom, String, Int, Float,
// Compound and List and passed as arguments of a goal whose functor the Go
// caller names (Engine.Once, Engine.All). No API formats a Go value into
// Prolog text. Text from users, models or files is passed with String, which
// does not intern atoms.
//
// # Rule sources and overrides
//
// Rule files come in layers (Options.Layers, see Layer): every *.pl file at
// any depth of each layer's fs.FS, loaded layer by layer, each layer's
// files in slash-path order. A file of a later layer replaces, whole, the
// earlier file with the same relative path; a file at the top level of a
// later layer also replaces the one earlier file with the same base name
// (so a flat override directory can replace "retrieval/classify.pl" with
// "classify.pl"). Other files are added. Files ending in _test.pl are rule
// tests, never loaded as rules (see RunTests); they follow the same rules.
// A predicate may be defined in one file only (unless every file that
// defines it declares it multifile, which is how extension hooks work).
//
// # Load-time checks
//
// Every clause is read on its own, so every *LoadError names the file,
// line and column of the offending token. Refused: a syntax error (in plain
// words); a directive other than dynamic/1, discontiguous/1, multifile/1;
// defining or declaring a builtin, a prelude predicate or a host predicate;
// a predicate defined in two files; clauses of one predicate split without
// discontiguous/1; a body goal (through control constructs and
// meta-predicate arguments, see plsyntax.WalkGoals) calling a predicate
// that no rule file, the prelude, the sandbox or the host defines or
// declares dynamic or multifile; a data term outside Options.Vocabulary.
//
// # Budgets
//
// Every query runs under the caller's context and an inference budget
// (Options.Inferences resolution steps). Running out of either gives a
// *QueryError that matches ErrInferenceBudget, context.DeadlineExceeded or
// context.Canceled with errors.Is.
//
// # Concurrency
//
// ichiban/prolog's VM is not safe for concurrent use. An Engine keeps a pool
// of loaded interpreters and gives each query one interpreter of its own, so
// an Engine is safe for concurrent use. Since rules cannot assert or
// retract, an interpreter's database is identical before and after every
// query and interpreters are reused. Building one costs about a millisecond.
package engine

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/rlm-dev/rlm/internal/textclip"

	pl "github.com/ichiban/prolog/engine"

	"github.com/rlm-dev/rlm/internal/plsyntax"
)

//go:embed prelude.pl
var preludeText string

var contextBackground = context.Background()

// DefaultInferences is the per-query inference budget when Options leaves it
// zero.
const DefaultInferences = 250_000

// DefaultTimeout bounds a query (and a rule test) whose caller's context
// has no deadline, when Options.Timeout is zero: every query has a
// deadline, whatever the entry point.
const DefaultTimeout = 30 * time.Second

// Errors callers can match with errors.Is.
var (
	ErrInferenceBudget = errors.New("engine: inference budget exhausted")
	ErrDecode          = errors.New("engine: cannot decode term")
	ErrNoSolution      = errors.New("engine: goal failed")
)

// Source is one rule file.
type Source struct {
	Name   string // slash path relative to its layer, e.g. "retrieval/classify.pl"
	Layer  int    // index of its layer among Engine.Layers()
	Origin string // its layer's Label
	Path   string // display path for messages: Label joined with Name, e.g. "rules/retrieval/classify.pl"
	Text   string
}

// Func is a deterministic host predicate. It receives the decoded values of
// all but the last argument (they must be ground, else the call raises an
// instantiation error) and returns the term to unify with the last
// argument. It returns (nil, nil) to fail. An error is raised in Prolog as
// error(host_error(Name, Message), _) with Message a string; it must not
// contain secrets.
type Func func(ctx context.Context, in []any) (Term, error)

// Predicate is a host (bridge) predicate: Name/Arity, Arity 0..5. With
// arity 0, Fn gets no input and any non-nil term means success.
type Predicate struct {
	Name  string
	Arity int
	Fn    Func
	Doc   string
}

// Options configure an Engine.
//
// The rule files come from the layers Rules (labelled RulesLabel), then
// Layers in order, then UserDir: Rules and UserDir are shorthand kept for
// callers written before layers, and either may be left empty.
type Options struct {
	Rules      fs.FS   // default rule files (*.pl at any depth); may be nil
	RulesLabel string  // display prefix for Rules, default "rules"
	Layers     []Layer // loaded in order, defaults first
	// UserDir is an optional directory of .pl files that add or override,
	// loaded last as DirLayer(UserDir); a UserDir that is missing, not a
	// directory or without .pl files is a *LoadError wrapping a
	// *RulesDirError (errors.Is(err, ErrNoRuleFiles)).
	UserDir    string
	Inferences int64 // per-query budget; 0 means DefaultInferences
	// Timeout is the deadline of a query or rule test whose context has
	// none; 0 means DefaultTimeout.
	Timeout    time.Duration
	Predicates []Predicate
	PoolSize   int // interpreters kept for reuse; 0 means 4
	// Vocabulary constrains data terms written in rule files (closed
	// vocabularies shared with Go, e.g. retrieval steps). See TermShape.
	Vocabulary []TermShape
}

// Engine is a loaded, sandboxed rule base. Safe for concurrent use.
type Engine struct {
	opts     Options
	layers   []Layer
	vocab    vocabulary
	sources  []Source // rule files in load order
	tests    []Source // *_test.pl files after the same override rule
	reserved map[string]string
	defs     map[string]string // predicate indicator -> defining file
	defined  map[string]bool   // every indicator a body may call
	called   map[string]bool   // during validate: every indicator a rule body calls
	pool     chan *pl.VM
}

// MaxRuleFileBytes bounds one rule file.
const MaxRuleFileBytes = 4 << 20

// QueryError reports a query that raised an exception or ran out of budget
// or time.
type QueryError struct {
	Goal       string // predicate indicator, e.g. "plan/2"
	Exception  string // the Prolog exception term, if one was raised
	Inferences int64  // steps used
	Err        error  // ErrInferenceBudget, a context error, or the exception
}

func (e *QueryError) Error() string {
	if e.Exception != "" {
		return fmt.Sprintf("engine: %s raised %s", e.Goal, e.Exception)
	}
	return fmt.Sprintf("engine: %s: %v after %d inferences", e.Goal, e.Err, e.Inferences)
}

func (e *QueryError) Unwrap() error { return e.Err }

// New loads the rules and returns an Engine, or a *LoadError.
func New(opts Options) (*Engine, error) {
	if opts.Inferences <= 0 {
		opts.Inferences = DefaultInferences
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.PoolSize <= 0 {
		opts.PoolSize = 4
	}
	if opts.RulesLabel == "" {
		opts.RulesLabel = "rules"
	}
	e := &Engine{opts: opts, pool: make(chan *pl.VM, opts.PoolSize)}
	var err error
	if e.vocab, err = newVocabulary(opts.Vocabulary); err != nil {
		return nil, err
	}
	if e.layers, err = opts.layers(); err != nil {
		return nil, err
	}
	if err := e.collectSources(); err != nil {
		return nil, err
	}
	if err := e.validate(); err != nil {
		return nil, err
	}
	vm, err := e.newVM(nil)
	if err != nil {
		return nil, err
	}
	e.put(vm)
	return e, nil
}

// Sources returns the rule files in load order.
func (e *Engine) Sources() []Source { return append([]Source(nil), e.sources...) }

// Layers returns the layers the rule files came from, in load order
// (Source.Layer indexes it).
func (e *Engine) Layers() []Layer { return append([]Layer(nil), e.layers...) }

// TestSources returns the *_test.pl files, after the override rule.
func (e *Engine) TestSources() []Source { return append([]Source(nil), e.tests...) }

// DefinedIn returns the file that defines name/arity, if a rule file does.
func (e *Engine) DefinedIn(name string, arity int) (string, bool) {
	f, ok := e.defs[fmt.Sprintf("%s/%d", name, arity)]
	return f, ok
}

// newVM builds a loaded interpreter; extra are additional sources (a test
// file) compiled after the rules.
func (e *Engine) newVM(extra []Source) (*pl.VM, error) {
	vm := &pl.VM{}
	vm.FS = emptyFS{}
	for _, b := range sandboxBuiltins {
		b.reg(vm, pl.NewAtom(b.name))
	}
	if err := plsyntax.InstallOps(vm); err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	if err := vm.Compile(context.Background(), preludeText); err != nil {
		return nil, fmt.Errorf("engine: prelude: %w", err)
	}
	for _, p := range e.opts.Predicates {
		if err := registerHost(vm, p); err != nil {
			return nil, err
		}
	}
	for _, src := range append(append([]Source(nil), e.sources...), extra...) {
		if err := vm.Compile(context.Background(), src.Text); err != nil {
			return nil, &LoadError{File: src.Path, Reason: "cannot compile", Err: err}
		}
	}
	return vm, nil
}

func (e *Engine) get() (*pl.VM, error) {
	select {
	case vm := <-e.pool:
		return vm, nil
	default:
		return e.newVM(nil)
	}
}

func (e *Engine) put(vm *pl.VM) {
	select {
	case e.pool <- vm:
	default:
	}
}

// withDeadline gives ctx the engine's Timeout if it has no deadline.
func (e *Engine) withDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, e.opts.Timeout)
}

// abandonGrace is how long a query may run past its context's end (the
// trampoline notices within one step) before the caller is answered
// anyway: a builtin can spin inside one step (e.g. term_variables/2 on a
// cyclic term), and then the goroutine is left to finish on its own.
const abandonGrace = 200 * time.Millisecond

// force runs run (which forces a promise under a context derived from
// ctx) and returns its result, or gives up abandonGrace after ctx ends.
func force(ctx context.Context, run func() (bool, error)) (bool, error, bool) {
	if ctx.Done() == nil {
		ok, err := run()
		return ok, err, false
	}
	type result struct {
		ok  bool
		err error
	}
	done := make(chan result, 1)
	go func() {
		ok, err := run()
		done <- result{ok, err}
	}()
	select {
	case r := <-done:
		return r.ok, r.err, false
	case <-ctx.Done():
	}
	select {
	case r := <-done:
		return r.ok, r.err, false
	case <-time.After(abandonGrace):
		return false, ctx.Err(), true
	}
}

// Solution holds the decoded arguments of one solution of a goal, in
// argument order.
type Solution []any

// Once runs name(args...) and returns its first solution, decoded. It
// returns ErrNoSolution (wrapped) if the goal fails, and a *QueryError if it
// raises or runs out of budget or time.
func (e *Engine) Once(ctx context.Context, name string, args ...Term) (Solution, error) {
	sols, err := e.All(ctx, 1, name, args...)
	if err != nil {
		return nil, err
	}
	if len(sols) == 0 {
		return nil, fmt.Errorf("%w: %s/%d", ErrNoSolution, name, len(args))
	}
	return sols[0], nil
}

// All runs name(args...) and returns up to max solutions (max <= 0 means
// all), decoded.
func (e *Engine) All(ctx context.Context, max int, name string, args ...Term) ([]Solution, error) {
	sols, _, err := e.AllStats(ctx, max, name, args...)
	return sols, err
}

// AllStats is All that also reports the inferences and time used.
func (e *Engine) AllStats(ctx context.Context, max int, name string, args ...Term) ([]Solution, Stats, error) {
	return e.allStats(ctx, max, 0, name, args)
}

// OnceOutput runs name(args...) like Once but decodes only the last
// argument, the goal's output, and returns it: the input arguments before
// it are not decoded back (a large table handed to the rules costs nothing
// to return). Errors are Once's.
func (e *Engine) OnceOutput(ctx context.Context, name string, args ...Term) (any, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("engine: OnceOutput %s/0: no output argument", name)
	}
	sols, _, err := e.allStats(ctx, 1, len(args)-1, name, args)
	if err != nil {
		return nil, err
	}
	if len(sols) == 0 {
		return nil, fmt.Errorf("%w: %s/%d", ErrNoSolution, name, len(args))
	}
	return sols[0][len(args)-1], nil
}

// allStats runs the goal; the arguments before index from are left nil in
// each solution instead of being decoded.
func (e *Engine) allStats(ctx context.Context, max, from int, name string, args []Term) ([]Solution, Stats, error) {
	ctx, cancel := e.withDeadline(ctx)
	defer cancel()
	start := time.Now()
	vm, err := e.get()
	if err != nil {
		return nil, Stats{}, err
	}
	var sols []Solution
	var decodeErr error
	bctx := withBudget(ctx, e.opts.Inferences)
	// Arrive calls the predicate with the argument terms as they are: no
	// goal is compiled from them and they are never walked, so a large
	// string argument costs nothing until a rule looks at it.
	ok, err, abandoned := force(ctx, func() (bool, error) {
		return vm.Arrive(pl.NewAtom(name), args, func(env *pl.Env) *pl.Promise {
			s := make(Solution, len(args))
			for i, a := range args[from:] {
				i += from
				v, err := Decode(a, env)
				if err != nil {
					decodeErr = err
					return pl.Bool(true)
				}
				s[i] = v
			}
			sols = append(sols, s)
			return pl.Bool(max > 0 && len(sols) >= max)
		}, nil).Force(bctx)
	})
	if abandoned {
		// The interpreter is still busy inside a builtin; it is not reused.
		return nil, Stats{Inferences: bctx.used(), Elapsed: time.Since(start)},
			&QueryError{Goal: fmt.Sprintf("%s/%d", name, len(args)), Inferences: bctx.used(), Err: ctx.Err()}
	}
	e.put(vm)
	_ = ok
	st := Stats{Inferences: bctx.used(), Elapsed: time.Since(start)}
	if decodeErr != nil {
		return nil, st, decodeErr
	}
	if err != nil {
		return nil, st, e.queryError(vm, fmt.Sprintf("%s/%d", name, len(args)), bctx, err)
	}
	return sols, st, nil
}

func (e *Engine) queryError(vm *pl.VM, goal string, bctx *budgetCtx, err error) error {
	qe := &QueryError{Goal: goal, Inferences: bctx.used()}
	var ex pl.Exception
	switch {
	case errors.As(err, &ex):
		qe.Exception = textclip.Clip(FormatTerm(vm, ex.Term(), nil), 2000)
		qe.Err = err
	case errors.Is(err, ErrInferenceBudget) || bctx.over.Load():
		qe.Err = ErrInferenceBudget
	default:
		qe.Err = err
	}
	return qe
}

// registerHost registers a host predicate with the Func calling convention.
func registerHost(vm *pl.VM, p Predicate) error {
	name := pl.NewAtom(p.Name)
	call := func(args []pl.Term, k pl.Cont, env *pl.Env) *pl.Promise {
		return pl.Delay(func(ctx context.Context) *pl.Promise {
			in := make([]any, len(args)-1)
			for i := range in {
				a := env.Resolve(args[i])
				if _, isVar := a.(pl.Variable); isVar {
					return pl.Error(pl.InstantiationError(env))
				}
				v, err := Decode(a, env)
				if err != nil {
					return pl.Error(hostError(p.Name, err.Error()))
				}
				in[i] = v
			}
			out, err := p.Fn(ctx, in)
			if err != nil {
				return pl.Error(hostError(p.Name, err.Error()))
			}
			if out == nil {
				return pl.Bool(false)
			}
			return pl.Unify(vm, args[len(args)-1], out, k, env)
		})
	}
	switch p.Arity {
	case 0:
		vm.Register0(name, func(_ *pl.VM, k pl.Cont, env *pl.Env) *pl.Promise {
			return pl.Delay(func(ctx context.Context) *pl.Promise {
				out, err := p.Fn(ctx, nil)
				if err != nil {
					return pl.Error(hostError(p.Name, err.Error()))
				}
				if out == nil {
					return pl.Bool(false)
				}
				return k(env)
			})
		})
	case 1:
		vm.Register1(name, func(_ *pl.VM, a pl.Term, k pl.Cont, env *pl.Env) *pl.Promise {
			return call([]pl.Term{a}, k, env)
		})
	case 2:
		vm.Register2(name, func(_ *pl.VM, a, b pl.Term, k pl.Cont, env *pl.Env) *pl.Promise {
			return call([]pl.Term{a, b}, k, env)
		})
	case 3:
		vm.Register3(name, func(_ *pl.VM, a, b, c pl.Term, k pl.Cont, env *pl.Env) *pl.Promise {
			return call([]pl.Term{a, b, c}, k, env)
		})
	case 4:
		vm.Register4(name, func(_ *pl.VM, a, b, c, d pl.Term, k pl.Cont, env *pl.Env) *pl.Promise {
			return call([]pl.Term{a, b, c, d}, k, env)
		})
	case 5:
		vm.Register5(name, func(_ *pl.VM, a, b, c, d, f pl.Term, k pl.Cont, env *pl.Env) *pl.Promise {
			return call([]pl.Term{a, b, c, d, f}, k, env)
		})
	default:
		return fmt.Errorf("engine: host predicate %s/%d: arity must be 0..5", p.Name, p.Arity)
	}
	return nil
}

func hostError(name, msg string) pl.Exception {
	return pl.NewException(pl.NewAtom("error").Apply(
		pl.NewAtom("host_error").Apply(pl.NewAtom(name), pl.CharList(textclip.Clip(msg, 500))),
		pl.NewVariable()), nil)
}

// emptyFS refuses every open, so include/1 and ensure_loaded/1 cannot read
// files even if a future loader change let them through.
type emptyFS struct{}

func (emptyFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
}

// Stats is what one query used: Inferences counts resolution steps (the
// unit of Options.Inferences); Elapsed is wall-clock time including
// decoding.
type Stats struct {
	Inferences int64
	Elapsed    time.Duration
}
