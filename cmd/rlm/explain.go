package main

import (
	"context"
	"io"
	"strings"

	"github.com/rlm-dev/rlm"
)

// cmdExplain prints the plan search would run — for the backend the
// --embedder/--backend flags describe — and the fallbacks for each gap,
// without a tree.
func cmdExplain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("explain", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	bf := &backendFlags{}
	addRulesFlag(fs, bf)
	addEmbedderFlags(fs, bf)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"a QUERY is required"}
	}
	query := strings.Join(pos, " ")
	opts, err := bf.options()
	if err != nil {
		return err
	}
	pl, err := rlm.NewPlanner(opts)
	if err != nil {
		return err
	}
	e, err := pl.Explain(ctx, query)
	if err != nil {
		if *asJSON {
			writeJSON(stdout, queryError(query, err))
		}
		return err
	}
	if *asJSON {
		return writeJSON(stdout, e)
	}
	printExplanation(stdout, e)
	return nil
}
