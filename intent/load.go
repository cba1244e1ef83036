package intent

import (
	"context"
	"fmt"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/tools"
)

// readIntents reads the intent/4 and phrasing/2 facts of the rule files.
func (r *Router) readIntents(ctx context.Context) ([]Intent, error) {
	sol, err := r.eng.Once(ctx, "intents", engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("intent: reading intents: %w", err)
	}
	is, _ := sol[0].([]any)
	byName := map[string]int{}
	var out []Intent
	for _, v := range is {
		in, err := decodeIntent(v)
		if err != nil {
			return nil, err
		}
		in.Source = "rules"
		byName[in.Name] = len(out)
		out = append(out, in)
	}
	sol, err = r.eng.Once(ctx, "phrasings", engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("intent: reading phrasings: %w", err)
	}
	ps, _ := sol[0].([]any)
	for _, v := range ps {
		c, ok := v.(engine.CompoundValue)
		if !ok || c.Functor != "phrasing" || len(c.Args) != 2 {
			return nil, &IntentError{Reason: "bad phrasing fact " + engine.FormatValue(v)}
		}
		name, ok1 := atomText(c.Args[0])
		text, ok2 := engine.Text(c.Args[1])
		i, known := byName[name]
		if !ok1 || !ok2 {
			return nil, &IntentError{Intent: name, Reason: "phrasing(Name, \"words with {slot} places\") expected, got " + engine.FormatValue(v)}
		}
		if !known {
			return nil, &IntentError{Intent: name, Source: "rules", Reason: "a phrasing names an intent no intent/4 fact defines"}
		}
		out[i].Phrasings = append(out[i].Phrasings, text)
	}
	return out, nil
}

func atomText(v any) (string, bool) {
	a, ok := v.(engine.AtomValue)
	return string(a), ok
}

// decodeIntent reads intent(Name, Description, Slots, Policy).
func decodeIntent(v any) (Intent, error) {
	bad := func(name, format string, args ...any) (Intent, error) {
		return Intent{}, &IntentError{Intent: name, Source: "rules", Reason: fmt.Sprintf(format, args...)}
	}
	c, ok := v.(engine.CompoundValue)
	if !ok || c.Functor != "intent" || len(c.Args) != 4 {
		return bad("", "intent(Name, Description, Slots, Policy) expected, got %s", engine.FormatValue(v))
	}
	name, ok := atomText(c.Args[0])
	if !ok {
		return bad(engine.FormatValue(c.Args[0]), "the name must be an atom")
	}
	in := Intent{Name: name}
	if in.Description, ok = engine.Text(c.Args[1]); !ok {
		return bad(name, "the description must be a string")
	}
	slots, ok := c.Args[2].([]any)
	if !ok {
		return bad(name, "the slots must be a list")
	}
	for _, sv := range slots {
		sc, ok := sv.(engine.CompoundValue)
		if !ok || sc.Functor != "slot" || len(sc.Args) != 4 && len(sc.Args) != 5 {
			return bad(name, "slot(Name, Type, required|optional, Description[, Constraints]) expected, got %s", engine.FormatValue(sv))
		}
		s := Slot{}
		var need string
		s.Name, _ = atomText(sc.Args[0])
		need, _ = atomText(sc.Args[2])
		s.Description, _ = engine.Text(sc.Args[3])
		if t, ok := atomText(sc.Args[1]); ok {
			s.Type = SlotType(t)
		} else if tc, ok := sc.Args[1].(engine.CompoundValue); ok && tc.Functor == "enum" && len(tc.Args) == 1 {
			s.Type = TypeEnum
			vals, _ := tc.Args[0].([]any)
			for _, ev := range vals {
				t, ok := engine.Text(ev)
				if !ok {
					return bad(name, "slot %s: enum values must be strings", s.Name)
				}
				s.Enum = append(s.Enum, t)
			}
		} else {
			return bad(name, "slot %s: bad type %s", s.Name, engine.FormatValue(sc.Args[1]))
		}
		switch need {
		case "required":
			s.Required = true
		case "optional":
		default:
			return bad(name, "slot %s: need must be required or optional", s.Name)
		}
		if len(sc.Args) == 5 {
			if err := decodeConstraints(&s, sc.Args[4]); err != nil {
				return bad(name, "slot %s: %v", s.Name, err)
			}
		}
		in.Slots = append(in.Slots, s)
	}
	pol, ok := c.Args[3].([]any)
	if !ok {
		return bad(name, "the policy must be a list")
	}
	for _, pv := range pol {
		pc, ok := pv.(engine.CompoundValue)
		if !ok || len(pc.Args) != 1 {
			return bad(name, "policy entry %s: want capabilities([...]) or side_effect(E)", engine.FormatValue(pv))
		}
		switch pc.Functor {
		case "capabilities":
			caps, _ := pc.Args[0].([]any)
			for _, cv := range caps {
				t, ok := engine.Text(cv)
				if !ok {
					return bad(name, "capabilities must be atoms or strings")
				}
				in.Capabilities = append(in.Capabilities, t)
			}
		case "side_effect":
			t, _ := atomText(pc.Args[0])
			in.SideEffect = tools.SideEffect(t)
		default:
			return bad(name, "policy entry %s: want capabilities([...]) or side_effect(E)", engine.FormatValue(pv))
		}
	}
	return in, nil
}

// decodeConstraints reads a slot's constraint list: min(N), max(N),
// max_length(N), pattern("RE2"), kind(text|name|any).
func decodeConstraints(s *Slot, v any) error {
	cs, ok := v.([]any)
	if !ok {
		return fmt.Errorf("the constraints must be a list, got %s", engine.FormatValue(v))
	}
	for _, cv := range cs {
		c, ok := cv.(engine.CompoundValue)
		if !ok || len(c.Args) != 1 {
			return fmt.Errorf("constraint %s: want min(N), max(N), max_length(N), pattern(\"RE2\") or kind(K)", engine.FormatValue(cv))
		}
		arg := c.Args[0]
		switch c.Functor {
		case "min", "max":
			var f float64
			switch n := arg.(type) {
			case int64:
				f = float64(n)
			case float64:
				f = n
			default:
				return fmt.Errorf("%s(N): N must be a number, got %s", c.Functor, engine.FormatValue(arg))
			}
			if c.Functor == "min" {
				s.Min = &f
			} else {
				s.Max = &f
			}
		case "max_length":
			n, ok := arg.(int64)
			if !ok || n < 1 || n > MaxMaxLength {
				return fmt.Errorf("max_length(N): N must be an integer 1..%d, got %s", MaxMaxLength, engine.FormatValue(arg))
			}
			s.MaxLength = int(n)
		case "pattern":
			t, ok := engine.Text(arg)
			if !ok {
				return fmt.Errorf("pattern(\"RE2\"): want a string, got %s", engine.FormatValue(arg))
			}
			s.Pattern = t
		case "kind":
			k, ok := atomText(arg)
			if !ok {
				return fmt.Errorf("kind(K): K must be an atom, got %s", engine.FormatValue(arg))
			}
			s.Kind = TextKind(k)
		default:
			return fmt.Errorf("constraint %s: want min(N), max(N), max_length(N), pattern(\"RE2\") or kind(K)", engine.FormatValue(cv))
		}
	}
	return nil
}

// readValidation maps each validation check to its rule ID (validate.pl).
func (r *Router) readValidation(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	for _, check := range []string{"passed", "unknown_intent", "bad_slot", "bad_arguments", "capability_denied",
		"side_effect_denied", "bad_model_output", "unknown_value"} {
		sol, err := r.eng.Once(ctx, "validation", engine.Atom(check), engine.List(), engine.NewVar())
		if err != nil {
			return nil, fmt.Errorf("intent: validation/3 for %s: %w", check, err)
		}
		c, ok := sol[2].(engine.CompoundValue)
		rule, ok2 := "", false
		if ok && c.Functor == "because" && len(c.Args) == 2 {
			rule, ok2 = atomText(c.Args[0])
		}
		if !ok2 {
			return nil, fmt.Errorf("intent: validation/3 for %s gave %s, want because(RuleID, _)", check, engine.FormatValue(sol[2]))
		}
		out[check] = rule
	}
	return out, nil
}

// readSynonyms maps each word of synonym/2 (resolve.pl) to its canonical
// words.
func (r *Router) readSynonyms(ctx context.Context) (map[string][]string, error) {
	sol, err := r.eng.Once(ctx, "synonyms", engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("intent: reading synonyms: %w", err)
	}
	out := map[string][]string{}
	ps, _ := sol[0].([]any)
	for _, v := range ps {
		c, ok := v.(engine.CompoundValue)
		if !ok || c.Functor != "-" || len(c.Args) != 2 {
			return nil, fmt.Errorf("intent: synonyms/1 gave %s, want Word-Canonical", engine.FormatValue(v))
		}
		w, ok1 := engine.Text(c.Args[0])
		canon, ok2 := engine.Text(c.Args[1])
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("intent: synonym(%s): want two strings", engine.FormatValue(v))
		}
		out[w] = append(out[w], canon)
	}
	return out, nil
}

// readFillers reads the filler/1 words (resolve.pl, fillers/1).
func (r *Router) readFillers(ctx context.Context) (map[string]bool, error) {
	sol, err := r.eng.Once(ctx, "fillers", engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("intent: reading fillers: %w", err)
	}
	ws, ok := texts(sol[0])
	if !ok {
		return nil, fmt.Errorf("intent: fillers/1 gave %s, want a list of strings", engine.FormatValue(sol[0]))
	}
	out := map[string]bool{}
	for _, w := range ws {
		out[w] = true
	}
	return out, nil
}
