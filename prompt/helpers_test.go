package prompt

import (
	"context"
	"slices"
	"testing"
)

const exampleCatalog = "../examples/catalog/catalog.yaml"

// gitReview is the regression matrix's git-review task.
const gitReview = "review the diff of my staged changes before I commit"

func newCompiler(t testing.TB) *Compiler {
	t.Helper()
	c, err := NewCompiler(CompilerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func loadExample(t testing.TB) *Catalog {
	t.Helper()
	cat, err := LoadCatalog(context.Background(), exampleCatalog, CatalogOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Release() })
	return cat
}

func compile(t testing.TB, c *Compiler, cat *Catalog, in Input, opts Options) *Compiled {
	t.Helper()
	out, err := c.Compile(context.Background(), cat, in, opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ids returns the ids of ds.
func ids(ds []Decision) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.ID
	}
	return out
}

func toolNames(ts []ToolSchema) []string {
	out := make([]string, len(ts))
	for i, s := range ts {
		out[i] = s.Name
	}
	return out
}

func decisionOf(ds []Decision, id string) (Decision, bool) {
	i := slices.IndexFunc(ds, func(d Decision) bool { return d.ID == id })
	if i < 0 {
		return Decision{}, false
	}
	return ds[i], true
}
