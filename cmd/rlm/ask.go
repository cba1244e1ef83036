package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/termsafe"
)

// cmdAsk answers a question about a source tree with the completion loop:
// evidence from the retrieval planner, a compiled projection, a model that
// may call retrieve (and recurse), citations with content hashes.
func cmdAsk(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("ask", stderr)
	root := fs.String("root", "", "source tree to ask about")
	chat := addChatFlags(fs, envOr("RLM_CHAT_MODEL", "gpt-4o-mini"), "chat model id (default $RLM_CHAT_MODEL or gpt-4o-mini)")
	mode := fs.String("mode", "compiled", "what the model sees: compiled (the prompt compiler's projection) or all_tools")
	trace := fs.Bool("trace", false, "print the trace (projection, plan steps, tool calls, usage) as JSON lines on stderr")
	asJSON := fs.Bool("json", false, "print the whole result as one JSON object instead of streaming the answer")
	catalog := fs.String("catalog", "", "prompt catalog file (YAML or JSON) of units the model may be shown (its tools stay hidden: rlm ask binds only retrieve and recurse)")
	budget := fs.Int("budget", 0, "tokens of one compiled projection (0: the default)")
	timeout := fs.Duration("timeout", 2*time.Minute, "wall-time budget of the whole answer (0 or negative: the default, 2m)")
	var caps stringList
	fs.Var(&caps, "cap", "grant a capability to the compile and the tool policy (repeatable), for catalog units that need it")
	bf := addBackendFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"a QUESTION is required"}
	}
	if *mode != "compiled" && *mode != "all_tools" {
		return usageError{fmt.Sprintf("--mode %q: want compiled or all_tools", *mode)}
	}
	if *budget < 0 {
		return usageError{"--budget must be 0 (the default) or positive"}
	}
	question := strings.Join(pos, " ")
	model, err := chat.open()
	if err != nil {
		return err
	}
	p, err := openProject(ctx, *root, bf, stderr)
	if err != nil {
		return err
	}
	defer p.Close()
	opts := rlm.AskOptions{Model: model, Mode: rlm.CompileMode(*mode), Limits: rlm.AskLimits{PromptBudget: *budget, Wall: *timeout},
		Policy: rlm.ToolPolicy{Capabilities: caps}, Input: rlm.CompileInput{Capabilities: caps}}
	if *catalog != "" {
		cat, err := rlm.LoadCatalog(ctx, *catalog, *chat.model)
		if err != nil {
			return err
		}
		defer cat.Release()
		opts.Catalog = cat
	}
	streamed := false
	if !*asJSON {
		opts.OnDelta = func(s string) {
			streamed = true
			fmt.Fprint(stdout, termsafe.String(s))
		}
	}
	res, err := p.Ask(ctx, question, opts)
	if *trace {
		for _, e := range res.Trace {
			_ = writeJSON(stderr, e)
		}
	}
	if *asJSON {
		if werr := writeJSON(stdout, res); werr != nil {
			return werr
		}
		return err
	}
	if !streamed && res.Answer != "" {
		fmt.Fprint(stdout, termsafe.String(res.Answer))
	}
	if streamed || res.Answer != "" {
		fmt.Fprintln(stdout)
	}
	if len(res.Citations) > 0 {
		header := "citations (* = named in the answer):"
		if res.Stop != "answered" {
			header = "evidence gathered before the run stopped:"
		}
		if streamed || res.Answer != "" {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintln(stdout, header)
		for _, c := range res.Citations {
			mark := " "
			if c.Cited {
				mark = "*"
			}
			fmt.Fprintf(stdout, " %s %s:%d-%d %s (%s)\n", mark, printable(c.Path), c.StartLine, c.EndLine, printable(c.Symbol), c.ContentHash)
		}
	}
	u := res.Usage
	fmt.Fprintf(stdout, "\n%s: model calls %d, tool calls %d, tokens %d, %s\n", res.Stop, u.ModelCalls, u.ToolCalls, u.TotalTokens, res.Elapsed.Round(time.Millisecond))
	return err
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
