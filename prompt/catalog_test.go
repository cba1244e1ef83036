package prompt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/tools"
)

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	return filepath.Join(testfixture.WriteTree(t, map[string]string{name: text}), name)
}

const goodTool = `  - id: git_diff
    kind: tool
    description: show a diff
    schema: {type: object}
`

// TestCatalogFileErrorsNameFileAndLine: every kind of catalog file error is
// reported as PATH:LINE of the offending field, with what is wrong.
func TestCatalogFileErrorsNameFileAndLine(t *testing.T) {
	for _, tc := range []struct {
		name, file, text string
		line             int
		reason           string
	}{
		{"unknown field", "c.yaml", "units:\n" + goodTool + "    colour: blue\n", 6, `unknown field "colour"`},
		{"duplicate id", "c.yaml", "units:\n" + goodTool + goodTool, 6, "duplicate id (first at"},
		{"unknown kind", "c.yaml", "units:\n  - id: x\n    kind: widget\n    body: hi\n", 3, `unknown kind "widget"`},
		{"dangling requires", "c.yaml", "units:\n  - id: x\n    kind: skill\n    body: hi\n    requires: [nope]\n", 5, `requires "nope": no such unit`},
		{"bad schema", "c.yaml", "units:\n  - id: t\n    kind: tool\n    description: d\n    schema:\n      type: array\n", 6, `"type": "object"`},
		{"invalid JSON Schema", "c.yaml", "units:\n  - id: t\n    kind: tool\n    description: d\n    schema: {type: object, properties: {a: {type: 7}}}\n", 5, "schema:"},
		{"missing body", "c.yaml", "units:\n  - id: s\n    kind: skill\n", 2, "needs a body"},
		{"wrong type", "c.yaml", "units:\n  - id: s\n    kind: skill\n    body: b\n    priority: high\n", 5, `priority: want a whole number, got "high"`},
		{"syntax error", "c.yaml", "units:\n  - id: s\n    kind: skill: x\n", 3, "mapping values are not allowed"},
		{"unknown version", "c.yaml", "version: 7\nunits: []\n", 1, "version 7"},
		{"JSON unknown field", "c.json", "{\"units\": [\n  {\"id\": \"s\", \"kind\": \"skill\", \"body\": \"b\",\n   \"colour\": 1}\n]}\n", 3, `unknown field "colour"`},
		{"JSON dangling suggests", "c.json", "{\"units\": [\n\t{\"id\": \"s\", \"kind\": \"skill\", \"body\": \"b\",\n\t \"suggests\": [\"zz\"]}\n]}\n", 3, `suggests "zz"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.file, tc.text)
			_, err := LoadCatalog(context.Background(), path, CatalogOptions{})
			var ce *CatalogError
			if !errors.As(err, &ce) || !errors.Is(err, ErrCatalog) {
				t.Fatalf("want a CatalogError, got %v", err)
			}
			want := fmt.Sprintf("%s:%d", path, tc.line)
			found := false
			for _, p := range ce.Problems {
				if p.Source == want && strings.Contains(p.Reason, tc.reason) {
					found = true
				}
			}
			if !found || ce.Path != path || !strings.Contains(err.Error(), want+": ") {
				t.Errorf("want a problem at %s saying %q, got:\n%v", want, tc.reason, err)
			}
		})
	}
}

// TestCatalogErrorListsEveryInvalidUnit: one load reports all problems,
// not the first.
func TestCatalogErrorListsEveryInvalidUnit(t *testing.T) {
	path := writeFile(t, "c.yaml", "units:\n  - id: a\n    kind: nope\n  - id: b c\n    kind: skill\n    body: x\n  - id: t\n    kind: tool\n    description: d\n    body: not for tools\n    schema: {type: object}\n")
	_, err := LoadCatalog(context.Background(), path, CatalogOptions{})
	var ce *CatalogError
	if !errors.As(err, &ce) {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ce.Problems {
		got = append(got, fmt.Sprintf("%s %s", strings.TrimPrefix(p.Source, path), p.Field))
	}
	want := []string{":3 kind", ":4 id", ":10 body"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s\n%v", diff, err)
	}
}

// TestNewCatalogRefusesInvalidUnits: the unit rules of NewCatalog, each
// with the field it concerns.
func TestNewCatalogRefusesInvalidUnits(t *testing.T) {
	obj := json.RawMessage(`{"type":"object"}`)
	for _, tc := range []struct {
		name  string
		unit  Unit
		field string
	}{
		{"tool id with a space", Unit{ID: "git diff", Kind: KindTool, Description: "d", Schema: obj}, "id"},
		{"tool id too long", Unit{ID: strings.Repeat("x", 65), Kind: KindTool, Description: "d", Schema: obj}, "id"},
		{"empty id", Unit{Kind: KindSkill, Body: "b"}, "id"},
		{"tool without schema", Unit{ID: "t", Kind: KindTool, Description: "d"}, "schema"},
		{"tool schema not JSON", Unit{ID: "t", Kind: KindTool, Description: "d", Schema: json.RawMessage(`{type: object}`)}, "schema"},
		{"tool schema of a string", Unit{ID: "t", Kind: KindTool, Description: "d", Schema: json.RawMessage(`{"type":"string"}`)}, "schema"},
		{"tool with a body", Unit{ID: "t", Kind: KindTool, Description: "d", Schema: obj, Body: "b"}, "body"},
		{"tool without description", Unit{ID: "t", Kind: KindTool, Schema: obj}, "description"},
		{"instruction with a schema", Unit{ID: "i", Kind: KindInstruction, Body: "b", Schema: obj}, "schema"},
		{"blank body", Unit{ID: "i", Kind: KindInstruction, Body: " \n"}, "body"},
		{"title with a newline", Unit{ID: "i", Kind: KindInstruction, Body: "b", Title: "a\nb"}, "title"},
		{"body too long", Unit{ID: "i", Kind: KindInstruction, Body: strings.Repeat("b", MaxBodyBytes+1)}, "body"},
		{"invalid UTF-8", Unit{ID: "i", Kind: KindInstruction, Body: "\xff"}, "body"},
		{"unknown activation", Unit{ID: "i", Kind: KindInstruction, Body: "b", Activation: "sometimes"}, "activation"},
		{"empty keyword", Unit{ID: "i", Kind: KindInstruction, Body: "b", Keywords: []string{""}}, "keywords"},
		{"requires itself", Unit{ID: "i", Kind: KindInstruction, Body: "b", Requires: []string{"i"}}, "requires"},
		{"conflicts with nothing", Unit{ID: "i", Kind: KindInstruction, Body: "b", Conflicts: []string{"ghost"}}, "conflicts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.unit.Source = "here"
			_, err := NewCatalog(context.Background(), []Unit{tc.unit}, CatalogOptions{})
			var ce *CatalogError
			if !errors.As(err, &ce) || len(ce.Problems) == 0 || ce.Problems[0].Field != tc.field || ce.Problems[0].Source != "here" {
				t.Fatalf("want a problem with %s at here, got %v", tc.field, err)
			}
		})
	}
	cat, err := NewCatalog(context.Background(), []Unit{{ID: "ok", Kind: KindTool, Description: "d", Schema: json.RawMessage(` { "type" : "object", "properties": {"b": {"type":"string"}, "a": {"type": "number", "maximum": 1.50}} } `)}}, CatalogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Release()
	u, _ := cat.Lookup("ok")
	if string(u.Schema) != `{"properties":{"a":{"maximum":1.50,"type":"number"},"b":{"type":"string"}},"type":"object"}` || u.Activation != ActivationRelevant {
		t.Errorf("schema not canonical or activation not defaulted: %s %q", u.Schema, u.Activation)
	}
}

// TestReleaseIsIdempotentAndFreesTheIndex
func TestReleaseIsIdempotentAndFreesTheIndex(t *testing.T) {
	c := newCompiler(t)
	cat, err := LoadCatalog(context.Background(), exampleCatalog, CatalogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cat.Released() {
		t.Fatal("a new catalog is released")
	}
	for i := 0; i < 2; i++ {
		if err := cat.Release(); err != nil {
			t.Fatalf("release %d: %v", i+1, err)
		}
	}
	if !cat.Released() {
		t.Fatal("not released")
	}
	if _, err := c.Compile(context.Background(), cat, Input{Text: gitReview}, Options{}); !errors.Is(err, ErrReleased) {
		t.Errorf("compile after release: %v", err)
	}
	if _, err := c.Why(context.Background(), cat, Input{Text: gitReview}, Options{}, "git_diff"); !errors.Is(err, ErrReleased) {
		t.Errorf("why after release: %v", err)
	}
	if _, ok := cat.Lookup("git_diff"); !ok || len(cat.Units()) != cat.Len() || cat.Len() < 20 {
		t.Errorf("the units are gone after release")
	}
}

// TestUnitsFromToolsMakeAnEphemeralCatalog: a registry's specs become
// relevant tool units that compile like any others.
func TestUnitsFromToolsMakeAnEphemeralCatalog(t *testing.T) {
	specs := []ToolSpec{
		{Name: "retrieve", Description: "Find evidence in the code base for an information need.", Schema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`)},
		{Name: "write_file", Description: "Write a file.", Schema: json.RawMessage(`{"type":"object"}`), Capabilities: []string{"fs.write"}},
	}
	units := UnitsFromTools(specs)
	if units[0].Kind != KindTool || units[0].Activation != ActivationRelevant || units[0].Source != "registry" || units[1].Capabilities[0] != "fs.write" {
		t.Fatalf("units %+v", units)
	}
	specs[1].Capabilities[0] = "changed"
	if units[1].Capabilities[0] != "fs.write" {
		t.Fatal("the units share the specs' slices")
	}
	cat, err := NewCatalog(context.Background(), units, CatalogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Release()
	out := compile(t, newCompiler(t), cat, Input{Text: "retrieve the evidence for how requests are routed"}, Options{})
	if !slices.Equal(toolNames(out.Tools), []string{"retrieve"}) {
		t.Errorf("tools %v", toolNames(out.Tools))
	}
}

// TestJSONAndYAMLCatalogsAreTheSame: one format, read by one library.
func TestJSONAndYAMLCatalogsAreTheSame(t *testing.T) {
	y := writeFile(t, "c.yaml", "units:\n  - id: s\n    kind: skill\n    body: text\n    keywords: [a, b]\n    priority: 3\n  - id: t\n    kind: tool\n    description: d\n    requires: [s]\n    schema:\n      type: object\n      properties: {n: {type: integer}}\n")
	j := writeFile(t, "c.json", `{"units": [{"id": "s", "kind": "skill", "body": "text", "keywords": ["a", "b"], "priority": 3},
	{"id": "t", "kind": "tool", "description": "d", "requires": ["s"], "schema": {"type": "object", "properties": {"n": {"type": "integer"}}}}]}`)
	var got [2][]Unit
	for i, p := range []string{y, j} {
		cat, err := LoadCatalog(context.Background(), p, CatalogOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got[i] = cat.Units()
		for k := range got[i] {
			got[i][k].Source = ""
		}
		cat.Release()
	}
	if diff := cmp.Diff(got[0], got[1]); diff != "" {
		t.Errorf("(-yaml +json):\n%s", diff)
	}
}

// TestSingularAndPluralFindEachOther: a task that names a thing in the
// plural finds a unit that names it in the singular, and back.
func TestSingularAndPluralFindEachOther(t *testing.T) {
	c := newCompiler(t)
	units := []Unit{
		{ID: "crm_list", Kind: KindTool, Description: "List the sales leads.", Keywords: []string{"deal", "opportunity"}, Schema: json.RawMessage(`{"type":"object"}`)},
		{ID: "tickets_list", Kind: KindTool, Description: "List the support entries of a queue.", Schema: json.RawMessage(`{"type":"object"}`)},
		{ID: "weather_get", Kind: KindTool, Description: "The forecast for a city.", Schema: json.RawMessage(`{"type":"object"}`)},
	}
	cat, err := NewCatalog(context.Background(), units, CatalogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Release()
	for q, want := range map[string]string{"which deals are open?": "crm_list", "show the newest support entry": "tickets_list"} {
		out := compile(t, c, cat, Input{Text: q}, Options{})
		if !slices.Contains(toolNames(out.Tools), want) {
			t.Errorf("%q: shown %v, want %s", q, toolNames(out.Tools), want)
		}
	}
	for w, other := range map[string]string{"deals": " deal", "entry": " entries", "classes": " class", "boxes": " box", "ServeHTTP": "", "ab": ""} {
		if got := otherNumberForms(w); !strings.HasPrefix(got, other) || other == "" && got != "" {
			t.Errorf("otherNumberForms(%q) = %q, want %q", w, got, other)
		}
	}
}

// TestCatalogAndRegistryAgreeOnSchemas: a tool schema the registry refuses
// (not JSON Schema, a type that does not exist, a bad pattern, a non-object
// root) the catalog refuses too, and one accepts what the other accepts.
func TestCatalogAndRegistryAgreeOnSchemas(t *testing.T) {
	for _, schema := range []string{
		`{"type":"object","properties":{"x":{"type":"strin"}}}`,
		`{"type":"object","properties":{"x":{"type":"string","pattern":"("}}}`,
		`{"type":"object","properties":{"x":{"$ref":"#/nowhere"}}}`,
		`{"type":"array"}`,
		`{"type":"object","properties":{"x":{"type":"string","minLength":-1}}}`,
		`{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}`,
	} {
		cat, catErr := NewCatalog(context.Background(), []Unit{{ID: "t", Kind: KindTool, Description: "d", Schema: json.RawMessage(schema)}}, CatalogOptions{})
		if cat != nil {
			cat.Release()
		}
		regErr := tools.NewRegistry().Register(tools.Tool{Name: "t", Schema: json.RawMessage(schema), SideEffect: tools.SideEffectNone,
			Handler: func(context.Context, json.RawMessage) (any, error) { return nil, nil }})
		if (catErr == nil) != (regErr == nil) {
			t.Errorf("%s: catalog %v, registry %v", schema, catErr, regErr)
		}
	}
}

// TestReservedIDPrefixIsRefusedInCatalogs: no catalog unit — from a file,
// from NewCatalog's units or from its Extra units — may take an id with
// ReservedPrefix; the error names the file line or the unit index. Per-call
// context units, the harness's own path, may.
func TestReservedIDPrefixIsRefusedInCatalogs(t *testing.T) {
	ctx := context.Background()
	skill := func(id string) Unit { return Unit{ID: id, Kind: KindSkill, Body: "b"} }
	path := writeFile(t, "c.yaml", "units:\n  - id: ok\n    kind: skill\n    body: b\n  - kind: skill\n    body: b\n    id: rlm:evidence:1\n")
	for _, tc := range []struct {
		name, source string
		load         func() (*Catalog, error)
	}{
		{"catalog file", path + ":7", func() (*Catalog, error) { return LoadCatalog(ctx, path, CatalogOptions{}) }},
		{"units", "units[1]", func() (*Catalog, error) {
			return NewCatalog(ctx, []Unit{skill("ok"), skill(ReservedPrefix + "facts")}, CatalogOptions{})
		}},
		{"extra units", "units[1]", func() (*Catalog, error) {
			return NewCatalog(ctx, []Unit{skill("ok")}, CatalogOptions{Extra: []Unit{skill(ReservedPrefix + "intent:x")}})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, err := tc.load()
			if cat != nil {
				cat.Release()
			}
			var ce *CatalogError
			if !errors.As(err, &ce) || !errors.Is(err, ErrReservedID) || !errors.Is(err, ErrCatalog) || len(ce.Problems) != 1 {
				t.Fatalf("want one reserved-id problem, got %v", err)
			}
			if p := ce.Problems[0]; p.Source != tc.source || p.Field != "id" || !strings.Contains(p.Reason, `"rlm:" is reserved`) {
				t.Errorf("problem %+v, want it at %s on the id", p, tc.source)
			}
		})
	}
	cat, err := NewCatalog(ctx, []Unit{skill("ok")}, CatalogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Release()
	ev := Unit{ID: ReservedPrefix + "evidence:1", Kind: KindContext, Body: "func main() {}", Activation: ActivationAlways}
	out := compile(t, newCompiler(t), cat, Input{Text: "x", Context: []Unit{ev}}, Options{})
	if _, ok := decisionOf(out.Active, ev.ID); !ok {
		t.Errorf("a per-call unit with the reserved prefix is not active: %v", ids(out.Active))
	}
}

// TestUnitsFromToolsNeverFailOnADescription: a registry tool without a
// description gets one derived from its name, and one over the catalog's
// limit is clipped to it, so the ephemeral catalog always builds.
func TestUnitsFromToolsNeverFailOnADescription(t *testing.T) {
	long := strings.Repeat("describes the tool at length. ", 100<<10/30) + "é"
	specs := []ToolSpec{
		{Name: "empty_desc", Schema: json.RawMessage(`{"type":"object"}`)},
		{Name: "blank_desc", Description: " \n\t", Schema: json.RawMessage(`{"type":"object"}`)},
		{Name: "long_desc", Description: long, Schema: json.RawMessage(`{"type":"object"}`)},
	}
	units := UnitsFromTools(specs)
	cat, err := NewCatalog(context.Background(), units, CatalogOptions{})
	if err != nil {
		t.Fatalf("the ephemeral catalog does not build: %v", err)
	}
	defer cat.Release()
	for _, name := range []string{"empty_desc", "blank_desc"} {
		if u, _ := cat.Lookup(name); u.Description != "tool "+name {
			t.Errorf("%s: description %q, want %q", name, u.Description, "tool "+name)
		}
	}
	u, _ := cat.Lookup("long_desc")
	kept := strings.TrimSuffix(u.Description, textclip.Ellipsis)
	if len(u.Description) > MaxDescriptionBytes || len(kept) < MaxDescriptionBytes-8 || !strings.HasPrefix(long, kept) || kept == u.Description {
		t.Errorf("long description: %d bytes, want it clipped to %d and marked", len(u.Description), MaxDescriptionBytes)
	}
}

// TestExtraToolUnitsGiveTheirSchemaToACatalogToolOfTheSameID: a catalog
// that redescribes a built-in tool keeps its own description and
// activation, but the schema sent is the built-in's (the one its calls
// are checked against).
func TestExtraToolUnitsGiveTheirSchemaToACatalogToolOfTheSameID(t *testing.T) {
	ctx := context.Background()
	builtin := Unit{ID: "retrieve", Kind: KindTool, Description: "built-in", Schema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`)}
	mine := Unit{ID: "retrieve", Kind: KindTool, Description: "search our monorepo", Activation: ActivationRelevant,
		Schema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}
	cat, err := NewCatalog(ctx, []Unit{mine}, CatalogOptions{Extra: []Unit{builtin}})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Release()
	got, ok := cat.Lookup("retrieve")
	if !ok || cat.Len() != 1 {
		t.Fatalf("catalog has %d units, retrieve %v", cat.Len(), ok)
	}
	want, _ := canonicalSchema(builtin.Schema)
	if string(got.Schema) != string(want) || got.Description != "search our monorepo" || got.Activation != ActivationRelevant {
		t.Errorf("got schema %s, description %q, activation %q; want the built-in's schema and the catalog's text", got.Schema, got.Description, got.Activation)
	}
}

// TestACatalogUnitCannotHideAnExtraUnitOfAnotherKind: a catalog unit whose
// id an Extra unit (a built-in tool) has, of a tool kind when the other is
// not or the reverse, would hide it — the model could never call the
// built-in — so the catalog is refused, naming the unit, its source and
// the field, instead of dropping either silently.
func TestACatalogUnitCannotHideAnExtraUnitOfAnotherKind(t *testing.T) {
	ctx := context.Background()
	builtinTool := Unit{ID: "retrieve", Kind: KindTool, Source: "loop", Schema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}}}`)}
	builtinNote := Unit{ID: "house_style", Kind: KindInstruction, Source: "host", Body: "answer in English"}
	for _, tc := range []struct {
		name  string
		unit  Unit
		extra Unit
	}{
		{"an instruction named like a built-in tool", Unit{ID: "retrieve", Kind: KindInstruction, Body: "use retrieve sparingly", Source: "cat.yaml:3"}, builtinTool},
		{"a skill named like a built-in tool", Unit{ID: "retrieve", Kind: KindSkill, Body: "how to retrieve", Source: "cat.yaml:9"}, builtinTool},
		{"a tool named like an extra instruction", Unit{ID: "house_style", Kind: KindTool, Source: "cat.yaml:14", Description: "style check",
			Schema: json.RawMessage(`{"type":"object"}`)}, builtinNote},
	} {
		t.Run(tc.name, func(t *testing.T) {
			other := Unit{ID: "other", Kind: KindSkill, Body: "b"}
			cat, err := NewCatalog(ctx, []Unit{other, tc.unit}, CatalogOptions{Extra: []Unit{tc.extra}})
			if err == nil {
				cat.Release()
				t.Fatalf("the catalog was built: %q (%s) hides the extra %s unit", tc.unit.ID, tc.unit.Kind, tc.extra.Kind)
			}
			var ce *CatalogError
			if !errors.As(err, &ce) || len(ce.Problems) != 1 {
				t.Fatalf("error %v, want a *CatalogError with one problem", err)
			}
			p := ce.Problems[0]
			if p.Source != tc.unit.Source || p.ID != tc.unit.ID || p.Field != "kind" || !strings.Contains(p.Reason, tc.extra.Source) {
				t.Errorf("problem %+v, want source %q, id %q, field kind and a reason naming %q", p, tc.unit.Source, tc.unit.ID, tc.extra.Source)
			}
		})
	}
}
