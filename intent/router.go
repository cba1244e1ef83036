package intent

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/internal/stopwords"
	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/embedded"
	"github.com/rlm-dev/rlm/rules"
	"github.com/rlm-dev/rlm/tools"
)

// MaxCandidates bounds the intents the resolver (and a repair) considers.
const MaxCandidates = 8

// Options configure New.
type Options struct {
	// IntentsDir is a directory of rule files with the host's intents
	// (intent/4, phrasing/2), synonyms and fillers, layered over the
	// default rules/intent; "" for none.
	IntentsDir string
	// Intents are intents registered from Go, besides the rule files'.
	Intents []Intent
	// Rewriter, if set, rewrites an utterance before anything else (e.g.
	// spelling fixes). It must be a pure function; its output is bounded
	// to MaxUtteranceBytes and is data like the utterance.
	Rewriter func(string) string
	// Model and Compiler enable the repair: when the resolver cannot
	// decide, one model call through the completion loop chooses among
	// the candidates. Without them an undecided turn is a clarify.
	Model    loop.Model
	Compiler *prompt.Compiler
	// RepairLimits bound a repair (default: 1 model call, 1,500 prompt
	// tokens, 20 s).
	RepairLimits loop.Limits
	// Policy is what accepted intents may do: granted capabilities and
	// allowed side effects (tools.Policy).
	Policy tools.Policy
	// Inferences is the rules' per-query budget (0: the engine's).
	Inferences int64
	// CheckValue, if set, is the host's own check of a slot value before
	// an accept stands, whoever decided: e.g. a music player looking the
	// value up in its library. It gets the intent's and the slot's names
	// and the parsed value (see ParseSlot); a non-nil error refuses the
	// value — the turn asks for it again (a clarify, reason
	// "unknown_value") — and its text, clipped, is the evidence: it must
	// not hold secrets. It runs after the slot's own constraints and the
	// rules' catalog (catalog/2, rules/intent/values.pl), only for values
	// those let through.
	CheckValue func(ctx context.Context, intent, slot string, value any) error
}

// Router routes utterances to intents. Safe for concurrent use.
type Router struct {
	opts     Options
	eng      *engine.Engine
	intents  map[string]*entry
	order    []string
	index    *embedded.Backend // the candidate index (in memory)
	exec     *tools.Executor
	validate map[string]string          // validation check -> rule ID (validate.pl)
	synonyms map[string][]string        // word -> canonical words (synonym/2)
	fillers  map[string]bool            // filler/1
	catalogs map[string]map[string]bool // intent -> slots with a catalog (catalog/2)
}

type entry struct {
	Intent
	patterns [][]patternWord
	checks   map[string]slotCheck // slot name -> its property's check
	vocab    map[string]bool      // Intent.vocabulary
}

// New loads the intent rules and the host's intents, checks every intent
// and builds the candidate index. Errors: *engine.LoadError for rule
// files, *IntentError for an invalid intent.
func New(ctx context.Context, opts Options) (*Router, error) {
	def, err := fs.Sub(rules.FS, "intent")
	if err != nil {
		return nil, err
	}
	eo := engine.Options{Layers: []engine.Layer{{FS: def, Label: "rules/intent"}}, Inferences: opts.Inferences}
	if opts.IntentsDir != "" {
		l, err := engine.DirLayer(opts.IntentsDir)
		if err != nil {
			return nil, &engine.LoadError{File: opts.IntentsDir, Reason: "intents directory", Err: err}
		}
		eo.Layers = append(eo.Layers, l)
	}
	eng, err := engine.New(eo)
	if err != nil {
		return nil, err
	}
	r := &Router{opts: opts, eng: eng, intents: map[string]*entry{}}
	fromRules, err := r.readIntents(ctx)
	if err != nil {
		return nil, err
	}
	all := append(fromRules, opts.Intents...)
	if len(all) > MaxIntents {
		return nil, fmt.Errorf("intent: %d intents, over %d", len(all), MaxIntents)
	}
	reg := tools.NewRegistry()
	for _, in := range all {
		if in.Source == "" {
			in.Source = "go"
		}
		pats, err := in.check()
		if err != nil {
			return nil, err
		}
		if _, dup := r.intents[in.Name]; dup {
			return nil, &IntentError{Intent: in.Name, Source: in.Source, Reason: "registered twice"}
		}
		checks := map[string]slotCheck{}
		for _, s := range in.Slots {
			c, err := compileSlot(s)
			if err != nil {
				return nil, &IntentError{Intent: in.Name, Source: in.Source, Reason: fmt.Sprintf("slot %s: %v", s.Name, err)}
			}
			checks[s.Name] = c
		}
		r.intents[in.Name] = &entry{Intent: in, patterns: pats, checks: checks, vocab: in.vocabulary(pats)}
		r.order = append(r.order, in.Name)
		if err := reg.Register(in.tool()); err != nil {
			return nil, &IntentError{Intent: in.Name, Source: in.Source, Reason: err.Error()}
		}
	}
	r.exec = &tools.Executor{Registry: reg, Policy: opts.Policy}
	if r.validate, err = r.readValidation(ctx); err != nil {
		return nil, err
	}
	if r.synonyms, err = r.readSynonyms(ctx); err != nil {
		return nil, err
	}
	if r.fillers, err = r.readFillers(ctx); err != nil {
		return nil, err
	}
	if r.catalogs, err = r.readCatalogs(ctx); err != nil {
		return nil, err
	}
	if err := r.buildIndex(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// Intents returns the registered intents, in load order.
func (r *Router) Intents() []Intent {
	out := make([]Intent, 0, len(r.order))
	for _, n := range r.order {
		out = append(out, r.intents[n].Intent)
	}
	return out
}

// Close releases the candidate index.
func (r *Router) Close() error { return r.index.Close() }

// buildIndex puts one document per intent (name words, description,
// phrasing words) into an in-memory BM25 index.
func (r *Router) buildIndex(ctx context.Context) error {
	b, err := embedded.Open(ctx, ":memory:", embedded.WithQueryStopwords(stopwords.Glue))
	if err != nil {
		return fmt.Errorf("intent: candidate index: %w", err)
	}
	docs := make([]retrieval.Document, 0, len(r.order))
	for _, n := range r.order {
		e := r.intents[n]
		var words []string
		for _, p := range e.patterns {
			for _, w := range p {
				if w.word != "" {
					words = append(words, w.word)
				}
			}
		}
		docs = append(docs, retrieval.Document{ID: n, Symbol: n, Doc: e.Description, Signature: strings.Join(words, " ")})
	}
	if len(docs) > 0 {
		if err := b.Upsert(ctx, docs); err != nil {
			b.Close()
			return fmt.Errorf("intent: candidate index: %w", err)
		}
		if err := b.OptimizeText(ctx); err != nil {
			b.Close()
			return fmt.Errorf("intent: candidate index: %w", err)
		}
	}
	r.index = b
	return nil
}

// candidates are the intents nearest the tokens by BM25, best first; the
// search also looks for the canonical words of the tokens' synonyms.
func (r *Router) candidates(ctx context.Context, toks []string) ([]Candidate, error) {
	if len(toks) == 0 || len(r.order) == 0 {
		return nil, nil
	}
	q := slices.Clone(toks)
	for _, t := range toks {
		for _, c := range r.synonyms[t] {
			if !slices.Contains(q, c) {
				q = append(q, c)
			}
		}
	}
	hits, err := r.index.LexicalRanking(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: strings.Join(q, " "), Limit: MaxCandidates})
	if err != nil {
		return nil, fmt.Errorf("intent: candidates: %w", err)
	}
	var out []Candidate
	for _, h := range hits {
		out = append(out, Candidate{Intent: h.ID, Score: retrieval.PercentOfBest(h.Score, hits[0].Score)})
	}
	return out, nil
}

// Turn is one utterance to route. ID names the turn (results carry it);
// State is host-selected runtime state a repair may be shown (e.g.
// "playing": "jazz"), bounded like the utterance.
type Turn struct {
	ID        string
	Utterance string
	State     map[string]string
}

// Route routes one turn: rewriter, resolver, a repair if the resolver
// cannot decide, then validation. The error is for failures of the router
// itself (the rules, the context, ErrTooLong); a repair's model failure is
// reported in the Result (a clarify, RepairStop) so the host can still
// answer the user.
func (r *Router) Route(ctx context.Context, t Turn) (*Result, error) {
	start := time.Now()
	res := &Result{Turn: t.ID, Considered: []Candidate{}, Evidence: []Because{}}
	defer func() { res.Elapsed = time.Since(start) }()
	if len(t.Utterance) > MaxUtteranceBytes {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLong, len(t.Utterance), MaxUtteranceBytes)
	}
	text := t.Utterance
	if r.opts.Rewriter != nil {
		text = r.opts.Rewriter(text)
		if len(text) > MaxUtteranceBytes {
			text = text[:MaxUtteranceBytes]
		}
	}
	u := newUtterance(t.Utterance, text)
	toks := u.toks
	cands, err := r.candidates(ctx, toks)
	if err != nil {
		return nil, err
	}
	res.Considered = append(res.Considered, cands...)
	out, err := r.resolve(ctx, u, cands)
	if err != nil {
		return nil, err
	}
	res.By = "resolver"
	res.Evidence = append(res.Evidence, out.evidence...)
	switch out.kind {
	case "accept":
		if err := r.acceptFromWords(ctx, res, u, out.intent, out.args); err != nil {
			return nil, err
		}
	case "clarify":
		res.Kind, res.Candidates = Clarify, out.intents
		res.Question = r.whichQuestion(out.intents)
		switch out.question {
		case "no_object":
			res.Reason = "no_object"
		case "several_requests":
			res.Reason = "several_requests"
			res.Question = severalQuestion(out.request, res.Question, len(out.intents) > 0)
		default:
			res.Reason = "ambiguous"
		}
	case "reject":
		res.Kind, res.Reason = Reject, out.reason
	case "fallback_chat":
		res.Kind, res.Reason = FallbackChat, out.reason
	case "repair":
		if err := r.repair(ctx, res, t, u, out.intents); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// acceptFromWords parses the resolver's slot words into typed values (a
// string slot of KindAny takes the raw text behind its words, as the user
// wrote it),
// checks each against its slot's constraints (a string slot's raw text
// too: the words have lost the punctuation of "http://evil.example") and
// the host's catalog and value check (knownValue), and validates the
// result. A value the slot or the host refuses is a clarify asking for it
// again: the intent is right, the value is not. The error is the rules'
// or the context's.
func (r *Router) acceptFromWords(ctx context.Context, res *Result, u utterance, name string, words map[string][]string) error {
	e, ok := r.intents[name]
	if !ok {
		r.refuse(ctx, res, "unknown_intent", []string{name}, nil)
		return nil
	}
	args := map[string]any{}
	for _, s := range e.Slots {
		ws, ok := words[s.Name]
		if !ok {
			continue
		}
		v, err := ParseSlot(s, ws)
		if err == nil && s.Type == TypeString && s.Kind == KindAny {
			// What the host only stores keeps the user's case and
			// punctuation: the raw text behind the words.
			if raw, ok := u.rawText(ws); ok {
				v = raw
			}
		}
		why := ""
		if err != nil {
			why = err.Error()
		} else {
			why = e.checkValue(s, v, u, ws)
		}
		if why != "" {
			r.because(ctx, res, "bad_slot", []string{s.Name, why})
			res.Kind, res.Intent, res.Candidates = Clarify, name, []string{name}
			res.Question, res.Reason = slotQuestion(s, true), "bad_slot"
			return nil
		}
		known, err := r.knownValue(ctx, res, name, s, v)
		if err != nil {
			return err
		}
		if !known {
			res.Kind, res.Intent, res.Candidates = Clarify, name, []string{name}
			res.Question, res.Reason = unknownQuestion(s, v), "unknown_value"
			return nil
		}
		args[s.Name] = v
	}
	r.finishAccept(ctx, res, name, args, nil)
	return nil
}

// checkValue says why v, the value of slot s read from words of u, breaks
// the slot's constraints ("" when it does not): the value, and for a
// string slot of KindText or KindName the raw text of u behind the words
// too, which must have none of the shapes those kinds refuse (Shapes).
func (e *entry) checkValue(s Slot, v any, u utterance, words []string) string {
	c := e.checks[s.Name]
	if why := c.check(v); why != "" {
		return s.Name + ": " + why
	}
	if s.Type != TypeString {
		return ""
	}
	if s.Kind == KindAny {
		return ""
	}
	if raw, ok := u.rawText(words); ok {
		if sh := Shapes(raw); len(sh) > 0 {
			return fmt.Sprintf("%s: the words %q have the shape of %s", s.Name, textclip.Clean(raw, 80), strings.Join(sh, ", "))
		}
	}
	return ""
}

// finishAccept validates intent name with args (tools.Executor.Check: the
// intent exists, arguments match the slot schema, capabilities granted,
// side effect allowed) and makes res an accept, or a clarify for a missing
// required slot, or a reject. Arguments that do not match the schema call
// badArgs when set (a repair: the model's arguments are not trusted; it
// asks the user instead), else reject.
func (r *Router) finishAccept(ctx context.Context, res *Result, name string, args map[string]any, badArgs func()) {
	e, ok := r.intents[name]
	if !ok {
		r.refuse(ctx, res, "unknown_intent", []string{name}, nil)
		return
	}
	for _, s := range e.Slots {
		if _, ok := args[s.Name]; s.Required && !ok {
			r.because(ctx, res, "bad_arguments", []string{name, "missing " + s.Name})
			res.Kind, res.Intent, res.Candidates = Clarify, name, []string{name}
			res.Question, res.Reason = slotQuestion(s, false), "missing_slot"
			return
		}
	}
	b, _ := json.Marshal(args)
	if cerr := r.exec.Check(ctx, tools.Call{ID: res.Turn, Name: name, Arguments: string(b)}, []string{name}); cerr != nil {
		check := map[tools.ErrorKind]string{tools.KindCapabilityDenied: "capability_denied", tools.KindSideEffectDenied: "side_effect_denied"}[cerr.Kind]
		if check == "" {
			check = "bad_arguments"
		}
		if check == "bad_arguments" && badArgs != nil {
			r.because(ctx, res, check, []string{name, cerr.Message})
			badArgs()
			return
		}
		r.refuse(ctx, res, check, []string{name, cerr.Message}, nil)
		return
	}
	r.because(ctx, res, "passed", []string{name})
	res.Kind, res.Intent, res.Args = Accept, name, args
}

// refuse makes res a reject for the validation check.
func (r *Router) refuse(ctx context.Context, res *Result, check string, premises []string, _ error) {
	r.because(ctx, res, check, premises)
	res.Kind, res.Reason, res.Intent, res.Args = Reject, check, "", nil
}

// because appends the validation rule for check (validate.pl).
func (r *Router) because(_ context.Context, res *Result, check string, premises []string) {
	rule := r.validate[check]
	if rule == "" {
		rule = "val_" + check
	}
	ps := make([]string, len(premises))
	for i, p := range premises {
		ps[i] = fmt.Sprintf("%q", p)
	}
	res.Evidence = append(res.Evidence, Because{Rule: rule, Premises: ps})
}

// whichQuestion asks the user to choose among intents. Descriptions are
// written to the assistant ("Tell the weather forecast", "Remind the user
// of something later"), so the question is the assistant's offer: "Should
// I tell the weather forecast?", with the user addressed as "you".
func (r *Router) whichQuestion(names []string) string {
	var ds []string
	for _, n := range names {
		if e, ok := r.intents[n]; ok {
			ds = append(ds, toUser.Replace(lowerFirst(strings.TrimSuffix(strings.TrimSpace(e.Description), "."))))
		}
	}
	if len(ds) == 0 {
		return "What would you like to do?"
	}
	return "Should I " + strings.Join(ds, ", or ") + "?"
}

// toUser turns a description's "the user" into the question's "you".
var toUser = strings.NewReplacer("the user's", "your", "the user", "you", "The user's", "Your", "The user", "You")

// lowerFirst lowercases the first letter of s unless the word is an
// acronym or a name written in capitals ("TV", "HVAC").
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsUpper(r) {
		return s
	}
	if r2, _ := utf8.DecodeRuneInString(s[n:]); unicode.IsUpper(r2) {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// severalQuestion asks about a turn holding a second request the router
// cannot resolve (request, its words): one request per turn.
func severalQuestion(request []string, which string, first bool) string {
	q := fmt.Sprintf("I can do one thing at a time, and I can't %q.", textclip.Clean(strings.Join(request, " "), 120))
	if first {
		return q + " " + which
	}
	return q + " What would you like me to do?"
}

// slotQuestion asks for a slot's value by its description: "What
// duration?", "I didn't get the duration; what should it be?". A
// description that is already a question word's clause ("who to call",
// "what to play", "when, from now") is asked as it is: "Who to call?",
// "I didn't get who to call; ...".
func slotQuestion(s Slot, invalid bool) string {
	what := s.Name
	if s.Description != "" {
		what = s.Description
	}
	wh := false
	if f := strings.FieldsFunc(strings.ToLower(what), func(r rune) bool { return !unicode.IsLetter(r) }); len(f) > 0 {
		wh = slices.Contains([]string{"who", "whom", "what", "when", "where", "which", "how", "whether"}, f[0])
	}
	var q string
	switch {
	case invalid && wh:
		q = "I didn't get " + what + "; what should it be?"
	case invalid:
		q = "I didn't get the " + what + "; what should it be?"
	case wh:
		r, n := utf8.DecodeRuneInString(what)
		q = string(unicode.ToUpper(r)) + what[n:] + "?"
	default:
		q = "What " + what + "?"
	}
	if s.Type == TypeEnum {
		q += " (" + strings.Join(s.Enum, ", ") + ")"
	}
	return q
}

// Execute runs an accepted result with its intent's handler, through the
// executor (the same checks again, then the handler). It refuses anything
// but an accept.
func (r *Router) Execute(ctx context.Context, res *Result) (tools.Outcome, error) {
	if res == nil || res.Kind != Accept {
		return tools.Outcome{}, ErrNotAccepted
	}
	b, _ := json.Marshal(res.Args)
	out := r.exec.Execute(ctx, tools.Call{ID: res.Turn, Name: res.Intent, Arguments: string(b)}, []string{res.Intent})
	if out.Err != nil {
		return out, out.Err
	}
	return out, nil
}
