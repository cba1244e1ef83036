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
// Default rules come from an fs.FS (the embedded rules/ directory); a user
// rules directory may add files or override them. A user file whose base
// name equals a default file's replaces that default file whole; other user
// files are added. Files are loaded in name order, defaults first. Files
// ending in _test.pl are rule tests, never loaded as rules (see RunTests).
// A predicate may be defined in one file only (unless declared multifile in
// each), and a rule file that defines a builtin, a prelude predicate or a
// host predicate is rejected with a *LoadError naming the file and line.
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
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	pl "github.com/ichiban/prolog/engine"
)

//go:embed prelude.pl
var preludeText string

var contextBackground = context.Background()

// DefaultInferences is the per-query inference budget when Options leaves it
// zero.
const DefaultInferences = 250_000

// Errors callers can match with errors.Is.
var (
	ErrInferenceBudget = errors.New("engine: inference budget exhausted")
	ErrDecode          = errors.New("engine: cannot decode term")
	ErrNoSolution      = errors.New("engine: goal failed")
)

// Source is one rule file.
type Source struct {
	Name   string // base name, e.g. "classify.pl"
	Origin string // "embedded" or the user directory path
	Path   string // display path for messages, e.g. "rules/classify.pl"
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
type Options struct {
	Rules      fs.FS  // default rule files (*.pl at the root); may be nil
	RulesLabel string // display prefix for default files, e.g. "rules"
	UserDir    string // optional directory of .pl files that add or override
	Inferences int64  // per-query budget; 0 means DefaultInferences
	Predicates []Predicate
	PoolSize   int // interpreters kept for reuse; 0 means 4
}

// Engine is a loaded, sandboxed rule base. Safe for concurrent use.
type Engine struct {
	opts     Options
	sources  []Source // rule files in load order
	tests    []Source // *_test.pl files after the same override rule
	reserved map[string]string
	defs     map[string]string // predicate indicator -> defining file
	pool     chan *pl.VM
}

// LoadError reports a rule file that cannot be loaded.
type LoadError struct {
	File   string // display path
	Line   int    // 1-based, 0 if unknown
	Clause string // the offending clause head or directive, if known
	Reason string
	Err    error
}

func (e *LoadError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	msg := fmt.Sprintf("engine: %s: %s", loc, e.Reason)
	if e.Clause != "" {
		msg = fmt.Sprintf("engine: %s: %s: %s", loc, e.Clause, e.Reason)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// MaxRuleFileBytes bounds one rule file.
const MaxRuleFileBytes = 4 << 20

// readRuleFile reads a regular file of at most MaxRuleFileBytes; FIFOs,
// devices and oversized files are refused without reading them.
func readRuleFile(p string) ([]byte, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", st.Mode().Type())
	}
	if st.Size() > MaxRuleFileBytes {
		return nil, fmt.Errorf("%d bytes, over the %d-byte limit for a rule file", st.Size(), MaxRuleFileBytes)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxRuleFileBytes+1))
}

func (e *LoadError) Unwrap() error { return e.Err }

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
	if opts.PoolSize <= 0 {
		opts.PoolSize = 4
	}
	if opts.RulesLabel == "" {
		opts.RulesLabel = "rules"
	}
	e := &Engine{opts: opts, pool: make(chan *pl.VM, opts.PoolSize)}
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

// TestSources returns the *_test.pl files, after the override rule.
func (e *Engine) TestSources() []Source { return append([]Source(nil), e.tests...) }

// DefinedIn returns the file that defines name/arity, if a rule file does.
func (e *Engine) DefinedIn(name string, arity int) (string, bool) {
	f, ok := e.defs[fmt.Sprintf("%s/%d", name, arity)]
	return f, ok
}

func (e *Engine) collectSources() error {
	byName := map[string]Source{}
	if e.opts.Rules != nil {
		entries, err := fs.ReadDir(e.opts.Rules, ".")
		if err != nil {
			return &LoadError{File: e.opts.RulesLabel, Reason: "cannot list default rules", Err: err}
		}
		for _, ent := range entries {
			if ent.IsDir() || !strings.HasSuffix(ent.Name(), ".pl") {
				continue
			}
			b, err := fs.ReadFile(e.opts.Rules, ent.Name())
			if err != nil {
				return &LoadError{File: path.Join(e.opts.RulesLabel, ent.Name()), Reason: "cannot read", Err: err}
			}
			byName[ent.Name()] = Source{Name: ent.Name(), Origin: "embedded", Path: path.Join(e.opts.RulesLabel, ent.Name()), Text: string(b)}
		}
	}
	if e.opts.UserDir != "" {
		entries, err := os.ReadDir(e.opts.UserDir)
		if err != nil {
			return &LoadError{File: e.opts.UserDir, Reason: "cannot list user rules", Err: err}
		}
		for _, ent := range entries {
			if ent.IsDir() || !strings.HasSuffix(ent.Name(), ".pl") {
				continue
			}
			p := filepath.Join(e.opts.UserDir, ent.Name())
			b, err := readRuleFile(p)
			if err != nil {
				return &LoadError{File: p, Reason: "cannot read", Err: err}
			}
			byName[ent.Name()] = Source{Name: ent.Name(), Origin: e.opts.UserDir, Path: p, Text: string(b)}
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if strings.HasSuffix(n, "_test.pl") {
			e.tests = append(e.tests, byName[n])
		} else {
			e.sources = append(e.sources, byName[n])
		}
	}
	return nil
}

// reservedIndicators returns every predicate indicator a rule file may not
// define, with the reason.
func (e *Engine) reservedIndicators() (map[string]string, error) {
	r := map[string]string{}
	for _, b := range sandboxBuiltins {
		r[fmt.Sprintf("%s/%d", b.name, b.arity)] = "a builtin"
	}
	// term_expansion/2 and goal_expansion/2 are hooks ichiban/prolog calls
	// while compiling, with no budget or deadline, on the clauses as
	// written: a rule file defining them could rewrite clauses past this
	// policy.
	r["term_expansion/2"] = "a compile-time hook the sandbox does not allow"
	r["goal_expansion/2"] = "a compile-time hook the sandbox does not allow"
	for _, n := range []string{"halt/0", "halt/1", "consult/1", "open/3", "open/4", "read_term/2", "read_term/3", "read/1", "read/2", "op/3",
		"asserta/1", "assertz/1", "assert/1", "retract/1", "abolish/1", "set_prolog_flag/2", "clause/2"} {
		r[n] = "a builtin excluded from the sandbox"
	}
	prelude, err := scanClauses(&pl.VM{}, preludeText, true)
	if err != nil {
		return nil, fmt.Errorf("engine: prelude: %w", err)
	}
	for _, c := range prelude {
		r[c.indicator] = "a prelude predicate"
	}
	for _, p := range e.opts.Predicates {
		r[fmt.Sprintf("%s/%d", p.Name, p.Arity)] = "a host (bridge) predicate"
	}
	return r, nil
}

// validate parses every rule file and checks the load policy.
func (e *Engine) validate() error {
	reserved, err := e.reservedIndicators()
	if err != nil {
		return err
	}
	e.reserved = reserved
	e.defs = map[string]string{}
	// multifile[file][indicator]: the file declares the predicate multifile.
	// A predicate may be split over files only if every file that defines
	// it says so; ichiban/prolog otherwise replaces the earlier clauses.
	multifile := map[string]map[string]bool{}
	for _, src := range append(append([]Source(nil), e.sources...), e.tests...) {
		clauses, err := scanSource(src)
		if err != nil {
			return err
		}
		isTest := strings.HasSuffix(src.Name, "_test.pl")
		seen := map[string]bool{}
		declared := map[string]bool{}
		multifile[src.Path] = declared
		for _, c := range clauses {
			if c.directive != "" {
				for _, pi := range c.declares {
					if why, ok := reserved[pi]; ok {
						return &LoadError{File: src.Path, Line: c.line, Clause: ":- " + c.directive,
							Reason: fmt.Sprintf("declares %s, which is %s", pi, why)}
					}
					if other, ok := e.defs[pi]; ok && c.multifile == "" && !isTest {
						return &LoadError{File: src.Path, Line: c.line, Clause: ":- " + c.directive,
							Reason: fmt.Sprintf("declares %s, which %s defines (the declaration would replace its clauses)", pi, other)}
					}
				}
				if c.multifile != "" {
					declared[c.multifile] = true
				}
				continue
			}
			if why, ok := reserved[c.indicator]; ok {
				return &LoadError{File: src.Path, Line: c.line, Clause: c.indicator, Reason: "redefines " + why}
			}
			if isTest || seen[c.indicator] {
				continue
			}
			seen[c.indicator] = true
			if other, ok := e.defs[c.indicator]; ok {
				if !declared[c.indicator] || !multifile[other][c.indicator] {
					return &LoadError{File: src.Path, Line: c.line, Clause: c.indicator,
						Reason: fmt.Sprintf("already defined in %s (a predicate may be split over files only if every file declares :- multifile(%s) before its clauses; to change a default file, override it whole with a file of the same name)", other, c.indicator)}
				}
				continue
			}
			e.defs[c.indicator] = src.Path
		}
	}
	return nil
}

// newVM builds a loaded interpreter; extra are additional sources (a test
// file) compiled after the rules.
func (e *Engine) newVM(extra []Source) (*pl.VM, error) {
	vm := &pl.VM{}
	vm.FS = emptyFS{}
	for _, b := range sandboxBuiltins {
		b.reg(vm, pl.NewAtom(b.name))
	}
	if err := installOps(vm); err != nil {
		return nil, fmt.Errorf("engine: operator table: %w", err)
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
			for i, a := range args {
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
		qe.Exception = truncate(FormatTerm(vm, ex.Term(), nil), 2000)
		qe.Err = err
	case errors.Is(err, ErrInferenceBudget) || bctx.over.Load():
		qe.Err = ErrInferenceBudget
	default:
		qe.Err = err
	}
	return qe
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
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
		pl.NewAtom("host_error").Apply(pl.NewAtom(name), pl.CharList(truncate(msg, 500))),
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
