package prompt_test

import (
	"context"
	"fmt"

	"github.com/rlm-dev/rlm/prompt"
)

// A host compiles the example catalog for a git review: the rules show
// git_diff and the review skill (which requires it), not the search tools,
// and explain a unit that stays out.
func ExampleCompiler_Compile() {
	ctx := context.Background()
	cat, err := prompt.LoadCatalog(ctx, "../examples/catalog/catalog.yaml", prompt.CatalogOptions{Model: "gpt-4o"})
	if err != nil {
		panic(err)
	}
	defer cat.Release() // the host owns the catalog
	c, err := prompt.NewCompiler(prompt.CompilerOptions{})
	if err != nil {
		panic(err)
	}
	in := prompt.Input{Text: "review the diff of my staged changes before I commit", Capabilities: []string{"git.read", "fs.read"}}
	out, err := c.Compile(ctx, cat, in, prompt.Options{Budget: 2000})
	if err != nil {
		panic(err)
	}
	for _, d := range out.Active {
		fmt.Println("active:", d.ID, d.Because.Rule)
	}
	for _, t := range out.Tools {
		fmt.Println("tool channel:", t.Name)
	}
	why, err := c.Why(ctx, cat, in, prompt.Options{Budget: 2000}, "project_search")
	if err != nil {
		panic(err)
	}
	fmt.Println("project_search:", why.Active, why.Because.Rule, why.Because.Premises)
	// Output:
	// active: answer_style sel_always
	// active: cite_sources sel_always
	// active: code_review sel_relevant
	// active: review_checklist_v2 cl_suggested
	// active: git_diff sel_relevant
	// tool channel: git_diff
	// project_search: false sel_not_relevant [no_lexical_match]
}
