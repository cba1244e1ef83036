package rlm_test

import (
	"os"
	"strings"
	"testing"
)

// TestPromptCompilerDocSnippetIsACompiledExample: every line of the Go
// snippets of docs/prompt-compiler.md is a line of example_test.go (where
// ExampleLoadCatalog compiles it and checks its output), so the doc cannot
// show a call the façade does not have.
func TestPromptCompilerDocSnippetIsACompiledExample(t *testing.T) {
	doc, err := os.ReadFile("docs/prompt-compiler.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(example), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	snippets := 0
	for rest := string(doc); ; {
		_, after, ok := strings.Cut(rest, "```go\n")
		if !ok {
			break
		}
		code, tail, ok := strings.Cut(after, "```")
		if !ok {
			t.Fatal("an unterminated ```go block")
		}
		snippets++
		for _, l := range strings.Split(code, "\n") {
			if l = strings.TrimSpace(l); l != "" && !have[l] {
				t.Errorf("docs/prompt-compiler.md shows a line that no compiled example has:\n\t%s", l)
			}
		}
		rest = tail
	}
	if snippets == 0 {
		t.Fatal("no Go snippet in docs/prompt-compiler.md")
	}
}
