package rlm

import (
	"context"

	"github.com/rlm-dev/rlm/intent"
	"github.com/rlm-dev/rlm/intent/eval"
	"github.com/rlm-dev/rlm/tools"
)

// The intent router (package intent, docs/intent-router.md): an
// utterance to one of a host's intents, rules first, one bounded model
// repair when they cannot decide, then validation; and its evaluation
// on a corpus (package intent/eval).
type (
	Router           = intent.Router
	RouterOptions    = intent.Options
	Turn             = intent.Turn
	RouteResult      = intent.Result
	SideEffect       = tools.SideEffect // none, read, write, external (ToolPolicy.SideEffects)
	RouteEvalOptions = eval.Options
	RouteEvalReport  = eval.Report
)

// NewRouter loads the intent rules and the host's intents (see
// intent.Options: IntentsDir, Intents, Model and Compiler for the repair,
// Policy).
func NewRouter(ctx context.Context, opts RouterOptions) (*Router, error) {
	return intent.New(ctx, opts)
}

// SpellingRewriter is a rewriter (RouterOptions.Rewriter) fixing
// misspellings with a dictionary of the intents' own words
// (intent.SpellingRewriter).
func SpellingRewriter(intents []intent.Intent) func(string) string {
	return intent.SpellingRewriter(intents)
}

// EvalRoutes scores the router on the corpus file at corpusPath (format:
// testdata/intent/corpus.tsv) in three configurations — resolver alone,
// rewriter + resolver, and with the repair if opts.Model is set; opts.Cases
// is replaced by the file's. Errors: *eval.CorpusError for a bad corpus.
func EvalRoutes(ctx context.Context, corpusPath string, opts RouteEvalOptions) (*RouteEvalReport, error) {
	cases, err := eval.LoadCorpus(corpusPath)
	if err != nil {
		return nil, err
	}
	opts.Cases = cases
	return eval.Run(ctx, opts)
}

// ScriptedRouteModel is a deterministic, corpus-blind stand-in for the
// repair's model, answering from the request alone (eval.ScriptedModel).
func ScriptedRouteModel() ChatModel { return eval.ScriptedModel() }
