package rlm_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/providers"
)

// scriptedModel stands in for a chat endpoint (rlm.NewChatModel in a
// real host): its first answer asks for more evidence with the built-in
// retrieve tool, its second answers in prose and cites a line.
type scriptedModel struct{ calls int }

func (m *scriptedModel) Model() string { return "gpt-4o-mini" }

func (m *scriptedModel) Stream(_ context.Context, req providers.ChatRequest, onDelta func(providers.StreamDelta) error) (*providers.ChatResponse, error) {
	m.calls++
	var shown []string
	for _, t := range req.Tools {
		shown = append(shown, t.Name)
	}
	fmt.Printf("model call %d sees the tools %v\n", m.calls, shown)
	if m.calls == 1 {
		return &providers.ChatResponse{FinishReason: "tool_calls",
			ToolCalls: []providers.ToolCall{{ID: "call_1", Name: "retrieve", Arguments: `{"query":"where is Fetch defined?"}`}}}, nil
	}
	answer := "Fetch is defined at sub/client.go:6."
	if err := onDelta(providers.StreamDelta{Content: answer}); err != nil {
		return nil, err
	}
	return &providers.ChatResponse{Content: answer, FinishReason: "stop"}, nil
}

// A host asks a question about a code base: the retrieval planner finds
// evidence, the prompt compiler decides what the model sees, the model
// may call retrieve (each call validated before it runs), and the answer
// comes back with citations checked against the current bytes.
func ExampleProject_Ask() {
	ctx := context.Background()
	p, err := rlm.Open(ctx, "testdata/gosample", rlm.Options{InMemory: true})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()

	var streamed strings.Builder
	res, err := p.Ask(ctx, "where is Fetch defined?", rlm.AskOptions{
		Model:   &scriptedModel{}, // rlm.NewChatModel("https://api.openai.com/v1", "gpt-4o-mini", "OPENAI_API_KEY")
		Limits:  rlm.AskLimits{ModelCalls: 4},
		OnDelta: func(s string) { streamed.WriteString(s) },
	})
	if err != nil {
		log.Fatal(err) // a *loop.StopError: res.Stop says why (budget, deadline, provider_error, ...)
	}
	fmt.Println("stop:", res.Stop)
	fmt.Printf("answer: %s (streamed as it came: %v)\n", res.Answer, streamed.String() == res.Answer)
	for _, c := range res.Citations {
		if c.Cited {
			fmt.Printf("cited: %s:%d-%d current=%v\n", c.Path, c.StartLine, c.EndLine, c.Current)
		}
	}
	// Output:
	// model call 1 sees the tools [retrieve]
	// model call 2 sees the tools [retrieve]
	// stop: answered
	// answer: Fetch is defined at sub/client.go:6. (streamed as it came: true)
	// cited: sub/client.go:6-8 current=true
}
