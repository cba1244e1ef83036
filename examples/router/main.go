// Command router is a small home assistant on rlm's intent router: 20
// intents (timers, alarms, lights, heating, music, notes, shopping,
// reminders, weather, calendar, calls, web search) written as rule facts
// in intents/, a spelling rewriter, and Go handlers that act on a
// pretend home.
//
//	go run ./examples/router "set a timer for 5 minutes"
//	go run ./examples/router                      # one request a line from stdin
//	go run ./examples/router -scripted "the hall lights should be on"
//	go run ./examples/router -model gpt-4o-mini "the hall lights should be on"
//
// The home is small on purpose: the alarm takes times of day as its
// handler reads them (clock.go; the slot's pattern in intents/home.pl
// says the same), and the music player is a genre radio with a station
// for each of the 80 ID3v1 genres (intents/library.pl), so "play the
// beatles" is asked about rather than played.
//
// The rules decide what they can without a model. A request they cannot
// decide is a question back to the user, unless a repair model is given:
// -scripted (a deterministic word-matching stand-in) or -model with an
// OpenAI-compatible endpoint (-base-url, -key-env; $RLM_CHAT_BASE_URL,
// $OPENAI_API_KEY). In interactive mode, ":state" shows the home and
// ":explain" toggles the chain of rules behind each answer.
package main

import (
	"bufio"
	"context"
	"embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rlm-dev/rlm"
)

//go:embed intents/*.pl
var intentFiles embed.FS

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, time.Now))
}

// assistant routes requests in one conversation (an rlm router session:
// a newer turn cancels an older one, whose result is never applied) and
// runs the accepted ones on the home.
type assistant struct {
	route   func(context.Context, rlm.Turn) (*rlm.RouteResult, error)
	apply   func(context.Context, *rlm.RouteResult) error
	home    *home
	out     io.Writer
	explain bool
	turns   int
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, now func() time.Time) int {
	fl := flag.NewFlagSet("router", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("intents", "", "directory of intent rule files (default: the example's own)")
	scripted := fl.Bool("scripted", false, "repair undecided requests with the scripted stand-in model")
	model := fl.String("model", "", "repair undecided requests with this chat model")
	baseURL := fl.String("base-url", envOr("RLM_CHAT_BASE_URL", "https://api.openai.com/v1"), "OpenAI-compatible endpoint of -model")
	keyEnv := fl.String("key-env", "OPENAI_API_KEY", "environment variable holding the API key of -model")
	explain := fl.Bool("explain", false, "print the chain of rules behind each answer")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	a, cleanup, err := newAssistant(ctx, *dir, *scripted, *model, *baseURL, *keyEnv, now)
	if err != nil {
		fmt.Fprintln(stderr, "router:", err)
		return 1
	}
	defer cleanup()
	a.out, a.explain = stdout, *explain
	if fl.NArg() > 0 {
		a.handle(ctx, strings.Join(fl.Args(), " "))
		return 0
	}
	fmt.Fprintln(stdout, "A pretend home assistant. Ask for timers, lights, music, notes, the weather ...; :state, :explain, :quit.")
	sc := bufio.NewScanner(stdin)
	for fmt.Fprint(stdout, "> "); sc.Scan(); fmt.Fprint(stdout, "> ") {
		switch line := strings.TrimSpace(sc.Text()); line {
		case "":
		case ":quit", ":q":
			return 0
		case ":state":
			fmt.Fprint(stdout, a.home.describe())
		case ":explain":
			a.explain = !a.explain
			fmt.Fprintf(stdout, "explain %v\n", a.explain)
		default:
			a.handle(ctx, line)
		}
	}
	fmt.Fprintln(stdout)
	return 0
}

// newAssistant loads the intents (the embedded copy unless dir is set)
// with the spelling rewriter of their words, grants the capabilities they
// declare, and picks the repair model.
func newAssistant(ctx context.Context, dir string, scripted bool, model, baseURL, keyEnv string, now func() time.Time) (*assistant, func(), error) {
	cleanup := func() {}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "router-intents-")
		if err != nil {
			return nil, nil, err
		}
		cleanup = func() { os.RemoveAll(tmp) }
		if err := copyIntents(tmp); err != nil {
			cleanup()
			return nil, nil, err
		}
		dir = tmp
	}
	fail := func(err error) (*assistant, func(), error) { cleanup(); return nil, nil, err }
	opts := rlm.RouterOptions{IntentsDir: dir}
	probe, err := rlm.NewRouter(ctx, opts)
	if err != nil {
		return fail(err)
	}
	intents := probe.Intents()
	probe.Close()
	for _, in := range intents {
		for _, c := range in.Capabilities {
			if !slices.Contains(opts.Policy.Capabilities, c) {
				opts.Policy.Capabilities = append(opts.Policy.Capabilities, c)
			}
		}
	}
	opts.Policy.SideEffects = []rlm.SideEffect{"none", "read", "write", "external"}
	opts.Rewriter = rlm.SpellingRewriter(intents)
	switch {
	case scripted:
		opts.Model = rlm.ScriptedRouteModel()
	case model != "":
		if opts.Model, err = rlm.NewChatModel(baseURL, model, keyEnv); err != nil {
			return fail(err)
		}
	}
	if opts.Model != nil {
		if opts.Compiler, err = rlm.NewCompiler(""); err != nil {
			return fail(err)
		}
	}
	r, err := rlm.NewRouter(ctx, opts)
	if err != nil {
		return fail(err)
	}
	s := r.NewSession()
	a := &assistant{home: newHome(now),
		route: func(ctx context.Context, t rlm.Turn) (*rlm.RouteResult, error) { return s.Start(ctx, t).Wait(ctx) },
		apply: func(ctx context.Context, res *rlm.RouteResult) error { _, err := s.Apply(ctx, res); return err },
	}
	return a, func() { r.Close(); cleanup() }, nil
}

// copyIntents writes the embedded intent files into dir.
func copyIntents(dir string) error {
	return fs.WalkDir(intentFiles, "intents", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := intentFiles.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, filepath.Base(p)), b, 0o644)
	})
}

// handle routes one request (the home's state goes with it, for a
// repair), applies an accept if its turn is still current, and answers.
func (a *assistant) handle(ctx context.Context, line string) {
	a.turns++
	res, err := a.route(ctx, rlm.Turn{ID: strconv.Itoa(a.turns), Utterance: line, State: a.home.state()})
	if err != nil {
		fmt.Fprintln(a.out, "error:", err)
		return
	}
	who := "rules"
	if res.By == "repair" {
		who = fmt.Sprintf("repair, %d model call(s)", res.ModelCalls)
	}
	switch res.Kind {
	case "accept":
		b, _ := json.Marshal(res.Args)
		fmt.Fprintf(a.out, "[accept %s %s by %s]\n", res.Intent, b, who)
		if err := a.apply(ctx, res); err != nil {
			fmt.Fprintln(a.out, "not done:", err)
			break
		}
		fmt.Fprintln(a.out, a.home.do(res.Intent, res.Args))
	case "clarify":
		fmt.Fprintf(a.out, "[clarify by %s]\n%s\n", who, res.Question)
	case "reject":
		fmt.Fprintf(a.out, "[reject: %s]\nSorry, I can't do that.\n", res.Reason)
	default:
		fmt.Fprintf(a.out, "[fallback_chat: %s]\nThat's not something this home can do.\n", res.Reason)
	}
	if a.explain {
		for _, b := range res.Evidence {
			fmt.Fprintf(a.out, "  because %s %s\n", b.Rule, strings.Join(b.Premises, ", "))
		}
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
