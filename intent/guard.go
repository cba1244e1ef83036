package intent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/rlm-dev/rlm/engine"
)

// guardVerdict is repair_guard/4's answer (rules/intent/guard.pl),
// decoded by shape: allow, or what the turn becomes instead.
type guardVerdict struct {
	allow    bool
	kind     Kind   // Clarify or Reject when refused
	reason   string // outside_candidates, injection, hostile_shape, ...
	evidence []Because
}

// guard asks repair_guard/4 whether the model's accept of name with args
// may stand: Go finds which values come from the utterance, which of its
// content words the intent and its values explain (only a word the user
// wrote as it is explains: a rewriter's correction is a guess) and which
// of the others another offered intent's words explain, and passes the
// intent's side effect; the rules decide.
func (r *Router) guard(ctx context.Context, u utterance, names []string, name string, args map[string]any) (*guardVerdict, error) {
	cs := make([]engine.Term, 0, len(names))
	cands := make([]Candidate, 0, len(names))
	for _, n := range names {
		cs = append(cs, r.candTerm(n, 0))
		cands = append(cands, Candidate{Intent: n})
	}
	var values []engine.Term
	used := map[string]bool{}
	e := r.intents[name]
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		g := "ungrounded"
		if e != nil {
			if i := slices.IndexFunc(e.Slots, func(s Slot) bool { return s.Name == k }); i >= 0 {
				if ws, ok := grounded(e.Slots[i], args[k], u.toks, r.synonyms); ok {
					g = "grounded"
					for _, w := range ws {
						used[w] = true
					}
				}
			}
		}
		values = append(values, engine.Compound("value", engine.String(k), engine.Atom(g)))
	}
	var explained, unexplained []string
	for _, t := range u.toks {
		if r.fillers[t] || functionWord(t) || slices.Contains(explained, t) || slices.Contains(unexplained, t) {
			continue
		}
		if u.typed[t] && (used[t] || e != nil && e.knows(t, r.synonyms)) {
			explained = append(explained, t)
		} else {
			unexplained = append(unexplained, t)
		}
	}
	var contested []engine.Term
	for _, t := range unexplained {
		var others []string
		for _, n := range names {
			if o := r.intents[n]; n != name && o != nil && o.knows(t, r.synonyms) {
				others = append(others, n)
			}
		}
		if len(others) > 0 {
			contested = append(contested, engine.Compound("contested", engine.String(t), engine.Strings(others)))
		}
	}
	effect := "none"
	if e != nil {
		effect = string(e.SideEffect)
	}
	accept := engine.Compound("accept", engine.String(name), engine.List(values...),
		engine.Compound("coverage", engine.Strings(explained), engine.Strings(unexplained), engine.List(contested...)),
		engine.Atom(effect))
	sol, err := r.eng.Once(ctx, "repair_guard", r.utteranceTerm(u, cands), engine.List(cs...), accept, engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("intent: repair_guard: %w", err)
	}
	return decodeGuard(sol[3])
}

func decodeGuard(v any) (*guardVerdict, error) {
	bad := func(why string) (*guardVerdict, error) {
		return nil, fmt.Errorf("intent: repair_guard/4 returned %s: %s", engine.FormatValue(v), why)
	}
	c, ok := v.(engine.CompoundValue)
	switch {
	case ok && c.Functor == "allow" && len(c.Args) == 1:
		ev, err := becauses(c.Args[0])
		if err != nil {
			return bad(err.Error())
		}
		return &guardVerdict{allow: true, evidence: ev}, nil
	case ok && c.Functor == "refuse" && len(c.Args) == 3:
		kind, ok1 := atomText(c.Args[0])
		reason, ok2 := atomText(c.Args[1])
		if !ok1 || !ok2 || kind != string(Clarify) && kind != string(Reject) {
			return bad("want refuse(clarify|reject, Reason, Evidence)")
		}
		ev, err := becauses(c.Args[2])
		if err != nil {
			return bad(err.Error())
		}
		return &guardVerdict{kind: Kind(kind), reason: reason, evidence: ev}, nil
	}
	return bad("not allow/1 or refuse/3")
}

// grounded reports whether v, a value of slot s, comes from the
// utterance's tokens, and the tokens it comes from: a string's words are
// among the tokens; an enum value is, or a token is a synonym of it; a
// number, duration or boolean is what a run of tokens says (ParseSlot).
func grounded(s Slot, v any, toks []string, syn map[string][]string) ([]string, bool) {
	switch s.Type {
	case TypeString, TypeEnum:
		text, ok := v.(string)
		ws := Tokens(text)
		if !ok || len(ws) == 0 {
			return nil, false
		}
		if !slices.ContainsFunc(ws, func(w string) bool { return !slices.Contains(toks, w) }) {
			return ws, true
		}
		if s.Type == TypeEnum {
			for _, t := range toks {
				if slices.Contains(syn[t], text) {
					return []string{t}, true
				}
			}
		}
		return nil, false
	}
	for i := range toks {
		for j := i + 1; j <= min(len(toks), i+6); j++ {
			if got, err := ParseSlot(s, toks[i:j]); err == nil && sameValue(got, v) {
				return toks[i:j], true
			}
		}
	}
	return nil, false
}

// sameValue reports whether two slot values are equal: numbers by value.
func sameValue(a, b any) bool {
	x, ok1 := number(a)
	y, ok2 := number(b)
	if ok1 && ok2 {
		return x == y
	}
	return !ok1 && !ok2 && a == b
}

// number is v as a float64 when it is a number.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// vocabulary is every word of the intent: its name's parts, description,
// slot names, descriptions and enum values, and phrasing words.
func (in Intent) vocabulary(patterns [][]patternWord) map[string]bool {
	out := map[string]bool{}
	add := func(text string) {
		for _, w := range Tokens(text) {
			out[w] = true
		}
	}
	add(strings.ReplaceAll(in.Name, "_", " "))
	add(in.Description)
	for _, s := range in.Slots {
		add(strings.ReplaceAll(s.Name, "_", " ") + " " + s.Description + " " + strings.Join(s.Enum, " "))
	}
	for _, p := range patterns {
		for _, w := range p {
			out[w.word] = true
		}
	}
	delete(out, "")
	return out
}

// knows reports whether token t is a word of the intent: itself, its
// singular or plural, or a synonym (synonym/2) of one of those.
func (e *entry) knows(t string, syn map[string][]string) bool {
	has := func(w string) bool {
		return e.vocab[w] || e.vocab[w+"s"] || len(w) > 3 && strings.HasSuffix(w, "s") && e.vocab[strings.TrimSuffix(w, "s")]
	}
	if has(t) {
		return true
	}
	return slices.ContainsFunc(syn[t], has)
}
