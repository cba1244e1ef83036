package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rlm-dev/rlm/eval"
)

// cmdEval is `rlm eval`: tasks built from the tree, run through the product
// and a BM25 baseline, scores side by side (package eval).
func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stderr)
	root := fs.String("root", "", "source tree to build the tasks from (nothing is written under it)")
	tasks := fs.String("tasks", strings.Join(eval.Tasks, ","), "comma-separated tasks: "+strings.Join(eval.Tasks, ", "))
	n := fs.Int("n", 100, "queries per task")
	seed := fs.Uint64("seed", 1, "sampling seed: the same seed, tree and rules give the same report")
	limit := fs.Int("limit", 10, "hits per ranking query")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	misses := fs.Bool("misses", false, "print every miss with its class, plan and because chain")
	bf := &backendFlags{}
	addRulesFlag(fs, bf)
	addEmbedderFlags(fs, bf)
	addMaxFileBytesFlag(fs, &bf.maxFileBytes)
	fs.BoolVar(&bf.includeIgnored, "include-ignored", false, "also index files that .gitignore, .ignore or .git/info/exclude exclude")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", pos[0])}
	}
	if err := checkRoot(*root); err != nil {
		return err
	}
	if *n < 1 {
		return usageError{"--n must be at least 1"}
	}
	bf.inMemory = true
	opts, err := bf.options()
	if err != nil {
		return err
	}
	var ts []string
	for _, t := range strings.Split(*tasks, ",") {
		if t = strings.TrimSpace(t); t != "" {
			ts = append(ts, t)
		}
	}
	rep, err := eval.Run(ctx, eval.Options{Root: *root, Tasks: ts, N: *n, Seed: *seed, Limit: *limit, Open: opts})
	if errors.Is(err, eval.ErrUnknownTask) {
		return usageError{err.Error()}
	}
	if err != nil {
		return err
	}
	if *asJSON {
		if !*misses {
			for i := range rep.Tasks {
				rep.Tasks[i].Misses = nil
			}
		}
		return writeJSON(stdout, rep)
	}
	return rep.WriteText(stdout, *misses)
}
