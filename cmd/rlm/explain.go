package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/rlm-dev/rlm"
)

// cmdExplain prints the plan search would run — for the backend the
// --embedder/--backend flags describe — and the fallbacks for each gap,
// without a tree. --whynot STRATEGY says why a strategy is or is not
// planned. With --root (which keeps conclusions, --memory): --why answers
// the query and shows the rule chain and the conclusion kept for it,
// --whynot SYMBOL why a symbol is not among the hits, --whatif PATH which
// conclusions a change to PATH would withdraw, --conclusions every kept
// conclusion, IN or OUT, with the rule and premise that labelled it.
func cmdExplain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("explain", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	root := fs.String("root", "", "source tree for --why, --whynot SYMBOL, --whatif and --conclusions")
	whynot := fs.String("whynot", "", "why a strategy (exact, structural, graph, lexical, vector, hybrid) or, with --root, a symbol is not part of the answer")
	why := fs.Bool("why", false, "with --root: answer the query and show the chain of rules and premises")
	var whatif stringList
	fs.Var(&whatif, "whatif", "with --root: which conclusions would go OUT if this file changed (repeat)")
	conclusions := fs.Bool("conclusions", false, "with --root: list the kept conclusions, IN or OUT, and why")
	bf := addBackendFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	query := strings.Join(pos, " ")
	treeOnly := *why || len(whatif) > 0 || *conclusions || *whynot != "" && !rlm.IsStrategy(*whynot)
	if *root == "" && treeOnly {
		return usageError{"--why, --whatif, --conclusions and --whynot SYMBOL need --root DIR"}
	}
	if len(pos) == 0 && len(whatif) == 0 && !*conclusions {
		return usageError{"a QUERY is required"}
	}
	if *root == "" {
		return explainPlan(ctx, query, *whynot, bf, *asJSON, stdout)
	}
	for i, w := range whatif {
		rel, err := treePath(*root, w)
		if err != nil {
			return err
		}
		whatif[i] = rel
	}
	bf.memory = true
	p, err := openProject(ctx, *root, bf, stderr)
	if err != nil {
		return err
	}
	defer p.Close()
	switch {
	case len(whatif) > 0:
		ch, err := p.WhatIf(ctx, whatif...)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, ch)
		}
		printWhatIf(stdout, whatif, ch)
	case *conclusions:
		cs, err := p.Conclusions(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, cs)
		}
		for _, c := range cs {
			printConclusion(stdout, c, false)
		}
	case *whynot != "":
		v, err := p.WhyNot(ctx, query, *whynot)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, v)
		}
		printWhyNot(stdout, v)
	case *why:
		y, err := p.Why(ctx, query, rlm.DefaultLimit)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, y)
		}
		printWhy(stdout, y)
	default:
		e, err := p.Explain(ctx, query)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, e)
		}
		printExplanation(stdout, e)
	}
	return nil
}

// explainPlan is explain without a tree: the plan, or why a strategy is
// or is not in it.
func explainPlan(ctx context.Context, query, whynot string, bf *backendFlags, asJSON bool, stdout io.Writer) error {
	opts, err := bf.options()
	if err != nil {
		return err
	}
	pl, err := rlm.NewPlanner(opts)
	if err != nil {
		return err
	}
	if whynot != "" {
		v, err := pl.WhyNotStrategy(ctx, query, whynot)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(stdout, v)
		}
		printWhyNot(stdout, v)
		return nil
	}
	e, err := pl.Explain(ctx, query)
	if err != nil {
		if asJSON {
			writeJSON(stdout, queryError(query, err))
		}
		return err
	}
	if asJSON {
		return writeJSON(stdout, e)
	}
	printExplanation(stdout, e)
	return nil
}

// treePath is the --whatif path p as the knowledge base names files: a
// slash path relative to root. An absolute p is taken relative to root,
// a relative one as relative to root already ("./a.go" is "a.go"); a
// path that leaves the tree is a usage error.
func treePath(root, p string) (string, error) {
	orig := p
	if filepath.IsAbs(p) {
		abs, err := filepath.Abs(root)
		if err != nil {
			return "", err
		}
		r, err := filepath.Rel(abs, p)
		if err != nil {
			return "", usageError{fmt.Sprintf("--whatif %q is not under --root %q", orig, root)}
		}
		p = r
	}
	rel := path.Clean(filepath.ToSlash(p))
	if !fs.ValidPath(rel) || rel == "." {
		return "", usageError{fmt.Sprintf("--whatif %q is not a file under --root %q", orig, root)}
	}
	return rel, nil
}
