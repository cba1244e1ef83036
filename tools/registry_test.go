package tools

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRegisterRefusesMalformedBindings(t *testing.T) {
	ok := (&recorder{}).handler()
	good := Tool{Name: "ok_tool", SideEffect: SideEffectRead, Handler: ok}
	with := func(f func(*Tool)) Tool { t := good; f(&t); return t }
	schema := func(s string) Tool { return with(func(t *Tool) { t.Schema = json.RawMessage(s) }) }
	cases := []struct {
		name string
		tool Tool
		want []error
	}{
		{"empty name", with(func(t *Tool) { t.Name = "" }), []error{ErrInvalidTool}},
		{"name with a space", with(func(t *Tool) { t.Name = "read file" }), []error{ErrInvalidTool}},
		{"name that is a Prolog goal", with(func(t *Tool) { t.Name = "call(halt)" }), []error{ErrInvalidTool}},
		{"name with a dot", with(func(t *Tool) { t.Name = "fs.read" }), []error{ErrInvalidTool}},
		{"name with non-ASCII letters", with(func(t *Tool) { t.Name = "lire_fichier_é" }), []error{ErrInvalidTool}},
		{"name of 65 bytes", with(func(t *Tool) { t.Name = strings.Repeat("a", 65) }), []error{ErrInvalidTool}},
		{"duplicate name", good, []error{ErrDuplicateTool}},
		{"nil handler", with(func(t *Tool) { t.Name = "h"; t.Handler = nil }), []error{ErrInvalidTool}},
		{"empty side effect", with(func(t *Tool) { t.Name = "s"; t.SideEffect = "" }), []error{ErrInvalidTool}},
		{"unknown side effect", with(func(t *Tool) { t.Name = "s"; t.SideEffect = "delete" }), []error{ErrInvalidTool}},
		{"empty capability", with(func(t *Tool) { t.Name = "c"; t.Capabilities = []string{"fs", ""} }), []error{ErrInvalidTool}},
		{"capability with a space", with(func(t *Tool) { t.Name = "c"; t.Capabilities = []string{"fs read"} }), []error{ErrInvalidTool}},
		{"negative timeout", with(func(t *Tool) { t.Name = "d"; t.Timeout = -time.Second }), []error{ErrInvalidTool}},
		{"schema not JSON", schema(`{"type":`), []error{ErrInvalidTool, ErrInvalidSchema}},
		{"schema with a duplicate key", schema(`{"type":"object","type":"string"}`), []error{ErrInvalidTool, ErrInvalidSchema}},
		{"schema with a bad regular expression", schema(`{"type":"object","properties":{"p":{"type":"string","pattern":"["}}}`), []error{ErrInvalidTool, ErrInvalidSchema}},
		{"schema with an unresolvable $ref", schema(`{"type":"object","properties":{"p":{"$ref":"#/$defs/missing"}}}`), []error{ErrInvalidTool, ErrInvalidSchema}},
		{"schema with a remote $ref", schema(`{"type":"object","properties":{"p":{"$ref":"https://example.com/s.json"}}}`), []error{ErrInvalidTool, ErrInvalidSchema}},
		{"schema with an unknown type", schema(`{"type":"object","properties":{"p":{"type":"strnig"}}}`), []error{ErrInvalidTool, ErrInvalidSchema}},
		{"schema with a negative minLength", schema(`{"type":"object","properties":{"p":{"type":"string","minLength":-1}}}`), []error{ErrInvalidTool, ErrInvalidSchema}},
		{"schema whose required is not a list", schema(`{"type":"object","required":"p"}`), []error{ErrInvalidTool, ErrInvalidSchema}},
		{"schema of another draft", schema(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`), []error{ErrInvalidTool, ErrInvalidSchema}},
		{"schema whose root is not an object", schema(`{"type":"string"}`), []error{ErrInvalidTool, ErrInvalidSchema}},
		{"schema true", schema(`true`), []error{ErrInvalidTool, ErrInvalidSchema}},
	}
	r := NewRegistry()
	mustRegister(t, r, good)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := r.Register(c.tool)
			if err == nil {
				t.Fatalf("Register accepted %+v", c.tool)
			}
			for _, w := range c.want {
				if !errors.Is(err, w) {
					t.Errorf("error %q does not match %v", err, w)
				}
			}
			if r.Len() != 1 {
				t.Errorf("registry holds %d tools after a refused Register, want 1", r.Len())
			}
			if got, _ := r.Lookup("ok_tool"); got.SideEffect != SideEffectRead {
				t.Errorf("the first binding changed: %+v", got)
			}
		})
	}
}

func TestRegisterAcceptsEveryWellFormedBinding(t *testing.T) {
	h := (&recorder{}).handler()
	cases := []Tool{
		{Name: strings.Repeat("a", 64), SideEffect: SideEffectNone, Handler: h},
		{Name: "A-z_0-9", SideEffect: SideEffectRead, Handler: h, Capabilities: []string{"fs:read", "net"}},
		{Name: "w", SideEffect: SideEffectWrite, Handler: h, Timeout: time.Millisecond},
		{Name: "x", SideEffect: SideEffectExternal, Handler: h,
			Schema: json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
				"properties":{"p":{"$ref":"#/$defs/path"},"n":{"type":["integer","null"]}},
				"$defs":{"path":{"type":"string","pattern":"^[a-z/]+$"}},"additionalProperties":false}`)},
	}
	r := NewRegistry()
	for _, tool := range cases {
		if err := r.Register(tool); err != nil {
			t.Errorf("Register(%s): %v", tool.Name, err)
		}
	}
	if r.Len() != len(cases) {
		t.Errorf("Len = %d, want %d", r.Len(), len(cases))
	}
}

func TestValidateSchemaAgreesWithRegister(t *testing.T) {
	for _, s := range []string{
		``, `{"type":"object"}`, `{"type":"object","properties":{"a":{"type":"integer","minimum":0}}}`,
		`{"type":"string"}`, `{"type":"object","properties":{"a":{"type":"strnig"}}}`, `{"type":"object",`,
		`{"type":"object","properties":{"a":{"pattern":"("}}}`, `[]`,
	} {
		err := ValidateSchema(json.RawMessage(s))
		rerr := NewRegistry().Register(Tool{Name: "t", SideEffect: SideEffectNone, Handler: (&recorder{}).handler(), Schema: json.RawMessage(s)})
		if (err == nil) != (rerr == nil) {
			t.Errorf("schema %s: ValidateSchema %v, Register %v", s, err, rerr)
		}
		if err != nil && !errors.Is(err, ErrInvalidSchema) {
			t.Errorf("schema %s: %v does not match ErrInvalidSchema", s, err)
		}
	}
	if err := ValidateSchema(nil); err != nil {
		t.Errorf("the no-arguments schema is invalid: %v", err)
	}
}

func TestRegistryListsToolsByNameAndKeepsItsOwnCopies(t *testing.T) {
	r := NewRegistry()
	caps := []string{"fs"}
	schema := json.RawMessage(`{"type":"object","properties":{"p":{"type":"string"}}}`)
	mustRegister(t, r,
		Tool{Name: "zeta", SideEffect: SideEffectNone, Handler: (&recorder{}).handler()},
		Tool{Name: "alpha", SideEffect: SideEffectRead, Handler: (&recorder{}).handler(), Capabilities: caps, Schema: schema},
		Tool{Name: "Mid", SideEffect: SideEffectNone, Handler: (&recorder{}).handler()},
	)
	var names []string
	for _, tool := range r.Tools() {
		names = append(names, tool.Name)
	}
	if diff := cmp.Diff([]string{"Mid", "alpha", "zeta"}, names); diff != "" {
		t.Errorf("Tools order (-want +got):\n%s", diff)
	}
	caps[0] = "root"
	schema[2] = 'X'
	got, _ := r.Lookup("alpha")
	got.Capabilities[0] = "everything"
	got.Schema[2] = 'Y'
	again, _ := r.Lookup("alpha")
	if diff := cmp.Diff(Spec{Name: "alpha", SideEffect: SideEffectRead, Capabilities: []string{"fs"},
		Schema: json.RawMessage(`{"type":"object","properties":{"p":{"type":"string"}}}`)}, again.Spec()); diff != "" {
		t.Errorf("a registered binding changed through a caller's slice (-want +got):\n%s", diff)
	}
}

func TestSpecsAreTheBindingsWithoutHandlersAndWithEffectiveSchemas(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, r,
		Tool{Name: "b", Description: "no args", SideEffect: SideEffectNone, Handler: (&recorder{}).handler()},
		Tool{Name: "a", Description: "a path", SideEffect: SideEffectWrite, Capabilities: []string{"fs"},
			Schema: json.RawMessage(`{"type":"object"}`), Handler: (&recorder{}).handler()},
	)
	want := []Spec{
		{Name: "a", Description: "a path", Schema: json.RawMessage(`{"type":"object"}`), Capabilities: []string{"fs"}, SideEffect: SideEffectWrite},
		{Name: "b", Description: "no args", Schema: json.RawMessage(noArgsSchema), SideEffect: SideEffectNone},
	}
	if diff := cmp.Diff(want, r.Specs()); diff != "" {
		t.Errorf("Specs (-want +got):\n%s", diff)
	}
}
