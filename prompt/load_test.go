package prompt

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCatalogErrorMessagesArePlainSortedAndComplete: a broken catalog file
// gets one message listing every problem in the order of the file's lines
// (at most 20 of them), in plain words: no Go type names, the right
// article, a wrong type does not hide the problems after it, and no prefix
// is repeated.
func TestCatalogErrorMessagesArePlainSortedAndComplete(t *testing.T) {
	const kinds = "(want one of instruction, skill, resource, context, tool, mcp_tool)"
	many := "prompt: invalid catalog testdata/catalogs/many.yaml (25 problems)\n"
	for i := 1; i <= 20; i++ {
		many += fmt.Sprintf("  testdata/catalogs/many.yaml:%d: unit \"u%d\": unknown kind \"widget\" %s\n", 3*i, i, kinds)
	}
	many += "  ... and 5 more"
	for _, tc := range []struct{ file, want string }{
		{"types.yaml", `prompt: invalid catalog testdata/catalogs/types.yaml (7 problems)
  testdata/catalogs/types.yaml:6: unit "s": priority: want a whole number, got "high"
  testdata/catalogs/types.yaml:9: unit "t": body: want text, got a list
  testdata/catalogs/types.yaml:10: unit "t": keywords: want a list, got "deploy" (write [deploy])
  testdata/catalogs/types.yaml:11: unit "t": mandatory: want true or false, got "maybe"
  testdata/catalogs/types.yaml:12: unit "t": requires: entry 2: want text, got a list
  testdata/catalogs/types.yaml:14: unit "u": unknown kind "nope" ` + kinds + `
  testdata/catalogs/types.yaml:16: unit "u": unknown field "colour"`},
		{"articles.yaml", `prompt: invalid catalog testdata/catalogs/articles.yaml (5 problems)
  testdata/catalogs/articles.yaml:2: unit "rules": an instruction needs a body (the text rendered into the prompt)
  testdata/catalogs/articles.yaml:6: unit "facts": a context unit needs a body (the text rendered into the prompt)
  testdata/catalogs/articles.yaml:10: unit "remote_search": an MCP tool has no body: its schema and description are sent through the tool channel
  testdata/catalogs/articles.yaml:12: unit "bad id": a tool id must be 1..64 of A-Z a-z 0-9 _ - (it is sent as a function name)
  testdata/catalogs/articles.yaml:12: unit "bad id": a tool needs a description (sent with its schema)`},
		{"order.yaml", `prompt: invalid catalog testdata/catalogs/order.yaml (4 problems)
  testdata/catalogs/order.yaml:6: unit "t": a tool needs a description (sent with its schema)
  testdata/catalogs/order.yaml:6: unit "t": duplicate id (first at testdata/catalogs/order.yaml:2)
  testdata/catalogs/order.yaml:8: unit "t": schema: the arguments schema must have "type": "object"
  testdata/catalogs/order.yaml:9: unit "t": requires "ghost": no such unit in the catalog`},
		{"toplevel.yaml", `prompt: invalid catalog testdata/catalogs/toplevel.yaml (3 problems)
  testdata/catalogs/toplevel.yaml:1: version: want a whole number, got "x"
  testdata/catalogs/toplevel.yaml:2: unknown field "colour" (a catalog has version and units)
  testdata/catalogs/toplevel.yaml:3: units: want a list of units, got "5"`},
		{"entries.json", `prompt: invalid catalog testdata/catalogs/entries.json (3 problems)
  testdata/catalogs/entries.json:2: a unit is a mapping of its fields (id, kind, ...), got "oops"
  testdata/catalogs/entries.json:3: unit "s": priority: want a whole number, got "x"
  testdata/catalogs/entries.json:4: unit "t": triggers: want a list, got a mapping`},
		{"syntax.yaml", `prompt: invalid catalog testdata/catalogs/syntax.yaml (1 problem)
  testdata/catalogs/syntax.yaml:3: mapping values are not allowed in this context`},
		{"many.yaml", many},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, err := LoadCatalog(context.Background(), "testdata/catalogs/"+tc.file, CatalogOptions{})
			if err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			if n := strings.Count(err.Error(), "prompt:"); n != 1 {
				t.Errorf("%q is said %d times", "prompt:", n)
			}
		})
	}
}

// TestMultiLineReasonsStayInsideTheirEntry: a reason of several lines (a
// JSON Schema validator's) is indented under its entry, so the list still
// reads one problem per entry.
func TestMultiLineReasonsStayInsideTheirEntry(t *testing.T) {
	err := &CatalogError{Path: "c.yaml", Problems: []UnitProblem{
		{Source: "c.yaml:3", ID: "t", Reason: "schema: not valid:\nat /a: bad\nat /b: bad"},
		{Source: "c.yaml:9", ID: "u", Reason: "no body"},
	}}
	want := "prompt: invalid catalog c.yaml (2 problems)\n  c.yaml:3: unit \"t\": schema: not valid:\n    at /a: bad\n    at /b: bad\n  c.yaml:9: unit \"u\": no body"
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
