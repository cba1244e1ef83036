package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/rlm-dev/rlm"
)

// cmdTestRules runs the rule tests (*_test.pl) of the default rules and of
// DIR, layered over them.
func cmdTestRules(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("test-rules", stderr)
	verbose := fs.Bool("v", false, "print passing tests too")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageError{"at most one DIR"}
	}
	opts := rlm.Options{}
	if len(pos) == 1 {
		opts.Rules = pos[0]
	}
	results, err := rlm.RunRuleTests(ctx, opts)
	if err != nil {
		return err
	}
	passed, failed, mine := 0, 0, 0
	for _, r := range results {
		if opts.Rules != "" && strings.HasPrefix(r.File, opts.Rules) {
			mine++
		}
		if r.Passed {
			passed++
			if *verbose {
				fmt.Fprintln(stdout, r.String())
			}
			continue
		}
		failed++
		fmt.Fprintln(stdout, "FAIL "+r.String())
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if opts.Rules != "" && mine == 0 {
		fmt.Fprintf(stdout, "note: %s has no tests of its own (X_test.pl beside X.pl); these are the default rules' tests\n", opts.Rules)
	}
	if failed > 0 {
		return fmt.Errorf("%d rule test(s) failed", failed)
	}
	if passed == 0 {
		return fmt.Errorf("no rule tests found")
	}
	return nil
}
