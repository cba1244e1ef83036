package prompt

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTokenCountMemoFollowsTheText: a memoised token count is the
// tokenizer's count of that very text in that very encoding: a text of the
// same length with other bytes, or the same text in the other encoding, is
// counted afresh.
func TestTokenCountMemoFollowsTheText(t *testing.T) {
	a := strings.Repeat("aaaa", 40)                  // few tokens
	b := strings.Repeat("a b ", 40)                  // same length, many more
	c := strings.Repeat("Привет мир, как дела? ", 8) // counted differently by the two encodings
	if len(a) != len(b) {
		t.Fatal("the two texts must have the same length")
	}
	for _, enc := range []Encoding{O200kBase, Cl100kBase} {
		for _, s := range []string{a, b, c, a, b, c} { // the second round comes from the memo
			want, err := countTokensNow(enc, s)
			if err != nil {
				t.Fatal(err)
			}
			got, err := countTokens(enc, s)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s %.20q...: memo %d, tokenizer %d", enc, s, got, want)
			}
		}
	}
	na, _ := countTokensNow(O200kBase, a)
	nb, _ := countTokensNow(O200kBase, b)
	co, _ := countTokensNow(O200kBase, c)
	cc, _ := countTokensNow(Cl100kBase, c)
	if na == nb || co == cc {
		t.Errorf("the texts do not tell the keys apart: %d/%d, %d/%d", na, nb, co, cc)
	}
}

// TestSchemaCheckMemoRefusesAChangedSchema: a tool schema accepted once is
// not checked again, but a schema differing in any byte is: an invalid
// one is refused however often a valid one like it was accepted.
func TestSchemaCheckMemoRefusesAChangedSchema(t *testing.T) {
	tool := func(schema string) []Unit {
		return []Unit{{ID: "t", Kind: KindTool, Title: "t", Description: "a tool", Schema: json.RawMessage(schema)}}
	}
	good := `{"type":"object","properties":{"n":{"type":"integer","minimum":0}}}`
	bad := `{"type":"object","properties":{"n":{"type":"integer","minimum":"0"}}}`
	for i := range 2 {
		cat, err := NewCatalog(context.Background(), tool(good), CatalogOptions{})
		if err != nil {
			t.Fatalf("round %d: the valid schema: %v", i, err)
		}
		cat.Release()
		_, err = NewCatalog(context.Background(), tool(bad), CatalogOptions{})
		var ce *CatalogError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "schema") {
			t.Errorf("round %d: the invalid schema gave %v, want a *CatalogError about the schema", i, err)
		}
	}
}

// TestCatalogIndexImageFollowsTheUnits: a small catalog built again from
// the same units opens a copy of the first one's candidate index, which
// ranks as the first does; a catalog whose units differ in a description
// is indexed afresh and finds the new words.
func TestCatalogIndexImageFollowsTheUnits(t *testing.T) {
	ctx := context.Background()
	units := []Unit{
		{ID: "git_diff_img", Kind: KindInstruction, Title: "diff", Description: "shows the staged diff", Body: "b"},
		{ID: "search_img", Kind: KindInstruction, Title: "search", Description: "searches the code base", Body: "b"},
	}
	build := func(us []Unit) *Catalog {
		cat, err := NewCatalog(ctx, us, CatalogOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cat.Release() })
		return cat
	}
	ranking := func(cat *Catalog, q string) []lexHit {
		hits, err := cat.lexical(ctx, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	first := build(units)
	opened := indexImages.opened()
	again := build(units)
	if indexImages.opened() != opened+1 {
		t.Errorf("the same units did not open the kept image (%d -> %d)", opened, indexImages.opened())
	}
	for _, q := range []string{"staged diff", "search the code", "diff code"} {
		if diff := cmp.Diff(ranking(first, q), ranking(again, q), cmp.AllowUnexported(lexHit{})); diff != "" {
			t.Errorf("%q: the copy ranks differently (-built +copy):\n%s", q, diff)
		}
	}
	changed := slices.Clone(units)
	changed[1].Description = "searches the zebra herd"
	other := build(changed)
	if got := ranking(other, "zebra"); len(got) != 1 || got[0].unit != 1 {
		t.Errorf("the changed catalog's index does not find its new words: %+v", got)
	}
	if got := ranking(first, "zebra"); len(got) != 0 {
		t.Errorf("the first catalog's index changed: %+v", got)
	}
}
