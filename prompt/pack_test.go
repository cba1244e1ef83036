package prompt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func schema(props ...string) json.RawMessage {
	var ps []string
	for _, p := range props {
		ps = append(ps, fmt.Sprintf("%q: {\"type\": \"string\", \"description\": \"the %s to use for this call\"}", p, p))
	}
	return json.RawMessage(`{"type": "object", "properties": {` + strings.Join(ps, ", ") + `}}`)
}

// packCatalog: core is mandatory; alpha and beta are relevant tools
// (alpha packs first); gamma requires delta, which packs first but is
// large.
func packCatalog(t *testing.T) *Catalog {
	t.Helper()
	units := []Unit{
		{ID: "core", Kind: KindInstruction, Title: "Core rules", Body: "Always answer in English and cite sources.", Activation: ActivationAlways, Mandatory: true},
		{ID: "core_helper", Kind: KindResource, Title: "Core glossary", Body: "A glossary the core rules rely on.", Activation: ActivationRelevant},
		{ID: "alpha", Kind: KindTool, Description: "alpha tool", Keywords: []string{"alpha"}, Priority: 5, Schema: schema("a")},
		{ID: "beta", Kind: KindTool, Description: "beta tool", Keywords: []string{"beta"}, Priority: 1, Schema: schema("b", "c", "d")},
		{ID: "delta", Kind: KindTool, Description: "delta tool", Keywords: []string{"delta"}, Priority: 9, Schema: schema("e", "f", "g", "h", "i", "j", "k", "l")},
		{ID: "gamma", Kind: KindTool, Description: "gamma tool", Keywords: []string{"gamma"}, Requires: []string{"delta"}, Schema: schema("m")},
	}
	cat, err := NewCatalog(context.Background(), units, CatalogOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Release() })
	return cat
}

// TestBudgetPackingNeverSilentlyDropsAMandatoryUnit: a budget the
// mandatory units (and what they require) cannot fit in is an error
// naming them; a budget they just fit in keeps them and packs others out.
func TestBudgetPackingNeverSilentlyDropsAMandatoryUnit(t *testing.T) {
	c, cat := newCompiler(t), packCatalog(t)
	in := Input{Text: "alpha beta"}
	full := compile(t, c, cat, in, Options{})
	mandatoryOnly := compile(t, c, cat, Input{Text: "nothing else"}, Options{})
	need := mandatoryOnly.Ledger.Total
	_, err := c.Compile(context.Background(), cat, in, Options{Budget: need - 1})
	var be *BudgetError
	if !errors.As(err, &be) || !errors.Is(err, ErrBudget) {
		t.Fatalf("budget %d under the mandatory %d: want a BudgetError, got %v", need-1, need, err)
	}
	if be.Budget != need-1 || be.Need != need || len(be.Units) != 1 || be.Units[0].ID != "core" || be.Units[0].Tokens != full.Ledger.Units["core"] {
		t.Errorf("BudgetError %+v (want core, %d tokens, need %d)", be, full.Ledger.Units["core"], need)
	}
	out := compile(t, c, cat, in, Options{Budget: need})
	if diff := ids(out.Active); !slices.Equal(diff, []string{"core"}) || len(out.Tools) != 0 || out.Ledger.Total > need {
		t.Errorf("budget %d: active %v, tools %v, ledger %+v", need, ids(out.Active), toolNames(out.Tools), out.Ledger)
	}
	for _, id := range []string{"alpha", "beta"} {
		if d, ok := decisionOf(out.Rejected, id); !ok || d.Because.Rule != "pk_over_budget" {
			t.Errorf("%s: %+v", id, d)
		}
	}

	// What a mandatory unit requires is mandatory too.
	units := cat.Units()
	units[0].Requires = []string{"core_helper"}
	cat2, err := NewCatalog(context.Background(), units, CatalogOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	defer cat2.Release()
	_, err = c.Compile(context.Background(), cat2, in, Options{Budget: need})
	if !errors.As(err, &be) || len(be.Units) != 2 || !slices.Contains([]string{be.Units[0].ID, be.Units[1].ID}, "core_helper") {
		t.Fatalf("want core and core_helper in the BudgetError, got %v", err)
	}
}

// TestOptionalToolSelectedThenPackedOutIsNotInTools: beta is selected, but
// the budget leaves no room for it: it is rejected by packing and not sent.
func TestOptionalToolSelectedThenPackedOutIsNotInTools(t *testing.T) {
	c, cat := newCompiler(t), packCatalog(t)
	in := Input{Text: "alpha beta"}
	full := compile(t, c, cat, in, Options{})
	if !slices.Equal(toolNames(full.Tools), []string{"alpha", "beta"}) {
		t.Fatalf("without a budget both are sent: %v", toolNames(full.Tools))
	}
	out := compile(t, c, cat, in, Options{Budget: full.Ledger.Total - 1})
	if slices.Contains(toolNames(out.Tools), "beta") || !slices.Contains(toolNames(out.Tools), "alpha") {
		t.Fatalf("tools sent: %v", toolNames(out.Tools))
	}
	d, ok := decisionOf(out.Rejected, "beta")
	if !ok || d.Because.Rule != "pk_over_budget" || d.Active {
		t.Errorf("beta: %+v", d)
	}
	if out.Ledger.Total > out.Ledger.Budget {
		t.Errorf("ledger %+v over its budget", out.Ledger)
	}
}

// TestPackedOutDependencyRemovesItsDependents: delta (packed first) does
// not fit; gamma, which requires it, goes out with it.
func TestPackedOutDependencyRemovesItsDependents(t *testing.T) {
	c, cat := newCompiler(t), packCatalog(t)
	in := Input{Text: "gamma"}
	full := compile(t, c, cat, in, Options{})
	if !slices.Contains(toolNames(full.Tools), "delta") || !slices.Contains(toolNames(full.Tools), "gamma") {
		t.Fatalf("gamma brings delta: %v", toolNames(full.Tools))
	}
	budget := full.Ledger.Total - full.Ledger.Units["delta"] + 1
	out := compile(t, c, cat, in, Options{Budget: budget})
	if len(out.Tools) != 0 {
		t.Fatalf("budget %d: tools %v", budget, toolNames(out.Tools))
	}
	if d, _ := decisionOf(out.Rejected, "delta"); d.Because.Rule != "pk_over_budget" {
		t.Errorf("delta: %+v", d)
	}
	d, _ := decisionOf(out.Rejected, "gamma")
	if d.Because.Rule != "pk_dependency_packed_out" || !slices.Contains(d.Because.Premises, `requires("delta")`) {
		t.Errorf("gamma: %+v", d)
	}
}

// TestLedgerCountsExactlyWhatIsSent: the ledger is the tokenizer's count
// of Text and of each schema as serialised, whatever the unit texts hold.
func TestLedgerCountsExactlyWhatIsSent(t *testing.T) {
	c := newCompiler(t)
	bodies := []string{
		"plain words", "ends with punctuation!)", "ends with digits 12345", "  leading spaces\n", "trailing spaces and tabs \t \r\n",
		"### a fake heading\n## another", "ünïcödé text — with dashes…", "line\r\nbreaks\r\n\r\n", "'s 're contractions'll",
		"<|endoftext|> special", strings.Repeat("long ", 500), "\u00a0nbsp\u2028line sep\u0085", "emoji 🙂🙂", "x",
	}
	var units []Unit
	for i, b := range bodies {
		units = append(units, Unit{ID: fmt.Sprintf("u%d", i), Kind: kindOrder[i%4], Title: fmt.Sprintf("Title %d: ‹%s›", i, strings.Fields(b + " x")[0]), Body: b, Activation: ActivationAlways})
	}
	units = append(units, Unit{ID: "tool_a", Kind: KindTool, Description: "a <b> & \"c\"", Schema: schema("x", "y"), Activation: ActivationAlways},
		Unit{ID: "tool_b", Kind: KindMCPTool, Title: "B", Schema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","maximum":1e3}}}`), Activation: ActivationAlways})
	for _, model := range []string{"gpt-4o", "gpt-4"} {
		cat, err := NewCatalog(context.Background(), units, CatalogOptions{Model: model})
		if err != nil {
			t.Fatal(err)
		}
		for _, compileModel := range []string{"", "gpt-5", "gpt-3.5-turbo"} {
			out := compile(t, c, cat, Input{}, Options{Model: compileModel})
			enc := cat.Encoding()
			if compileModel != "" {
				enc = EncodingFor(compileModel)
			}
			text, _ := countTokens(enc, out.Text)
			tools := 0
			for _, ts := range out.Tools {
				b, _ := json.Marshal(ts)
				n, _ := countTokens(enc, string(b))
				tools += n
			}
			if out.Ledger.Text != text || out.Ledger.Tools != tools || out.Ledger.Total != text+tools || out.Encoding != enc {
				t.Errorf("catalog %s, compile %q: ledger %+v, counted text %d tools %d (%s)", model, compileModel, out.Ledger, text, tools, enc)
			}
			if len(out.Active) != len(units) {
				t.Errorf("%d of %d units active", len(out.Active), len(units))
			}
		}
		cat.Release()
	}
}

// TestEncodingIsChosenByModel
func TestEncodingIsChosenByModel(t *testing.T) {
	for model, want := range map[string]Encoding{
		"gpt-4o": O200kBase, "gpt-4o-mini": O200kBase, "openai/gpt-4.1": O200kBase, "gpt-5": O200kBase, "gpt-5.1": O200kBase,
		"o1": O200kBase, "o3-mini": O200kBase, "o4-mini": O200kBase, "GPT-4O": O200kBase, "gpt-oss-120b": O200kBase,
		"gpt-4": Cl100kBase, "gpt-4-turbo": Cl100kBase, "gpt-3.5-turbo": Cl100kBase, "": Cl100kBase, "llama-3": Cl100kBase, "o10": Cl100kBase,
	} {
		if got := EncodingFor(model); got != want {
			t.Errorf("%q: %s, want %s", model, got, want)
		}
	}
	a, _ := countTokens(O200kBase, "supercalifragilistic expialidocious")
	b, _ := countTokens(Cl100kBase, "supercalifragilistic expialidocious")
	if a == 0 || b == 0 {
		t.Fatal("no tokens counted")
	}
}

// TestPackedOutUnitLeavesNoRequirementBehind: migration is wanted and
// brings what it requires (helper) and suggests (tips); both pack before
// it, then migration does not fit. Helper and tips were in the prompt
// only for migration, so they go with it, naming it; shared stays (an
// active unit still requires it), and so do glossary (mandatory) and
// rollback (always wanted, on its own).
func TestPackedOutUnitLeavesNoRequirementBehind(t *testing.T) {
	c := newCompiler(t)
	body := func(words int) string { return strings.Repeat("lorem ipsum dolor ", words) }
	units := []Unit{
		{ID: "migration", Kind: KindSkill, Keywords: []string{"migration", "schema"}, Body: body(200),
			Requires: []string{"helper", "shared", "glossary", "rollback"}, Suggests: []string{"tips"}},
		{ID: "rollback", Kind: KindSkill, Body: "Undo a migration.", Requires: []string{"shared"}, Activation: ActivationAlways, Priority: 5},
		{ID: "helper", Kind: KindResource, Title: "Helper", Body: "Helper text.", Priority: 9},
		{ID: "tips", Kind: KindResource, Title: "Tips", Body: "Tips text.", Priority: 8},
		{ID: "shared", Kind: KindResource, Title: "Shared", Body: "Shared text.", Priority: 7},
		{ID: "glossary", Kind: KindResource, Title: "Glossary", Body: "Glossary text.", Mandatory: true},
	}
	cat, err := NewCatalog(context.Background(), units, CatalogOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Release()
	in := Input{Text: "plan the schema migration"}
	full := compile(t, c, cat, in, Options{})
	if got := ids(full.Active); len(got) != len(units) {
		t.Fatalf("without a budget every unit is active: %v", got)
	}
	out := compile(t, c, cat, in, Options{Budget: full.Ledger.Total - 1})
	sorted := func(xs []string) []string { slices.Sort(xs); return xs }
	if diff := cmp.Diff([]string{"glossary", "rollback", "shared"}, sorted(ids(out.Active))); diff != "" {
		t.Errorf("active (-want +got):\n%s", diff)
	}
	want := map[string]Because{
		"migration": {Rule: "pk_over_budget"},
		"helper":    {Rule: "pk_requirer_packed_out", Premises: []string{`packed_out("migration")`}},
		"tips":      {Rule: "pk_requirer_packed_out", Premises: []string{`packed_out("migration")`}},
	}
	if len(out.Rejected) != len(want) {
		t.Errorf("rejected %v, want %d units", ids(out.Rejected), len(want))
	}
	for id, w := range want {
		d, ok := decisionOf(out.Rejected, id)
		if !ok || d.Active || d.Because.Rule != w.Rule || w.Premises != nil && !slices.Equal(d.Because.Premises, w.Premises) {
			t.Errorf("%s: %+v, want %+v", id, d, w)
		}
	}
	if strings.Contains(out.Text, "Helper text.") || strings.Contains(out.Text, "Tips text.") || out.Ledger.Total > out.Ledger.Budget {
		t.Errorf("left-behind units are still sent (ledger %+v):\n%s", out.Ledger, out.Text)
	}
}
