package intent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/internal/stopwords"
)

// resolution is the resolver's answer, decoded by shape.
type resolution struct {
	kind     string // accept, clarify, reject, fallback_chat, repair
	intent   string
	args     map[string][]string
	intents  []string
	reason   string
	question string   // clarify: which, no_object or several_requests
	request  []string // several_requests: the second request's words
	evidence []Because
}

// resolve asks resolve/3 (rules/intent/resolve.pl) over the candidates.
// Words, intent names and slot names reach the rules only as strings.
func (r *Router) resolve(ctx context.Context, u utterance, cands []Candidate) (*resolution, error) {
	cs := make([]engine.Term, 0, len(cands))
	for _, c := range cands {
		cs = append(cs, r.candTerm(c.Intent, c.Score))
	}
	sol, err := r.eng.Once(ctx, "resolve", r.utteranceTerm(u, cands), engine.List(cs...), engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("intent: resolve: %w", err)
	}
	return decodeResolution(sol[2])
}

// candTerm is cand(Intent, Phrasings, Score): each phrasing a list of
// w(Word) and slot(Name).
func (r *Router) candTerm(name string, score int) engine.Term {
	e := r.intents[name]
	ps := make([]engine.Term, 0, len(e.patterns))
	for _, p := range e.patterns {
		ws := make([]engine.Term, len(p))
		for i, w := range p {
			if w.slot != "" {
				ws[i] = engine.Compound("slot", engine.String(w.slot))
			} else {
				ws[i] = engine.Compound("w", engine.String(w.word))
			}
		}
		ps = append(ps, engine.List(ws...))
	}
	return engine.Compound("cand", engine.String(name), engine.List(ps...), engine.Int(int64(score)))
}

// utteranceTerm is utterance(Tokens, [shapes(Shapes),
// function_words(Words), slot_kinds(Kinds)]) (rules/intent/requests.pl):
// the function words are those among the tokens and the candidates'
// phrasing words; Kinds are kind(Intent, Slot, text|name|any), one per
// string slot of the candidates.
func (r *Router) utteranceTerm(u utterance, cands []Candidate) engine.Term {
	var fw []string
	var kinds []engine.Term
	for _, c := range cands {
		for _, s := range r.intents[c.Intent].Slots {
			if s.Type == TypeString {
				k := s.Kind
				if k == "" {
					k = KindText
				}
				kinds = append(kinds, engine.Compound("kind", engine.String(c.Intent), engine.String(s.Name), engine.Atom(string(k))))
			}
		}
	}
	add := func(w string) {
		if functionWord(w) && !slices.Contains(fw, w) {
			fw = append(fw, w)
		}
	}
	for _, t := range u.toks {
		add(t)
	}
	for _, c := range cands {
		for _, p := range r.intents[c.Intent].patterns {
			for _, w := range p {
				add(w.word)
			}
		}
	}
	shapes := make([]engine.Term, len(u.shapes))
	for i, s := range u.shapes {
		shapes[i] = engine.Atom(s)
	}
	return engine.Compound("utterance", engine.Strings(u.toks),
		engine.List(engine.Compound("shapes", engine.List(shapes...)), engine.Compound("function_words", engine.Strings(fw)),
			engine.Compound("slot_kinds", engine.List(kinds...))))
}

// functionWord reports whether a token is an English function word
// (stopwords.Function), a contraction of one ("it's", "i'd") or a
// negated auxiliary ("don't").
func functionWord(w string) bool {
	if w == "" {
		return false
	}
	if stopwords.Function(w) || strings.HasSuffix(w, "n't") {
		return true
	}
	stem, _, ok := strings.Cut(w, "'")
	return ok && stopwords.Function(stem)
}

func badResolution(v any, why string) error {
	return fmt.Errorf("intent: resolve/3 returned %s: %s", engine.FormatValue(v), why)
}

func decodeResolution(v any) (*resolution, error) {
	c, ok := v.(engine.CompoundValue)
	if !ok {
		return nil, badResolution(v, "not a result term")
	}
	out := &resolution{kind: c.Functor}
	var err error
	switch {
	case c.Functor == "accept" && len(c.Args) == 3:
		if out.intent, ok = engine.Text(c.Args[0]); !ok {
			return nil, badResolution(v, "the intent must be a string")
		}
		out.args = map[string][]string{}
		as, _ := c.Args[1].([]any)
		for _, a := range as {
			ac, ok := a.(engine.CompoundValue)
			if !ok || ac.Functor != "arg" || len(ac.Args) != 2 {
				return nil, badResolution(v, "args must be arg(Slot, Words)")
			}
			name, ok1 := engine.Text(ac.Args[0])
			ws, ok2 := texts(ac.Args[1])
			if !ok1 || !ok2 {
				return nil, badResolution(v, "arg(Slot, Words) takes a string and a list of strings")
			}
			out.args[name] = ws
		}
		out.evidence, err = becauses(c.Args[2])
	case c.Functor == "clarify" && len(c.Args) == 3:
		if out.intents, ok = texts(c.Args[1]); !ok {
			return nil, badResolution(v, "the intents must be strings")
		}
		q, _ := c.Args[0].(engine.CompoundValue)
		switch {
		case (q.Functor == "which" || q.Functor == "no_object") && len(q.Args) == 1:
			out.question = q.Functor
		case q.Functor == "several_requests" && len(q.Args) == 2:
			out.question = q.Functor
			if out.request, ok = texts(q.Args[1]); !ok {
				return nil, badResolution(v, "several_requests(Intents, Words) takes a list of strings")
			}
		default:
			return nil, badResolution(v, "the question must be which(Is), no_object(Is) or several_requests(Is, Words)")
		}
		out.evidence, err = becauses(c.Args[2])
	case (c.Functor == "reject" || c.Functor == "fallback_chat") && len(c.Args) == 2:
		a, ok := c.Args[0].(engine.AtomValue)
		if !ok {
			return nil, badResolution(v, "the reason must be an atom")
		}
		out.reason = string(a)
		out.evidence, err = becauses(c.Args[1])
	case c.Functor == "repair" && len(c.Args) == 2:
		if out.intents, ok = texts(c.Args[0]); !ok {
			return nil, badResolution(v, "the intents must be strings")
		}
		out.evidence, err = becauses(c.Args[1])
	default:
		return nil, badResolution(v, "not one of accept/3, clarify/3, reject/2, fallback_chat/2, repair/2")
	}
	if err != nil {
		return nil, badResolution(v, err.Error())
	}
	return out, nil
}

func texts(v any) ([]string, bool) {
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, e := range l {
		t, ok := engine.Text(e)
		if !ok {
			return nil, false
		}
		out = append(out, t)
	}
	return out, true
}

func becauses(v any) ([]Because, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("evidence must be a list")
	}
	var out []Because
	for _, e := range l {
		c, ok := e.(engine.CompoundValue)
		if !ok || c.Functor != "because" || len(c.Args) != 2 {
			return nil, fmt.Errorf("evidence must be because(RuleID, Premises)")
		}
		rule, ok := c.Args[0].(engine.AtomValue)
		if !ok {
			return nil, fmt.Errorf("a rule ID must be an atom")
		}
		b := Because{Rule: string(rule), Premises: []string{}}
		ps, _ := c.Args[1].([]any)
		for _, p := range ps {
			b.Premises = append(b.Premises, engine.FormatValue(p))
		}
		out = append(out, b)
	}
	return out, nil
}
