package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/internal/plsyntax"
	"github.com/rlm-dev/rlm/internal/textclip"

	pl "github.com/ichiban/prolog/engine"
)

// Binding is one variable of a top-level query and its value, written as
// writeq/1 would.
type Binding struct {
	Name  string
	Value string
}

// MaxQueryTextBytes bounds the text accepted by QueryText.
const MaxQueryTextBytes = 64 << 10

// QueryText runs one query typed by the operator at a top level (the REPL).
// This is the only API that parses text, and it is meant for a person at a
// terminal, never for model output: the text is parsed as a query against
// the sandbox, so it can reach only the sandbox's builtins and the rules.
// yield is called per solution with the bindings of the query's named
// variables; returning false stops. It returns the number of solutions.
func (e *Engine) QueryText(ctx context.Context, text string, yield func([]Binding) bool) (int, error) {
	ctx, cancel := e.withDeadline(ctx)
	defer cancel()
	if len(text) > MaxQueryTextBytes {
		return 0, fmt.Errorf("engine: query over %d bytes", MaxQueryTextBytes)
	}
	vm, err := e.get()
	if err != nil {
		return 0, err
	}
	text = strings.TrimSpace(text)
	if !strings.HasSuffix(text, ".") {
		text += "."
	}
	t, vars, err := plsyntax.ReadQuery(vm, text)
	if err != nil {
		e.put(vm)
		var se *plsyntax.SyntaxError
		if errors.As(err, &se) {
			return 0, fmt.Errorf("engine: %w at column %d", err, utf8.RuneCountInString(text[:min(se.Offset, len(text))])+1)
		}
		return 0, fmt.Errorf("engine: %w", err)
	}
	n := 0
	bctx := withBudget(ctx, e.opts.Inferences)
	_, err, abandoned := force(ctx, func() (bool, error) {
		return pl.Call(vm, t, func(env *pl.Env) *pl.Promise {
			n++
			var bs []Binding
			for _, v := range vars {
				name := v.Name.String()
				if strings.HasPrefix(name, "_") {
					continue
				}
				bs = append(bs, Binding{Name: name, Value: textclip.Clip(FormatTerm(vm, v.Variable, env), 100_000)})
			}
			return pl.Bool(!yield(bs))
		}, nil).Force(bctx)
	})
	if abandoned {
		return n, &QueryError{Goal: "query", Inferences: bctx.used(), Err: ctx.Err()}
	}
	e.put(vm)
	if err != nil {
		return n, e.queryError(vm, "query", bctx, err)
	}
	return n, nil
}
