// Package eval scores the intent router (package intent) on a corpus of
// utterances with expected results, in three configurations: the resolver
// alone, a rewriter and the resolver, and the rewriter, the resolver and
// the model repair (`rlm route eval`, docs/intent-router.md). It reports
// accuracy overall and per category, the clarify rate, latency, model
// calls and false-positive executions: accepts that were not expected.
//
// ScriptedModel is a deterministic, corpus-blind stand-in for the repair's
// model; any loop.Model (an OpenAI-compatible endpoint) can take its place.
package eval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/rlm-dev/rlm/intent"
	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/tools"
)

// The configurations, in the order of a Report.
const (
	ConfigResolver = "resolver"
	ConfigRewriter = "rewriter+resolver"
	ConfigRepair   = "rewriter+resolver+repair"
)

// Options configure Run.
type Options struct {
	// IntentsDir is the host's intents directory (intent.Options).
	IntentsDir string
	Cases      []Case
	// Rewriter is the rewriter of the second and third configurations;
	// nil: intent.SpellingRewriter over the loaded intents.
	Rewriter func(string) string
	// Model is the repair's model (ScriptedModel, or an endpoint); nil:
	// the third configuration is not run.
	Model loop.Model
	// Compiler is the repair's prompt compiler; nil: the default rules.
	Compiler     *prompt.Compiler
	RepairLimits loop.Limits
	// Half, if set (HalfDev or HalfHeldOut), scores only the cases of
	// that half (Case.Half); "": every case.
	Half string
}

// Report is the outcome of Run.
type Report struct {
	Cases      int      `json:"cases"`
	Half       string   `json:"half,omitempty"` // Options.Half`
	Categories []string `json:"categories"`     // in the corpus's order
	Model      string   `json:"model,omitempty"`
	Configs    []Score  `json:"configs"`
}

// Score is one configuration's results over the corpus.
type Score struct {
	Config     string          `json:"config"`
	Cases      int             `json:"cases"`
	Correct    int             `json:"correct"`
	Categories []CategoryScore `json:"categories"`
	Clarify    int             `json:"clarify"` // results that are a clarify
	// P50 and P99 are the latency of one Route call (nearest rank).
	P50        time.Duration `json:"p50_ns"`
	P99        time.Duration `json:"p99_ns"`
	ModelCalls int           `json:"model_calls"`
	Tokens     int           `json:"tokens"`
	// FalsePositives are accepts that were not expected (Verdict).
	FalsePositives int `json:"false_positives"`
	// WrongArgs are accepts of the expected intent with other arguments.
	WrongArgs int `json:"wrong_args"`
	Errors    int `json:"errors"` // Route returned an error
	// Repairs counts the turns that ran the model repair; FailedRepairs
	// those whose repair did not end with an answer, by loop stop
	// ("provider_error", "budget", "deadline", ...). A failed repair is
	// answered by the rules as a clarify, so a dead endpoint shows here,
	// not in Errors.
	Repairs       int            `json:"repairs"`
	FailedRepairs map[string]int `json:"failed_repairs,omitempty"`
	// Halves are the same counts over each half of the cases scored
	// (HalfDev, then HalfHeldOut; a half with no case is left out).
	Halves []HalfScore `json:"halves"`
	Misses []Failure   `json:"misses"`
}

// HalfScore is a configuration's results on one half of the corpus
// (Case.Half).
type HalfScore struct {
	Half           string `json:"half"`
	Cases          int    `json:"cases"`
	Correct        int    `json:"correct"`
	Clarify        int    `json:"clarify"`
	ModelCalls     int    `json:"model_calls"`
	FalsePositives int    `json:"false_positives"`
	WrongArgs      int    `json:"wrong_args"`
	// ExactCases and ExactCorrect count the category "exact" alone.
	ExactCases   int `json:"exact_cases"`
	ExactCorrect int `json:"exact_correct"`
}

// CategoryScore is a configuration's results on one category.
type CategoryScore struct {
	Category       string        `json:"category"`
	Cases          int           `json:"cases"`
	Correct        int           `json:"correct"`
	ModelCalls     int           `json:"model_calls"`
	FalsePositives int           `json:"false_positives"`
	P50            time.Duration `json:"p50_ns"`
}

// Failure is a case a configuration got wrong.
type Failure struct {
	Line          int    `json:"line"`
	Half          string `json:"half"`
	Category      string `json:"category"`
	Utterance     string `json:"utterance"`
	Want          string `json:"want"`
	Got           string `json:"got"`
	FalsePositive bool   `json:"false_positive,omitempty"`
}

// Run routes every case in each configuration, one at a time, and scores
// the results. Every capability the intents need and every side effect is
// granted: the corpus measures routing, not policy. Errors: the router's
// load errors, a case naming an intent that is not registered
// (*CorpusError), the context's.
func Run(ctx context.Context, opts Options) (*Report, error) {
	switch opts.Half {
	case "":
	case HalfDev, HalfHeldOut:
		opts.Cases = slices.DeleteFunc(slices.Clone(opts.Cases), func(c Case) bool { return c.Half() != opts.Half })
	default:
		return nil, fmt.Errorf("eval: half %q: want %q, %q or none", opts.Half, HalfDev, HalfHeldOut)
	}
	if len(opts.Cases) == 0 {
		return nil, errors.New("eval: no cases")
	}
	base := intent.Options{IntentsDir: opts.IntentsDir}
	r, err := intent.New(ctx, base)
	if err != nil {
		return nil, err
	}
	intents := r.Intents()
	r.Close()
	known := map[string]bool{}
	var caps []string
	for _, in := range intents {
		known[in.Name] = true
		for _, c := range in.Capabilities {
			if !slices.Contains(caps, c) {
				caps = append(caps, c)
			}
		}
	}
	rep := &Report{Cases: len(opts.Cases), Half: opts.Half}
	for _, c := range opts.Cases {
		if c.Intent != "" && !known[c.Intent] {
			return nil, &CorpusError{File: cmp.Or(c.File, "corpus"), Line: c.Line, Reason: fmt.Sprintf("intent %q is not registered", c.Intent)}
		}
		if !slices.Contains(rep.Categories, c.Category) {
			rep.Categories = append(rep.Categories, c.Category)
		}
	}
	base.Policy = tools.Policy{Capabilities: caps, SideEffects: tools.SideEffects()}
	rw := opts.Rewriter
	if rw == nil {
		rw = intent.SpellingRewriter(intents)
	}
	withRW := base
	withRW.Rewriter = rw
	configs := []config{{ConfigResolver, base}, {ConfigRewriter, withRW}}
	if opts.Model != nil {
		rep.Model = opts.Model.Model()
		full := withRW
		full.Model, full.Compiler, full.RepairLimits = opts.Model, opts.Compiler, opts.RepairLimits
		if full.Compiler == nil {
			if full.Compiler, err = prompt.NewCompiler(prompt.CompilerOptions{}); err != nil {
				return nil, err
			}
		}
		configs = append(configs, config{ConfigRepair, full})
	}
	for _, cf := range configs {
		s, err := score(ctx, cf.name, cf.opts, opts.Cases, rep.Categories)
		if err != nil {
			return nil, err
		}
		rep.Configs = append(rep.Configs, *s)
	}
	return rep, nil
}

// config is a named router configuration.
type config struct {
	name string
	opts intent.Options
}

// score runs the cases through one configuration.
func score(ctx context.Context, name string, o intent.Options, cases []Case, cats []string) (*Score, error) {
	r, err := intent.New(ctx, o)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	s := &Score{Config: name, Cases: len(cases), Misses: []Failure{}}
	lat := make([]time.Duration, 0, len(cases))
	byCat := map[string]*CategoryScore{}
	catLat := map[string][]time.Duration{}
	for _, c := range cats {
		byCat[c] = &CategoryScore{Category: c}
	}
	halves := []*HalfScore{{Half: HalfDev}, {Half: HalfHeldOut}}
	half := func(c Case) *HalfScore {
		if c.Half() == HalfDev {
			return halves[0]
		}
		return halves[1]
	}
	for i, c := range cases {
		start := time.Now()
		res, err := r.Route(ctx, intent.Turn{ID: fmt.Sprintf("%s-%d", name, i), Utterance: c.Utterance})
		d := time.Since(start)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		cs, hs := byCat[c.Category], half(c)
		cs.Cases++
		hs.Cases++
		exact := c.Category == "exact"
		if exact {
			hs.ExactCases++
		}
		lat = append(lat, d)
		catLat[c.Category] = append(catLat[c.Category], d)
		if err != nil {
			s.Errors++
			s.Misses = append(s.Misses, Failure{Line: c.Line, Half: c.Half(), Category: c.Category, Utterance: c.Utterance, Want: c.String(), Got: "error: " + err.Error()})
			continue
		}
		if res.RepairStop != "" {
			s.Repairs++
			if res.RepairStop != string(loop.StopAnswered) {
				if s.FailedRepairs == nil {
					s.FailedRepairs = map[string]int{}
				}
				s.FailedRepairs[res.RepairStop]++
			}
		}
		v := c.Judge(res)
		s.ModelCalls += res.ModelCalls
		s.Tokens += res.Tokens
		cs.ModelCalls += res.ModelCalls
		hs.ModelCalls += res.ModelCalls
		if res.Kind == intent.Clarify {
			s.Clarify++
			hs.Clarify++
		}
		if v.Correct {
			s.Correct++
			cs.Correct++
			hs.Correct++
			if exact {
				hs.ExactCorrect++
			}
			continue
		}
		if v.FalsePositive {
			s.FalsePositives++
			cs.FalsePositives++
			hs.FalsePositives++
		}
		if v.WrongArgs {
			s.WrongArgs++
			hs.WrongArgs++
		}
		s.Misses = append(s.Misses, Failure{Line: c.Line, Half: c.Half(), Category: c.Category, Utterance: c.Utterance, Want: c.String(),
			Got: describe(res), FalsePositive: v.FalsePositive})
	}
	s.P50, s.P99 = percentile(lat, 50), percentile(lat, 99)
	for _, h := range halves {
		if h.Cases > 0 {
			s.Halves = append(s.Halves, *h)
		}
	}
	for _, c := range cats {
		cs := byCat[c]
		cs.P50 = percentile(catLat[c], 50)
		s.Categories = append(s.Categories, *cs)
	}
	return s, nil
}

// describe writes a result like a Case: "accept timer_start duration=300".
func describe(res *intent.Result) string {
	c := Case{Kinds: []intent.Kind{res.Kind}, Intent: res.Intent}
	if res.Kind == intent.Clarify && res.Intent == "" && len(res.Candidates) > 0 {
		c.Intent = res.Candidates[0]
		if len(res.Candidates) > 1 {
			c.Intent += fmt.Sprintf("(+%d)", len(res.Candidates)-1)
		}
	}
	if len(res.Args) > 0 {
		c.Args = map[string]string{}
		for k, v := range res.Args {
			c.Args[k] = fmt.Sprint(v)
		}
	}
	out := c.String()
	if res.Reason != "" {
		out += " (" + res.Reason + ")"
	}
	return out + " by " + res.By
}

// percentile is the nearest-rank p-th percentile of ds.
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	k := (p*len(s) + 99) / 100
	return s[max(k, 1)-1]
}
