package intent

import (
	"context"
	"fmt"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/internal/textclip"
)

// readCatalogs reads which slots take their values from a catalog of the
// host's (catalog/2, rules/intent/values.pl): intent → slot → true.
func (r *Router) readCatalogs(ctx context.Context) (map[string]map[string]bool, error) {
	sol, err := r.eng.Once(ctx, "catalogs", engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("intent: reading catalogs: %w", err)
	}
	out := map[string]map[string]bool{}
	ps, _ := sol[0].([]any)
	for _, v := range ps {
		c, ok := v.(engine.CompoundValue)
		if !ok || c.Functor != "-" || len(c.Args) != 2 {
			return nil, fmt.Errorf("intent: catalogs/1 gave %s, want Intent-Slot", engine.FormatValue(v))
		}
		in, ok1 := atomText(c.Args[0])
		slot, ok2 := atomText(c.Args[1])
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("intent: catalog(%s): want two atoms", engine.FormatValue(v))
		}
		if out[in] == nil {
			out[in] = map[string]bool{}
		}
		out[in][slot] = true
	}
	return out, nil
}

// knownValue asks whether v, the value of slot s of intent name, is one
// the host has: the rules' catalog (value_check/4) when the slot has one,
// then Options.CheckValue when set. It appends the decisions to res's
// evidence and reports false when either refused the value. The error is
// the rules' or the context's.
func (r *Router) knownValue(ctx context.Context, res *Result, name string, s Slot, v any) (bool, error) {
	if r.catalogs[name][s.Name] {
		sol, err := r.eng.Once(ctx, "value_check", engine.Atom(name), engine.Atom(s.Name), engine.Strings(Tokens(fmt.Sprint(v))), engine.NewVar())
		if err != nil {
			return false, fmt.Errorf("intent: value_check: %w", err)
		}
		c, ok := sol[3].(engine.CompoundValue)
		if !ok || len(c.Args) != 1 || c.Functor != "known" && c.Functor != "unknown" {
			if a, ok := sol[3].(engine.AtomValue); !ok || a != "unchecked" {
				return false, fmt.Errorf("intent: value_check/4 returned %s: want known(Evidence), unknown(Evidence) or unchecked", engine.FormatValue(sol[3]))
			}
		} else {
			ev, err := becauses(c.Args[0])
			if err != nil {
				return false, fmt.Errorf("intent: value_check/4 returned %s: %v", engine.FormatValue(sol[3]), err)
			}
			res.Evidence = append(res.Evidence, ev...)
			if c.Functor == "unknown" {
				return false, nil
			}
		}
	}
	if r.opts.CheckValue == nil {
		return true, nil
	}
	if err := r.opts.CheckValue(ctx, name, s.Name, v); err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		r.because(ctx, res, "unknown_value", []string{name, s.Name, textclip.Clean(err.Error(), 200)})
		return false, nil
	}
	return true, nil
}

// unknownQuestion asks for a slot's value again after the host did not
// know the one given.
func unknownQuestion(s Slot, v any) string {
	what := s.Name
	if s.Description != "" {
		what = s.Description
	}
	return fmt.Sprintf("I couldn't find %q (%s). What should it be?", textclip.Clean(fmt.Sprint(v), 80), what)
}
