package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	pl "github.com/ichiban/prolog/engine"
)

// Rule tests
//
// A rule file rules/X.pl has its tests in rules/X_test.pl: named test
// clauses
//
//	test(classifies_bare_identifier) :-
//	    classify(features(...), C, _),
//	    C == identifier.
//
// A test passes if its body succeeds (once). A test file may define helper
// predicates of its own. When a test fails the runner re-runs the body's
// conjuncts one by one and reports the first goal that failed or raised,
// with the bindings it had at that point, and the file:line of the test.

// TestCase is one test clause.
type TestCase struct {
	File string // display path of the _test.pl file
	Line int    // 1-based line of the test clause
	Name string // the test's name as written
	body pl.Term
}

// TestResult is the outcome of one TestCase.
type TestResult struct {
	TestCase
	Passed     bool
	Goal       string // the failing goal, if any
	Failure    string // readable reason
	Inferences int64
	Elapsed    time.Duration
}

// String formats a failed result as "file:line: test NAME: reason".
func (r TestResult) String() string {
	if r.Passed {
		return fmt.Sprintf("%s:%d: test %s: ok", r.File, r.Line, r.Name)
	}
	return fmt.Sprintf("%s:%d: test %s: %s", r.File, r.Line, r.Name, r.Failure)
}

// RunTests runs the tests of one test source against this engine's rules.
// It returns a *LoadError if the test file itself cannot be loaded: the
// load policy and the undefined-predicate check of rule files apply, with
// the test file's own predicates counting as defined; and two test clauses
// with the same name, or a name with a variable, are refused at the
// offending clause's line.
func (e *Engine) RunTests(ctx context.Context, src Source) ([]TestResult, error) {
	f, err := parseSource(src)
	if err != nil {
		return nil, err
	}
	if err := checkContiguous(f); err != nil {
		return nil, err
	}
	local := map[string]bool{} // the test file's own predicates
	for _, c := range f.clauses {
		if c.directive != "" {
			if c.declKind != "discontiguous" {
				for _, pi := range c.declares {
					local[pi] = true
				}
			}
			continue
		}
		if why, ok := e.reserved[c.indicator]; ok {
			return nil, f.errorAt(c.offset, c.indicator, "redefines "+why)
		}
		if other, ok := e.defs[c.indicator]; ok {
			return nil, f.errorAt(c.offset, c.indicator, "already defined in "+other)
		}
		local[c.indicator] = true
	}
	if err := e.checkCalls(f, local); err != nil {
		return nil, err
	}
	vm, err := e.newVM([]Source{src})
	if err != nil {
		return nil, err
	}
	// A test runs by calling its head, test(Name): two clauses with one
	// name would run as one (the second only if the first failed), and a
	// name with a variable would answer for every name.
	var cases []TestCase
	var heads []pl.Term
	first := map[string]int{} // name -> line of its clause
	for _, c := range f.clauses {
		if c.indicator != "test/1" {
			continue
		}
		line, _ := f.lines.Pos(c.offset)
		arg := c.head.(pl.Compound).Arg(0)
		tc := TestCase{File: src.Path, Line: line, body: c.body, Name: FormatTerm(vm, arg, nil)}
		if !ground(arg) {
			return nil, f.errorAt(c.offset, "test/1", fmt.Sprintf("test name %s has a variable; name each test with a ground term", tc.Name))
		}
		if l, dup := first[tc.Name]; dup {
			return nil, f.errorAt(c.offset, "test/1", fmt.Sprintf("duplicate test name %s (first at line %d); each test needs its own name", tc.Name, l))
		}
		first[tc.Name] = line
		cases = append(cases, tc)
		heads = append(heads, c.head)
	}
	results := make([]TestResult, 0, len(cases))
	for i, tc := range cases {
		r, abandoned := e.runOne(ctx, vm, tc, heads[i])
		results = append(results, r)
		if abandoned {
			// The interpreter is still busy inside a builtin: the next
			// tests get a fresh one.
			if vm, err = e.newVM([]Source{src}); err != nil {
				return results, err
			}
		}
	}
	return results, nil
}

// ground reports whether t has no variables.
func ground(t pl.Term) bool {
	switch t := t.(type) {
	case pl.Variable:
		return false
	case pl.Compound:
		for i := range t.Arity() {
			if !ground(t.Arg(i)) {
				return false
			}
		}
	}
	return true
}

// runOne runs one test under the engine's deadline (a test's context
// without one gets Options.Timeout) and budget. abandoned reports that the
// test ran past its deadline inside one builtin step and its interpreter
// may still be busy.
func (e *Engine) runOne(ctx context.Context, vm *pl.VM, tc TestCase, head pl.Term) (r TestResult, abandoned bool) {
	ctx, cancel := e.withDeadline(ctx)
	defer cancel()
	start := time.Now()
	bctx := withBudget(ctx, e.opts.Inferences)
	// Run the clause as written (the head, not the parsed body, so that
	// multiple clauses for one name behave as Prolog says).
	ok, err, abandoned := force(ctx, func() (bool, error) {
		return pl.Call(vm, head, func(*pl.Env) *pl.Promise { return pl.Bool(true) }, nil).Force(bctx)
	})
	r = TestResult{TestCase: tc, Inferences: bctx.used(), Elapsed: time.Since(start)}
	if abandoned || ctx.Err() != nil {
		r.Failure = fmt.Sprintf("ran past its deadline (%v): %v", time.Since(start).Round(time.Millisecond), ctx.Err())
		return r, abandoned
	}
	if err == nil && ok {
		r.Passed = true
		return r, false
	}
	r.Goal, r.Failure = e.diagnose(ctx, vm, tc.body, err)
	return r, false
}

// diagnose finds the first conjunct of body that fails or raises.
func (e *Engine) diagnose(ctx context.Context, vm *pl.VM, body pl.Term, whole error) (string, string) {
	if body == nil {
		return "", "the test is a fact with no body, yet did not succeed"
	}
	goals := conjuncts(body)
	for i := range goals {
		prefix := conjoin(goals[:i+1])
		var env0 *pl.Env
		bctx := withBudget(ctx, e.opts.Inferences)
		ok, err := pl.Call(vm, prefix, func(env *pl.Env) *pl.Promise { env0 = env; return pl.Bool(true) }, nil).Force(bctx)
		if err != nil || !ok {
			// Show the failing goal with the bindings of the prefix before it.
			var shown string
			if i == 0 {
				shown = FormatTerm(vm, goals[i], nil)
			} else {
				var envBefore *pl.Env
				before := conjoin(goals[:i])
				_, _ = pl.Call(vm, before, func(env *pl.Env) *pl.Promise { envBefore = env; return pl.Bool(true) }, nil).Force(withBudget(ctx, e.opts.Inferences))
				shown = FormatTerm(vm, goals[i], envBefore)
			}
			_ = env0
			if err != nil {
				return shown, fmt.Sprintf("goal raised %s: %s", describeErr(vm, err), shown)
			}
			return shown, "goal failed: " + shown
		}
	}
	if whole != nil {
		return "", "raised " + describeErr(vm, whole)
	}
	return "", "every goal succeeded alone but the clause failed (check the head or a later clause)"
}

func describeErr(vm *pl.VM, err error) string {
	var ex pl.Exception
	if errors.As(err, &ex) {
		return FormatTerm(vm, ex.Term(), nil)
	}
	if errors.Is(err, ErrInferenceBudget) {
		return "inference budget exhausted"
	}
	return err.Error()
}

func conjuncts(t pl.Term) []pl.Term {
	if c, ok := t.(pl.Compound); ok && c.Functor() == pl.NewAtom(",") && c.Arity() == 2 {
		return append(conjuncts(c.Arg(0)), conjuncts(c.Arg(1))...)
	}
	return []pl.Term{t}
}

func conjoin(ts []pl.Term) pl.Term {
	t := ts[len(ts)-1]
	for i := len(ts) - 2; i >= 0; i-- {
		t = pl.NewAtom(",").Apply(ts[i], t)
	}
	return t
}
