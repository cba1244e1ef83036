package tools_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rlm-dev/rlm/tools"
)

// A host registers a binding once, then runs the model's calls through an
// Executor with the names the model was shown this turn.
func ExampleExecutor() {
	reg := tools.NewRegistry()
	err := reg.Register(tools.Tool{
		Name:        "word_count",
		Description: "Count the words of a text.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","maxLength":1000}},"required":["text"],"additionalProperties":false}`),
		SideEffect:  tools.SideEffectNone,
		Handler: func(_ context.Context, args json.RawMessage) (any, error) {
			var a struct{ Text string }
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			n := 0
			for i, inWord := 0, false; i < len(a.Text); i++ {
				space := a.Text[i] == ' '
				if !space && !inWord {
					n++
				}
				inWord = !space
			}
			return map[string]int{"words": n}, nil
		},
	})
	if err != nil {
		panic(err)
	}
	ex := &tools.Executor{Registry: reg}
	shown := []string{"word_count"}
	for _, call := range []tools.Call{
		{ID: "1", Name: "word_count", Arguments: `{"text":"seeing a tool grants nothing"}`},
		{ID: "2", Name: "word_count", Arguments: `{"text":"x","shell":"; rm -rf /"}`},
		{ID: "3", Name: "call(halt)", Arguments: `{}`},
	} {
		out := ex.Execute(context.Background(), call, shown)
		fmt.Println(out.CallID, out.OK, out.Content)
	}
	// Output:
	// 1 true {"words":5}
	// 2 false {"error":{"kind":"invalid_arguments","message":"arguments do not match the schema of word_count at root: unexpected additional properties [\"shell\"]"}}
	// 3 false {"error":{"kind":"unknown_tool","message":"no tool is named \"call(halt)\" (names match ^[A-Za-z0-9_-]{1,64}$)"}}
}
