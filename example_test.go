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
	// step graph(callers, "Fetch", resolved) -> ev_edges_found
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
	// if symbol_not_found("Server"): exact("Server", near-spelling) (fb_near_spelling)
	// if symbol_not_found("Server"): lexical("Server") (fb_fuzzy_name)
}

// A host compiles a prompt-unit catalog for one task: the rules choose the
// units the model sees and say why; packing keeps them within the token
// budget. docs/prompt-compiler.md shows this example (a test keeps the two
// the same).
func ExampleLoadCatalog() {
	ctx := context.Background()
	cat, err := rlm.LoadCatalog(ctx, "examples/catalog/catalog.yaml", "gpt-4o") // the file's units, plus the built-in retrieve and recurse tools
	if err != nil {
		log.Fatal(err)
	}
	defer cat.Release()           // the host owns the catalog
	c, err := rlm.NewCompiler("") // the embedded rules; or a directory whose prompt/ folder is layered over them
	if err != nil {
		log.Fatal(err)
	}
	out, err := c.Compile(ctx, cat, rlm.CompileInput{
		Text:         "review the diff of my staged changes before I commit",
		Capabilities: []string{"git.read"},
	}, rlm.CompileOptions{Budget: 4000, Model: "gpt-4o"})
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range out.Active { // out.Rejected: every other candidate, with its rule too
		fmt.Println("active:", d.ID, d.Because.Rule)
	}
	for _, t := range out.Tools { // the tool channel; out.Text is the compiled part of the system prompt
		fmt.Println("tool:", t.Name)
	}
	fmt.Println("within budget:", out.Ledger.Total <= out.Ledger.Budget, "fingerprint:", len(out.Fingerprint), "hex digits")
	// Output:
	// active: answer_style sel_always
	// active: cite_sources sel_always
	// active: code_review sel_relevant
	// active: review_checklist_v2 cl_suggested
	// active: retrieve sel_always
	// active: git_diff sel_relevant
	// tool: retrieve
	// tool: git_diff
	// within budget: true fingerprint: 16 hex digits
}
