package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// spin loops inside one builtin step (term_variables/2 on a cyclic term),
// where neither the inference budget nor a context check can interrupt it.
const spinRules = "spin :- X = f(X, Y), term_variables(X, [Y]).\nloop :- loop.\n"

// TestEveryQueryHasADeadline: a query whose caller gave no deadline still
// ends at Options.Timeout, with a structured error, even when it spins
// inside one builtin step; the engine keeps answering afterwards.
func TestEveryQueryHasADeadline(t *testing.T) {
	e := newTestEngine(t, map[string]string{"spin.pl": spinRules, "ok.pl": "ok.\n"}, Options{Timeout: 300 * time.Millisecond})
	for _, goal := range []string{"spin"} {
		start := time.Now()
		_, err := e.Once(context.Background(), goal)
		elapsed := time.Since(start)
		var qe *QueryError
		if !errors.As(err, &qe) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s: want a *QueryError matching context.DeadlineExceeded, got %v", goal, err)
		}
		if elapsed > 300*time.Millisecond+abandonGrace+700*time.Millisecond {
			t.Fatalf("%s: returned after %v", goal, elapsed)
		}
	}
	start := time.Now()
	_, err := e.QueryText(context.Background(), "spin", func([]Binding) bool { return true })
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Fatalf("QueryText: %v after %v", err, time.Since(start))
	}
	if _, err := e.Once(context.Background(), "ok"); err != nil {
		t.Fatalf("after the deadlines: %v", err)
	}
}

// TestRuleTestsHaveADeadline: a rule test that spins fails with a deadline
// message instead of hanging the run, and the tests after it still run on
// a fresh interpreter.
func TestRuleTestsHaveADeadline(t *testing.T) {
	e := newTestEngine(t, map[string]string{"spin.pl": spinRules,
		"spin_test.pl": "test(spins) :- spin.\ntest(after) :- true.\n"}, Options{Timeout: 300 * time.Millisecond})
	start := time.Now()
	res, err := e.RunTests(context.Background(), e.TestSources()[0])
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 3*time.Second {
		t.Fatalf("RunTests took %v", time.Since(start))
	}
	if len(res) != 2 || res[0].Passed || !strings.Contains(res[0].Failure, "deadline") || !res[1].Passed {
		t.Fatalf("results: %+v", res)
	}
}
