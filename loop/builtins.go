package loop

import (
	"context"
	"encoding/json"

	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/tools"
)

// The built-in tools' names.
const (
	ToolRetrieve = "retrieve"
	ToolRecurse  = "recurse"
)

// Limits of the built-in tools' arguments.
const (
	MaxRetrieveQueryBytes = 4096
	MaxRetrieveLimit      = 20
	MaxRecurseQuestion    = 4096
)

var retrieveSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"query":{"type":"string","minLength":1,"maxLength":4096,"description":"the information need, in words: a name (where is X defined), a relation (what calls X), or a description"},` +
	`"limit":{"type":"integer","minimum":1,"maximum":20,"description":"most hits to return (default and most: the host's evidence limit, 6 unless set)"}},` +
	`"required":["query"],"additionalProperties":false}`)

var recurseSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"question":{"type":"string","minLength":1,"maxLength":4096,"description":"a self-contained sub-question"}},` +
	`"required":["question"],"additionalProperties":false}`)

const (
	retrieveDescription = "Find evidence in the source tree: the retrieval planner picks exact, graph, BM25 or hybrid search for the need and returns the matching definitions with their code, read from the current files."
	recurseDescription  = "Answer a self-contained sub-question with a fresh, smaller budget (its own retrieval and tools); returns the sub-answer and its citations."
)

// BuiltinUnits are the prompt units of the built-in tools, for a host that
// builds its own catalog and wants them visible: retrieve is always wanted,
// recurse when the task calls for it.
func BuiltinUnits() []prompt.Unit {
	return []prompt.Unit{
		{ID: ToolRetrieve, Kind: prompt.KindTool, Title: "retrieve evidence", Description: retrieveDescription,
			Keywords: []string{"find", "search", "where", "code", "definition", "callers"}, Schema: retrieveSchema,
			Activation: prompt.ActivationAlways, Priority: 10, Source: "loop"},
		{ID: ToolRecurse, Kind: prompt.KindTool, Title: "answer a sub-question", Description: recurseDescription,
			Keywords: []string{"sub-question", "compare", "several", "each"}, Schema: recurseSchema,
			Activation: prompt.ActivationRelevant, Source: "loop"},
	}
}

// retrieveArgs are retrieve's arguments. Limit is decoded as a number:
// the schema's "integer" admits 1e1 and 2.0, which encoding/json would not
// decode into an int.
type retrieveArgs struct {
	Query string  `json:"query"`
	Limit float64 `json:"limit"`
}

type recurseArgs struct {
	Question string `json:"question"`
}

// builtinTools are the built-in tools' trusted bindings for a run. Their
// handlers find the call that made the tool call in the context
// (callFrom), so one registry serves every depth.
func (r *run) builtinTools() []tools.Tool {
	var out []tools.Tool
	if r.opts.Retriever != nil {
		out = append(out, tools.Tool{Name: ToolRetrieve, Description: retrieveDescription, Schema: retrieveSchema,
			SideEffect: tools.SideEffectRead, Handler: handleRetrieve})
	}
	out = append(out, tools.Tool{Name: ToolRecurse, Description: recurseDescription, Schema: recurseSchema,
		SideEffect: tools.SideEffectNone, Timeout: r.limits.Wall, Handler: handleRecurse})
	return out
}

type callKey struct{}

// callFrom returns the call a tool call came from.
func callFrom(ctx context.Context) (*call, error) {
	c, ok := ctx.Value(callKey{}).(*call)
	if !ok {
		return nil, tools.ModelErrorf("this tool runs only inside a completion loop")
	}
	return c, nil
}

func handleRetrieve(ctx context.Context, raw json.RawMessage) (any, error) {
	c, err := callFrom(ctx)
	if err != nil {
		return nil, err
	}
	var a retrieveArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, tools.ModelErrorf("retrieve: %v", err)
	}
	limit := c.run.limits.Evidence
	if a.Limit >= 1 {
		limit = min(int(a.Limit), limit)
	}
	r, err := c.evidence(ctx, a.Query, limit)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		// The retriever's error may name host paths; the model gets a
		// fixed sentence, the host the cause (tools.CallError.Err).
		return nil, &tools.ModelError{Message: "retrieve: the search failed; try another query, or answer from the evidence you have and say what is missing", Err: err}
	}
	return r, nil
}

func handleRecurse(ctx context.Context, raw json.RawMessage) (any, error) {
	c, err := callFrom(ctx)
	if err != nil {
		return nil, err
	}
	var a recurseArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, tools.ModelErrorf("recurse: %v", err)
	}
	if c.run.limits.Depth < 0 || c.depth+1 > c.run.limits.Depth {
		return nil, tools.ModelErrorf("recurse: the depth limit (%d) is reached; answer with the evidence you have", c.run.limits.Depth)
	}
	sub := &call{run: c.run, depth: c.depth + 1, budget: c.budget.child()}
	res := sub.answer(ctx, a.Question)
	out := map[string]any{"answer": res.answer, "stop": res.stop}
	var cs []Citation
	for _, e := range res.given {
		cs = append(cs, Citation{Path: e.Path, StartLine: e.StartLine, EndLine: e.EndLine, Symbol: e.Symbol, ContentHash: e.ContentHash})
	}
	out["evidence"] = cs
	c.addGiven(res.given)
	return out, nil
}
