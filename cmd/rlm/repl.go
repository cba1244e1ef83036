package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/chzyer/readline"
	"github.com/mattn/go-isatty"

	"github.com/rlm-dev/rlm"
)

const replHelp = `Type a Prolog query against the rules, e.g.
  plan("what calls ServeHTTP?", P).
  explain("where is Server defined?", E).
  features("parse multipart forms", F).
  classify(F, Class, Why).          (F from features/2)
  whynot("parse multipart forms", graph, V).
Commands:
  :search QUERY    run the whole search (needs --root)
  :explain QUERY   the plan as a tree
  :whynot TARGET QUERY  why a strategy (or, with --root, a symbol) is not part of the answer
  :whyanswer QUERY the answer, its chain of rules and premises and the conclusion kept (needs --root)
  :whatif PATH...  the conclusions a change to these files would withdraw (needs --root)
  :conclusions     every kept conclusion, IN or OUT, and why (needs --root)
  :compile QUERY   the prompt units a model would see, and why (needs --catalog)
  :why UNIT QUERY  why one unit is in or out of that projection (needs --catalog)
  :help            this text
  :quit            leave (or halt., or Ctrl-D)
Up to 20 solutions are shown per query.
`

const maxReplSolutions = 20

func cmdRepl(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("repl", stderr)
	root := fs.String("root", "", "source tree for :search")
	bf := addBackendFlags(fs)
	catalog := fs.String("catalog", "", "prompt-unit catalog for :compile and :why")
	var caps stringList
	fs.Var(&caps, "cap", "a capability granted to :compile and :why (repeat)")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	var cs *compileSession
	if *catalog != "" {
		f := &compileFlags{catalog: *catalog, rules: bf.rules, mode: "compiled", caps: caps}
		cat, c, err := f.open(ctx)
		if err != nil {
			return err
		}
		defer cat.Release()
		cs = &compileSession{flags: f, cat: cat, c: c}
	}
	var p *rlm.Project
	var pl *rlm.Planner
	if *root != "" {
		fmt.Fprintf(stderr, "opening %s for :search ...\n", *root)
		bf.memory = true
		var err error
		if p, err = openProject(ctx, *root, bf, stderr); err != nil {
			return err
		}
		defer p.Close()
		pl = p.Planner()
	} else {
		opts, err := bf.options()
		if err != nil {
			return err
		}
		if pl, err = rlm.NewPlanner(opts); err != nil {
			return err
		}
	}
	next, closeInput, err := replInput(stdin, stdout)
	if err != nil {
		return err
	}
	defer closeInput()
	fmt.Fprintln(stdout, "rlm repl: Prolog rules loaded. :help for help, :quit to leave.")
	for {
		line, err := next()
		if errors.Is(err, io.EOF) || errors.Is(err, readline.ErrInterrupt) {
			return nil
		}
		if err != nil {
			return err
		}
		line = strings.TrimSpace(line)
		// Each query gets its own context: Ctrl-C stops that query, not
		// the session (the process-wide context is cancelled for good by
		// the first interrupt).
		qctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		replLine(qctx, pl, p, cs, line, stdout)
		stop()
		if line == ":quit" || line == ":q" || line == "halt." || line == "halt" {
			return nil
		}
	}
}

// compileSession is the REPL's catalog and compiler (--catalog).
type compileSession struct {
	flags *compileFlags
	cat   *rlm.Catalog
	c     *rlm.Compiler
}

// replLine answers one REPL line.
func replLine(ctx context.Context, pl *rlm.Planner, p *rlm.Project, cs *compileSession, line string, stdout io.Writer) {
	switch {
	case line == "":
	case line == ":quit" || line == ":q" || line == "halt." || line == "halt":
	case line == ":help":
		fmt.Fprint(stdout, replHelp)
	case strings.HasPrefix(line, ":explain "):
		e, err := pl.Explain(ctx, strings.TrimPrefix(line, ":explain "))
		if err != nil {
			fmt.Fprintln(stdout, "error:", err)
			return
		}
		printExplanation(stdout, e)
	case line == ":compile" || line == ":why" || strings.HasPrefix(line, ":compile ") || strings.HasPrefix(line, ":why "):
		replCompile(ctx, cs, line, stdout)
	case strings.HasPrefix(line, ":whynot ") || strings.HasPrefix(line, ":whyanswer ") || strings.HasPrefix(line, ":whatif ") || line == ":conclusions":
		replExplain(ctx, pl, p, line, stdout)
	case strings.HasPrefix(line, ":search "):
		if p == nil {
			fmt.Fprintln(stdout, "error: start the repl with --root DIR to search")
			return
		}
		a, err := p.Search(ctx, strings.TrimPrefix(line, ":search "), 10)
		if err != nil {
			fmt.Fprintln(stdout, "error:", err)
			return
		}
		printAnswer(stdout, a, true)
	default:
		replQuery(ctx, pl, line, stdout)
	}
}

// Usage lines of :compile and :why, printed when the query is missing.
const (
	replCompileUsage = "usage: :compile QUERY   (the prompt units a model would see for the task QUERY, and why)"
	replWhyUsage     = "usage: :why UNIT QUERY   (why the unit UNIT is in or out of the projection for QUERY)"
)

// replCompile answers ":compile QUERY" and ":why UNIT QUERY" (a usage line
// when the query is missing).
func replCompile(ctx context.Context, cs *compileSession, line string, w io.Writer) {
	q, isCompile := strings.CutPrefix(line, ":compile")
	var unit string
	if !isCompile {
		unit, q, _ = strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, ":why")), " ")
	}
	switch q = strings.TrimSpace(q); {
	case isCompile && q == "":
		fmt.Fprintln(w, replCompileUsage)
		return
	case !isCompile && (unit == "" || q == ""):
		fmt.Fprintln(w, replWhyUsage)
		return
	case cs == nil:
		fmt.Fprintln(w, "error: start the repl with --catalog FILE to compile")
		return
	}
	opts, _ := cs.flags.options()
	if isCompile {
		rep, err := compileAll(ctx, cs.c, cs.cat, cs.flags.input(q), opts)
		if err != nil {
			fmt.Fprintln(w, "error:", termError{err})
			return
		}
		printCompiled(w, rep, false)
		return
	}
	d, err := cs.c.Why(ctx, cs.cat, cs.flags.input(q), opts, unit)
	if err != nil {
		fmt.Fprintln(w, "error:", termError{err})
		return
	}
	state := "out"
	if d.Active {
		state = "in"
	}
	note := ""
	if !d.Candidate {
		note = " (not a candidate: the rules' verdict had it been one)"
	}
	fmt.Fprintf(w, "%s is %s%s: %s\n", printable(d.ID), state, note, printable(because(*d)))
}

// replExplain answers ":whynot TARGET QUERY", ":whyanswer QUERY",
// ":whatif PATH..." and ":conclusions".
func replExplain(ctx context.Context, pl *rlm.Planner, p *rlm.Project, line string, w io.Writer) {
	cmd, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	if target, q, ok := strings.Cut(rest, " "); cmd == ":whynot" && ok && (p != nil || rlm.IsStrategy(target)) {
		var v *rlm.WhyNot
		var err error
		if p != nil {
			v, err = p.WhyNot(ctx, q, target)
		} else {
			v, err = pl.WhyNotStrategy(ctx, q, target)
		}
		if err != nil {
			fmt.Fprintln(w, "error:", err)
			return
		}
		printWhyNot(w, v)
		return
	}
	if p == nil {
		fmt.Fprintln(w, "error: start the repl with --root DIR for "+cmd+" (or :whynot STRATEGY QUERY)")
		return
	}
	var err error
	switch cmd {
	case ":whynot":
		err = fmt.Errorf("usage: :whynot TARGET QUERY")
	case ":whyanswer":
		var y *rlm.Why
		if y, err = p.Why(ctx, rest, 10); err == nil {
			printWhy(w, y)
		}
	case ":whatif":
		var ch []rlm.LabelChange
		paths := strings.Fields(rest)
		if ch, err = p.WhatIf(ctx, paths...); err == nil {
			printWhatIf(w, paths, ch)
		}
	case ":conclusions":
		var cs []rlm.Conclusion
		if cs, err = p.Conclusions(ctx); err == nil {
			for _, c := range cs {
				printConclusion(w, c, false)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(w, "error:", err)
	}
}

func replQuery(ctx context.Context, pl *rlm.Planner, q string, w io.Writer) {
	var answers []string
	n, err := pl.Engine().QueryText(ctx, q, func(bs []rlm.Binding) bool {
		if len(bs) == 0 {
			answers = append(answers, "true")
		} else {
			parts := make([]string, len(bs))
			for i, b := range bs {
				parts[i] = b.Name + " = " + b.Value
			}
			answers = append(answers, strings.Join(parts, ",\n"))
		}
		return len(answers) < maxReplSolutions
	})
	if len(answers) > 0 {
		fmt.Fprintln(w, strings.Join(answers, " ;\n")+".")
	}
	switch {
	case err != nil:
		fmt.Fprintln(w, "error:", err)
	case n == 0:
		fmt.Fprintln(w, "false.")
	case n >= maxReplSolutions:
		fmt.Fprintf(w, "(stopped after %d solutions)\n", maxReplSolutions)
	}
}

// replInput returns a line reader: readline with history on a terminal,
// plain lines otherwise (pipes, tests).
func replInput(stdin io.Reader, stdout io.Writer) (func() (string, error), func(), error) {
	if f, ok := stdin.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		hist := ""
		if dir, err := os.UserCacheDir(); err == nil {
			_ = os.MkdirAll(filepath.Join(dir, "rlm"), 0o700)
			hist = filepath.Join(dir, "rlm", "repl_history")
		}
		rl, err := readline.NewEx(&readline.Config{Prompt: "?- ", HistoryFile: hist, HistoryLimit: 1000})
		if err != nil {
			return nil, nil, err
		}
		return rl.Readline, func() { rl.Close() }, nil
	}
	r := bufio.NewReaderSize(stdin, 64*1024)
	return func() (string, error) {
		for {
			fmt.Fprint(stdout, "?- ")
			line, tooLong, err := readLine(r, rlm.MaxReplQueryBytes)
			if tooLong {
				fmt.Fprintf(stdout, "error: line over %d bytes ignored\n", rlm.MaxReplQueryBytes)
				if err != nil {
					return "", err
				}
				continue
			}
			if err == io.EOF && line != "" {
				return line, nil
			}
			return line, err
		}
	}, func() {}, nil
}
