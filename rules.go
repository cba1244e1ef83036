package rlm

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/rules"
)

// RuleTestResult is the outcome of one rule test clause.
type RuleTestResult = engine.TestResult

// RunRuleTests runs the *_test.pl files of the default rules with
// opts.Rules layered over them (the directory's own tests included), as
// `rlm test-rules` does. It returns one result per test clause, then one
// failed result per rule ID problem (an ID used but not registered with
// rule_id/2, or registered but unused; see planner.CheckRuleIDs).
func RunRuleTests(ctx context.Context, opts Options) ([]RuleTestResult, error) {
	pl, err := NewPlanner(opts)
	if err != nil {
		return nil, err
	}
	e := pl.Engine()
	var out []RuleTestResult
	for _, src := range e.TestSources() {
		res, err := e.RunTests(ctx, src)
		if err != nil {
			return out, err
		}
		out = append(out, res...)
	}
	problems, err := pl.CheckRuleIDs(ctx)
	if err != nil {
		return out, err
	}
	for _, p := range problems {
		out = append(out, RuleTestResult{
			TestCase: engine.TestCase{File: p.File, Line: p.Line, Name: "rule_id_registry"},
			Failure:  fmt.Sprintf("rule ID %s is %s", p.ID, p.What),
		})
	}
	return out, nil
}

// DumpRules writes the embedded default rules under dir, keeping their
// folders, for reading or as a starting point for overrides. It refuses to
// overwrite an existing file.
func DumpRules(dir string) error {
	return fs.WalkDir(rules.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if filepath.Ext(p) != ".pl" {
			return nil
		}
		b, err := fs.ReadFile(rules.FS, p)
		if err != nil {
			return err
		}
		f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("dump rules: %s already exists; nothing is overwritten: dump into a new or empty directory: %w", dst, err)
		}
		if err != nil {
			return fmt.Errorf("dump rules: %w", err)
		}
		if _, err := f.Write(b); err != nil {
			f.Close()
			return fmt.Errorf("dump rules: %w", err)
		}
		return f.Close()
	})
}
