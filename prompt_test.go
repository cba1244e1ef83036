package rlm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/internal/hostile"
	"github.com/rlm-dev/rlm/prompt"
)

// printableWord cuts s to at most n bytes of valid, printable text (a
// keyword, trigger or capability must be one).
func printableWord(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	for len(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	if s == "" {
		return "x"
	}
	return s
}

// TestHostileUnitAndQueryTextNeverExecutes feeds every hostile query of
// testdata/hostile-queries.txt (and the generated ones) through the prompt
// compiler as task text, needs, signals and host selections, and as the
// title, description, body, keywords, capabilities and triggers of
// catalog and context units: no tripwire fires, every call ends with a
// projection or a structured error, and a unit's hostile body reaches the
// prompt only as text.
func TestHostileUnitAndQueryTextNeverExecutes(t *testing.T) {
	tw := &hostile.Tripwires{}
	c, err := prompt.NewCompiler(prompt.CompilerOptions{Predicates: tw.Predicates()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	compiled := 0
	for i, q := range hostileQueries(t) {
		word := printableWord(q, 128)
		units := []prompt.Unit{
			{ID: "hostile_skill", Kind: "skill", Title: printableWord(q, 200), Description: q, Body: q + " (end)",
				Keywords: []string{word}, Capabilities: []string{word}, Triggers: []string{word}, Activation: "always"},
			{ID: "hostile_tool", Kind: "mcp_tool", Description: q, Keywords: []string{word},
				Schema: []byte(`{"type":"object","properties":{"q":{"type":"string"}}}`)},
		}
		cat, err := prompt.NewCatalog(ctx, units, prompt.CatalogOptions{})
		if err != nil {
			if !errors.Is(err, prompt.ErrCatalog) {
				t.Errorf("query %d: catalog: unstructured error %v", i, err)
			}
			continue
		}
		in := prompt.Input{Text: q, Needs: []string{word}, Signals: []string{word}, Capabilities: []string{word},
			HostSelected: []string{q}, HostDenied: []string{q + "!"},
			Context: []prompt.Unit{{ID: "ctx", Kind: "context", Body: q + " (ctx)", Keywords: []string{word}, Activation: "always"}}}
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		out, err := c.Compile(cctx, cat, in, prompt.Options{})
		if err == nil {
			compiled++
			if !strings.Contains(out.Text, strings.TrimRightFunc(q+" (end)", unicode.IsSpace)) {
				t.Errorf("query %d: the hostile body is not in the prompt as text", i)
			}
		} else if !errors.Is(err, prompt.ErrCatalog) && !strings.Contains(err.Error(), "bad input") {
			t.Errorf("query %d: unstructured error %v", i, err)
		}
		if _, err := c.Why(cctx, cat, in, prompt.Options{Mode: prompt.ModeAllTools}, "hostile_tool"); err != nil &&
			!errors.Is(err, prompt.ErrCatalog) && !strings.Contains(err.Error(), "bad input") {
			t.Errorf("query %d: why: unstructured error %v", i, err)
		}
		cancel()
		cat.Release()
	}
	if len(tw.Fired()) > 0 {
		t.Fatalf("goals built from input ran: %v", tw.Fired())
	}
	if compiled < 20 {
		t.Fatalf("only %d hostile inputs compiled", compiled)
	}
}
