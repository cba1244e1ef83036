package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rlm-dev/rlm"
)

// chatFlags choose an OpenAI-compatible chat endpoint (rlm ask, rlm route).
type chatFlags struct{ model, baseURL, keyEnv *string }

func addChatFlags(fs *flag.FlagSet, defaultModel, modelHelp string) chatFlags {
	return chatFlags{
		model:   fs.String("model", defaultModel, modelHelp),
		baseURL: fs.String("base-url", envOr("RLM_CHAT_BASE_URL", "https://api.openai.com/v1"), "base URL of an OpenAI-compatible chat endpoint ($RLM_CHAT_BASE_URL overrides the default)"),
		keyEnv:  fs.String("key-env", "OPENAI_API_KEY", "name of the environment variable holding the API key (\"\" for none)"),
	}
}

// open checks that the key variable is set (a usage error naming it
// otherwise, before any tree is read) and returns the chat model.
func (c chatFlags) open() (rlm.ChatModel, error) {
	if *c.keyEnv != "" && os.Getenv(*c.keyEnv) == "" {
		return nil, usageError{fmt.Sprintf("the environment variable %s holding the API key is not set: export it, name another with --key-env, or pass --key-env '' for an endpoint without keys", *c.keyEnv)}
	}
	return rlm.NewChatModel(*c.baseURL, *c.model, *c.keyEnv)
}

// cmdRoute routes one utterance to an intent of the --intents directory
// and prints the result (`rlm route eval` scores a corpus instead).
func cmdRoute(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "eval" {
		return cmdRouteEval(ctx, args[1:], stdout, stderr)
	}
	fs := newFlags("route", stderr)
	dir := fs.String("intents", "", "directory of .pl files with the host's intents (intent/4, phrasing/2; docs/intent-router.md)")
	explain := fs.Bool("explain", false, "also print the chain: candidates and scores, the resolver's rule, the repair, the validations")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	spell := fs.Bool("spell", false, "rewrite the utterance with the spelling rewriter of the intents' words first")
	chat := addChatFlags(fs, "", "chat model of the repair when the rules cannot decide (none: such a turn is a clarify)")
	var caps stringList
	fs.Var(&caps, "cap", "a granted capability (repeat); intents needing others are rejected")
	allow := fs.String("allow", "", "side effects allowed besides none and read, comma-separated: write, external")
	timeout := fs.Duration("timeout", 30*time.Second, "wall-time budget of the repair (0 or negative: the loop default, 2m)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *dir == "" {
		return usageError{"--intents DIR is required"}
	}
	if len(pos) == 0 {
		return usageError{"an UTTERANCE is required"}
	}
	opts := rlm.RouterOptions{IntentsDir: *dir, Policy: rlm.ToolPolicy{Capabilities: caps}, RepairLimits: rlm.AskLimits{Wall: *timeout}}
	if opts.Policy.SideEffects, err = sideEffects(*allow); err != nil {
		return err
	}
	if *chat.model != "" {
		if opts.Model, err = chat.open(); err != nil {
			return err
		}
		if opts.Compiler, err = rlm.NewCompiler(""); err != nil {
			return err
		}
	}
	var rewrite func(string) string
	if *spell {
		r, err := rlm.NewRouter(ctx, opts)
		if err != nil {
			return err
		}
		rewrite = rlm.SpellingRewriter(r.Intents())
		r.Close()
		opts.Rewriter = rewrite
	}
	r, err := rlm.NewRouter(ctx, opts)
	if err != nil {
		return err
	}
	defer r.Close()
	utterance := strings.Join(pos, " ")
	res, err := r.Route(ctx, rlm.Turn{ID: "cli", Utterance: utterance})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, res)
	}
	printRoute(stdout, res)
	if *explain {
		printRouteChain(stdout, res, utterance, rewrite)
	}
	return nil
}

// sideEffects reads --allow: none and read, plus the listed ones.
func sideEffects(list string) ([]rlm.SideEffect, error) {
	out := []rlm.SideEffect{"none", "read"}
	for _, s := range strings.Split(list, ",") {
		e := rlm.SideEffect(strings.TrimSpace(s))
		switch {
		case e == "":
		case !e.Valid():
			return nil, usageError{fmt.Sprintf("--allow %q: want side effects among none, read, write, external", s)}
		default:
			out = append(out, e)
		}
	}
	return out, nil
}

// printRoute prints the result in one or two lines.
func printRoute(w io.Writer, res *rlm.RouteResult) {
	switch res.Kind {
	case "accept":
		b, _ := json.Marshal(res.Args)
		fmt.Fprintf(w, "accept %s %s\n", res.Intent, printable(string(b)))
	case "clarify":
		fmt.Fprintf(w, "clarify %s\n  candidates: %s (%s)\n", strconv.Quote(res.Question), strings.Join(res.Candidates, ", "), res.Reason)
	default:
		fmt.Fprintf(w, "%s %s\n", res.Kind, res.Reason)
		if res.Kind == "reject" && len(res.Evidence) > 0 {
			fmt.Fprintf(w, "  %s\n", printable(strings.Join(res.Evidence[len(res.Evidence)-1].Premises, ", ")))
		}
		if res.Reason == "capability_denied" || res.Reason == "side_effect_denied" {
			fmt.Fprintln(w, "  (grant capabilities with --cap C and side effects with --allow write,external)")
		}
	}
}

// printRouteChain prints how the result was reached.
func printRouteChain(w io.Writer, res *rlm.RouteResult, utterance string, rewrite func(string) string) {
	fmt.Fprintf(w, "\nutterance: %s\n", strconv.Quote(clipText(utterance, 300)))
	if rewrite != nil {
		if rw := rewrite(utterance); rw != utterance {
			fmt.Fprintf(w, "rewritten: %s\n", strconv.Quote(clipText(rw, 300)))
		}
	}
	fmt.Fprintln(w, "candidates (BM25 score, % of the best):")
	if len(res.Considered) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, c := range res.Considered {
		fmt.Fprintf(w, "  %-24s %3d\n", c.Intent, c.Score)
	}
	fmt.Fprintln(w, "chain (resolver, repair, validation, in order):")
	for _, b := range res.Evidence {
		printBecause(w, b.Rule, b.Premises)
	}
	switch {
	case res.By == "repair":
		fmt.Fprintf(w, "repair: %d model calls, %d tokens, stop %s, projection fingerprint %s\n", res.ModelCalls, res.Tokens, res.RepairStop, res.RepairFingerprint)
	case res.Reason == "no_model":
		fmt.Fprintln(w, "repair: none configured (--model), so the rules' undecided turn asks the user")
	default:
		fmt.Fprintln(w, "repair: not needed, the rules decided (no model call)")
	}
	fmt.Fprintf(w, "decided by %s in %s\n", res.By, res.Elapsed.Round(10*time.Microsecond))
}

// cmdRouteEval scores the router on a corpus in three configurations.
func cmdRouteEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("route eval", stderr)
	dir := fs.String("intents", "", "directory of .pl files with the host's intents")
	corpus := fs.String("corpus", "", "corpus file (TSV; format in testdata/intent/corpus.tsv)")
	scripted := fs.Bool("scripted", false, "repair with the scripted model (deterministic, answers from the request alone)")
	chat := addChatFlags(fs, "", "chat model of the repair configuration (or --scripted; neither: the repair is not scored)")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	misses := fs.Bool("misses", false, "also list every configuration's misses")
	half := fs.String("half", "", "score only one half of the corpus: dev or held_out (split by a hash of the utterance)")
	timeout := fs.Duration("timeout", 30*time.Second, "wall-time budget of one repair (0 or negative: the loop default, 2m)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return usageError{fmt.Sprintf("unexpected argument %q", pos[0])}
	case *dir == "" || *corpus == "":
		return usageError{"--intents DIR and --corpus FILE are required"}
	case *scripted && *chat.model != "":
		return usageError{"--scripted and --model exclude each other"}
	}
	opts := rlm.RouteEvalOptions{IntentsDir: *dir, RepairLimits: rlm.AskLimits{Wall: *timeout}, Half: *half}
	switch {
	case *scripted:
		opts.Model = rlm.ScriptedRouteModel()
	case *chat.model != "":
		if opts.Model, err = chat.open(); err != nil {
			return err
		}
	default:
		fmt.Fprintln(stderr, "rlm route eval: no --scripted or --model: the repair configuration is not scored")
	}
	rep, err := rlm.EvalRoutes(ctx, *corpus, opts)
	if err != nil {
		return err
	}
	if *asJSON {
		err = writeJSON(stdout, rep)
	} else {
		err = rep.Markdown(stdout, *misses)
	}
	if err != nil {
		return err
	}
	// A report whose every repair failed measures the fallback, not the
	// model: say so and fail, so that a dead endpoint is not a result.
	for _, s := range rep.Configs {
		if s.Repairs > 0 && sum(s.FailedRepairs) == s.Repairs {
			return fmt.Errorf("every repair of the %s configuration failed; check the endpoint (--base-url, --key-env) and the model name", s.Config)
		}
	}
	return nil
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
