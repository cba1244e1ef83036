// Command rlm indexes a source tree and answers questions about it with a
// plan chosen by Prolog rules.
//
//	rlm search --root DIR [--json] [--batch] [--explain] [--limit N] [--rules DIR] QUERY
//	rlm explain [--json] [--rules DIR] [--whynot STRATEGY] QUERY
//	rlm explain --root DIR [--why | --whynot SYMBOL] QUERY | --whatif PATH | --conclusions
//	rlm index --root DIR
//	rlm status --root DIR
//	rlm compile --catalog FILE [--mode compiled|all_tools] [--budget N] [--model M] [--cap C]... [--select ID]... [--deny ID]... [--json] QUERY
//	rlm repl [--root DIR] [--rules DIR] [--catalog FILE [--cap C]...]
//	rlm test-rules [DIR]
//	rlm rules dump DIR | rlm rules ids
//	rlm mcp --root DIR [--allow-write] [--http 127.0.0.1:PORT] [--catalog FILE]
//	rlm ask --root DIR [--model M] QUESTION
//	rlm route --intents DIR [--explain] [--json] [--model M] [--cap C]... [--allow write,...] UTTERANCE
//	rlm route eval --intents DIR --corpus FILE [--scripted | --model M]
//	rlm eval --root DIR [--tasks T,...] [--n N] [--seed S] [--rules DIR] [--json] [--misses]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/rlm-dev/rlm/internal/termsafe"
)

const usage = `rlm: LLM-harness retrieval planned by Prolog rules

usage:
  rlm search --root DIR [--json] [--batch] [--explain] [--limit N] [--rules DIR] [--memory] [--cases] QUERY
  rlm explain [--json] [--rules DIR] [--embedder E] [--whynot STRATEGY] QUERY
  rlm explain --root DIR [--why | --whynot SYMBOL] QUERY | --whatif PATH | --conclusions
  rlm index --root DIR [--json] [--in-memory] [--cpuprofile FILE]
  rlm status --root DIR [--json]
  rlm compile --catalog FILE [--mode compiled|all_tools] [--budget N] [--model M]
              [--cap C]... [--select ID]... [--deny ID]... [--signal S]... [--need W]... [--json] QUERY
  rlm repl [--root DIR] [--rules DIR] [--catalog FILE [--cap C]...]
  rlm test-rules [DIR]
  rlm rules dump DIR | rlm rules ids [--rules DIR]
  rlm ask --root DIR [--model M] [--base-url URL] [--key-env NAME] [--mode compiled|all_tools]
          [--catalog FILE] [--cap C]... [--trace] [--json] QUESTION
  rlm mcp --root DIR [--rules DIR] [--embedder E] [--backend B] [--allow-write]
          [--http 127.0.0.1:PORT [--max-sessions N] [--session-idle D]] [--catalog FILE [--model M]]
  rlm route --intents DIR [--explain] [--json] [--spell] [--model M --base-url URL --key-env NAME]
            [--cap C]... [--allow write,...] UTTERANCE
  rlm route eval --intents DIR --corpus FILE [--scripted | --model M ...] [--json] [--misses]
  rlm eval --root DIR [--tasks identifier,callers,description,description_nodoc] [--n N] [--seed S]
           [--rules DIR] [--embedder local|none|openai] [--limit N] [--json] [--misses]

Run "rlm COMMAND -h" for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit code (0 ok, 1
// failure, 2 usage).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "search":
		err = cmdSearch(ctx, args[1:], stdin, stdout, stderr)
	case "explain":
		err = cmdExplain(ctx, args[1:], stdout, stderr)
	case "index":
		err = cmdIndex(ctx, args[1:], stdout, stderr)
	case "repl":
		err = cmdRepl(ctx, args[1:], stdin, stdout, stderr)
	case "test-rules":
		err = cmdTestRules(ctx, args[1:], stdout, stderr)
	case "status":
		err = cmdStatus(ctx, args[1:], stdout, stderr)
	case "compile":
		err = cmdCompile(ctx, args[1:], stdout, stderr)
	case "rules":
		err = cmdRules(ctx, args[1:], stdout, stderr)
	case "ask":
		err = cmdAsk(ctx, args[1:], stdout, stderr)
	case "mcp":
		err = cmdMCP(ctx, args[1:], stdin, stdout, stderr)
	case "eval":
		err = cmdEval(ctx, args[1:], stdout, stderr)
	case "route":
		err = cmdRoute(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "rlm: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	var ue usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "rlm %s: %s\n", args[0], termsafe.String(err.Error()))
		return 2
	default:
		// An error may quote a file, a catalog or a model's refusal.
		fmt.Fprintf(stderr, "rlm %s: %s\n", args[0], termsafe.String(err.Error()))
		return 1
	}
}

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }
