package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// example is one `$ rlm …` command of a console block in a guide, with
// its REPL inputs (lines after it starting "?- ") and the output each
// input (or the command alone) must print.
type example struct {
	args    []string
	inputs  []string
	outputs []string
}

// consoleExamples reads the ```console blocks of a Markdown guide.
func consoleExamples(t *testing.T, path string) []example {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case line == "```console":
			in = true
		case in && line == "```":
			in = false
		case in && strings.HasPrefix(line, "$ rlm "):
			out = append(out, example{args: shellWords(strings.TrimPrefix(line, "$ rlm ")), outputs: []string{""}})
		case in && strings.HasPrefix(line, "?- ") && len(out) > 0:
			e := &out[len(out)-1]
			e.inputs = append(e.inputs, strings.TrimPrefix(line, "?- "))
			e.outputs = append(e.outputs, "")
		case in && len(out) > 0:
			e := &out[len(out)-1]
			e.outputs[len(e.outputs)-1] += line + "\n"
		}
	}
	return out
}

// shellWords splits a command line at spaces outside double quotes.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, any := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, any = !quoted, true
		case r == ' ' && !quoted:
			if any {
				out = append(out, cur.String())
			}
			cur.Reset()
			any = false
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, cur.String())
	}
	return out
}

var rulesVersion = regexp.MustCompile(`rules_version\([0-9a-f]{16}\)`)

// TestRulesGuideExamples runs every console example of docs/RULES.md:
// each command's output (each REPL input's, for rlm repl) must be what
// the guide shows after it.
func TestRulesGuideExamples(t *testing.T) {
	exs := consoleExamples(t, "../../docs/RULES.md")
	if len(exs) < 2 {
		t.Fatalf("%d console examples in docs/RULES.md", len(exs))
	}
	for _, ex := range exs {
		args := make([]string, len(ex.args))
		for i, a := range ex.args {
			args[i] = strings.Replace(a, "testdata/", "../../testdata/", 1)
		}
		t.Run(strings.Join(ex.args, " "), func(t *testing.T) {
			stdin := ""
			for _, in := range ex.inputs {
				stdin += in + "\n"
			}
			out, errs, code := runCLI(t, stdin, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			out = rulesVersion.ReplaceAllString(out, "rules_version(<version>)")
			var got []string
			if len(ex.inputs) == 0 {
				got = []string{out}
			} else {
				parts := strings.Split(out, "?- ")
				got = append([]string{""}, parts[1:len(parts)-1]...)
			}
			if diff := cmp.Diff(ex.outputs, got); diff != "" {
				t.Errorf("output (-guide +got):\n%s", diff)
			}
		})
	}
}
