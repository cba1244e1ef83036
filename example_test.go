package rlm_test

import (
	"context"
	"fmt"
	"log"

	"github.com/rlm-dev/rlm"
)

// Open a tree, ask where a name is defined and what calls it, and see
// which rule made each decision.
func ExampleOpen() {
	ctx := context.Background()
	p, err := rlm.Open(ctx, "testdata/gosample", rlm.Options{InMemory: true})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()

	ans, err := p.Search(ctx, "what calls Fetch?", 10)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("class:", ans.Class)
	for _, h := range ans.Hits {
		fmt.Printf("%s:%d %s (%s)\n", h.Path, h.StartLine, h.Qualified, h.Strategy)
	}
	for _, s := range ans.Plan {
		fmt.Printf("step %s -> %s\n", s.Step, s.Because[0].Rule)
	}
	// Output:
	// class: relationship
	// sub/client.go:11 Retry (graph)
	// step exact("Fetch") -> ev_target_exists
	// step graph(callers, "Fetch") -> ev_edges_found
}

// Explain shows the plan search would run, and the fallbacks the rules
// hold in reserve for each gap, without searching.
func ExampleNewPlanner() {
	pl, err := rlm.NewPlanner(rlm.Options{})
	if err != nil {
		log.Fatal(err)
	}
	e, err := pl.Explain(context.Background(), "where is Server defined?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.Class, e.Because[0].Rule)
	for _, s := range e.Steps {
		fmt.Println("step", s)
	}
	for _, c := range e.Contingencies {
		fmt.Printf("if %s: %s (%s)\n", c.Gap, c.Fallback[0], c.Because.Rule)
	}
	// Output:
	// identifier cls_definition_cue
	// step exact("Server")
	// if symbol_not_found("Server"): exact("Server", case-insensitive) (fb_case_insensitive)
	// if symbol_not_found("Server"): lexical("Server") (fb_fuzzy_name)
}
