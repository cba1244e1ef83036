package intent

import (
	"context"
	"fmt"

	"github.com/rlm-dev/rlm/engine"
)

// resolution is the resolver's answer, decoded by shape.
type resolution struct {
	kind     string // accept, clarify, reject, fallback_chat, repair
	intent   string
	args     map[string][]string
	intents  []string
	reason   string
	evidence []Because
}

// resolve asks resolve/3 (rules/intent/resolve.pl) over the candidates.
// Words, intent names and slot names reach the rules only as strings.
func (r *Router) resolve(ctx context.Context, toks []string, cands []Candidate) (*resolution, error) {
	cs := make([]engine.Term, 0, len(cands))
	for _, c := range cands {
		e := r.intents[c.Intent]
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
		cs = append(cs, engine.Compound("cand", engine.String(c.Intent), engine.List(ps...), engine.Int(int64(c.Score))))
	}
	sol, err := r.eng.Once(ctx, "resolve", engine.Compound("utterance", engine.Strings(toks)), engine.List(cs...), engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("intent: resolve: %w", err)
	}
	return decodeResolution(sol[2])
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
