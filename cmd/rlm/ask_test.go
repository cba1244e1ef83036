package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestAskStreamsTheAnswerWithCitationsAndTrace: `rlm ask` against a
// scripted OpenAI-compatible endpoint retrieves, streams the answer,
// prints citations with content hashes and, with --trace, the projection
// and steps as JSON lines — and the model was shown the evidence.
func TestAskStreamsTheAnswerWithCitationsAndTrace(t *testing.T) {
	fake := testfixture.NewChatFake(t, func(i int, req testfixture.Request) testfixture.ChatTurn {
		if i == 0 {
			return testfixture.ChatTurn{ToolCalls: []testfixture.FakeToolCall{{ID: "c1", Name: "retrieve", Arguments: `{"query":"what calls Fetch?"}`}}}
		}
		return testfixture.ChatTurn{Content: "Retry calls Fetch twice (sub/client.go:11)."}
	})
	out, errs, code := runCLI(t, "", "ask", "--root", sample, "--in-memory", "--base-url", fake.URL(), "--key-env", "", "--trace",
		"what calls Fetch?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Retry calls Fetch twice (sub/client.go:11).", "citations (* = named in the answer):", "* sub/client.go:11", "answered: model calls 2, tool calls 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	kinds := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(errs), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("trace line is not JSON: %q", line)
		}
		k, _ := e["kind"].(string)
		kinds[k]++
	}
	for _, k := range []string{"evidence", "compile", "model", "tool", "stop"} {
		if kinds[k] == 0 {
			t.Errorf("trace has no %s event: %v", k, kinds)
		}
	}
	reqs := fake.Requests()
	if len(reqs) != 2 || !strings.Contains(systemOf(reqs[0]), "func Retry(") {
		t.Fatalf("the model was not shown the evidence (%d requests)", len(reqs))
	}
}

// TestAskWithoutAnEndpointFailsClearly: a dead endpoint ends the run with
// a provider error, exit 1, and no secret in the output.
func TestAskWithoutAnEndpointFailsClearly(t *testing.T) {
	t.Setenv("RLM_TEST_SECRET_KEY", "sk-never-print-me-123")
	out, errs, code := runCLI(t, "", "ask", "--root", sample, "--in-memory", "--base-url", "http://127.0.0.1:1/v1",
		"--key-env", "RLM_TEST_SECRET_KEY", "--timeout", "5s", "where is Fetch?")
	if code != 1 || !strings.Contains(out+errs, "provider_error") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errs)
	}
	if strings.Contains(out+errs, "sk-never-print-me") {
		t.Fatal("the API key was printed")
	}
}

func systemOf(req testfixture.Request) string {
	for _, m := range testfixture.ChatMessages(req) {
		if m[0] == "system" || m[0] == "developer" {
			return m[1]
		}
	}
	return ""
}

// TestAskWithAnUnsetKeyVariableFailsBeforeIndexing: a key variable that is
// not set is reported (exit 2, its name, how to fix it) before the tree is
// opened: even a root that does not exist is not looked at.
func TestAskWithAnUnsetKeyVariableFailsBeforeIndexing(t *testing.T) {
	t.Setenv("RLM_TEST_UNSET_KEY", "")
	out, errs, code := runCLI(t, "", "ask", "--root", t.TempDir()+"/does-not-exist", "--base-url", "http://127.0.0.1:1/v1",
		"--key-env", "RLM_TEST_UNSET_KEY", "where is Fetch?")
	if code != 2 || !strings.Contains(errs, "RLM_TEST_UNSET_KEY") || !strings.Contains(errs, "--key-env ''") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errs)
	}
	if strings.Contains(errs, "does-not-exist") {
		t.Fatalf("the tree was opened before the key was checked:\n%s", errs)
	}
}

// TestAskNeverPrintsTheModelsControlSequences: an answer holding escape
// sequences (clear screen, OSC 52 clipboard, a bidi override) reaches the
// terminal without them, streamed or as one JSON-free text.
func TestAskNeverPrintsTheModelsControlSequences(t *testing.T) {
	hostile := "Fetch\x1b[2J is at \x1b]52;c;cm0gLXJm\x07sub/client.go:6\u202e and\x9b31m here"
	fake := testfixture.NewChatFake(t, func(i int, req testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{Content: hostile}
	})
	out, errs, code := runCLI(t, "", "ask", "--root", sample, "--in-memory", "--base-url", fake.URL(), "--key-env", "", "where is Fetch?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.ContainsAny(out, "\x1b\x07\u202e\u009b") {
		t.Fatalf("a control sequence reached the terminal: %q", out)
	}
	if !strings.Contains(out, "sub/client.go:6") {
		t.Fatalf("the answer is missing: %q", out)
	}
}

// TestAskNeverPrintsTheKeyAServerEchoes: a server that sends the API key
// back — in the answer, streamed in pieces, and as the query of a
// retrieve call that the trace records, as plain text or spelled with
// JSON escapes that decoding the arguments undoes — gets it printed as
// [REDACTED], on stdout and in the trace.
func TestAskNeverPrintsTheKeyAServerEchoes(t *testing.T) {
	const key = "sk-echoed-by-the-server-0123456789"
	t.Setenv("RLM_TEST_ECHO_KEY", key)
	var escaped strings.Builder // every character as \uXXXX
	for _, r := range key {
		fmt.Fprintf(&escaped, `\u%04x`, r)
	}
	for _, spelled := range []string{key, escaped.String(), `\u0073` + key[1:]} {
		fake := testfixture.NewChatFake(t, func(i int, req testfixture.Request) testfixture.ChatTurn {
			if i == 0 {
				return testfixture.ChatTurn{ToolCalls: []testfixture.FakeToolCall{{ID: "c1", Name: "retrieve", Arguments: `{"query":"where is ` + spelled + ` defined?"}`}}}
			}
			return testfixture.ChatTurn{Content: "Fetch is in sub/client.go:6; your key is " + key}
		})
		for _, extra := range [][]string{{"--trace"}, {"--json"}} {
			args := append([]string{"ask", "--root", sample, "--in-memory", "--base-url", fake.URL(), "--key-env", "RLM_TEST_ECHO_KEY"}, extra...)
			out, errs, code := runCLI(t, "", append(args, "where is Fetch?")...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", extra, code, errs)
			}
			if strings.Contains(out+errs, key) || strings.Contains(out+errs, escaped.String()) || !strings.Contains(out, "[REDACTED]") {
				t.Errorf("%q %v: the key was printed, or the answer lost:\n%s\n%s", spelled[:12], extra, out, errs)
			}
		}
	}
}

// TestAskRefusesANegativeBudget: --budget below zero is a usage error, as
// in rlm compile, not a silent default.
func TestAskRefusesANegativeBudget(t *testing.T) {
	_, errs, code := runCLI(t, "", "ask", "--root", sample, "--in-memory", "--base-url", "http://127.0.0.1:1/v1", "--key-env", "", "--budget", "-5", "where is Fetch?")
	if code != 2 || !strings.Contains(errs, "--budget") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// TestAskTraceAndJSONNeverPrintControlCharacters: model text that JSON
// output carries — a tool name, a retrieve query in the trace, the answer
// in --json — reaches the terminal with DEL, C1 controls and bidi
// overrides escaped, and still decodes to what the model sent.
func TestAskTraceAndJSONNeverPrintControlCharacters(t *testing.T) {
	const answer = "Fetch \u009b2J is at sub/client.go:6 \x7f\u202e"
	fake := testfixture.NewChatFake(t, func(i int, req testfixture.Request) testfixture.ChatTurn {
		if i == 0 {
			return testfixture.ChatTurn{ToolCalls: []testfixture.FakeToolCall{
				{ID: "c1", Name: "x\u009b2J", Arguments: `{}`},
				{ID: "c2", Name: "retrieve", Arguments: `{"query":"Fetch \u009b31m\u007f\u202e"}`},
			}}
		}
		return testfixture.ChatTurn{Content: answer}
	})
	for _, mode := range []string{"--trace", "--json"} {
		out, errs, code := runCLI(t, "", "ask", "--root", sample, "--in-memory", "--base-url", fake.URL(), "--key-env", "", mode, "where is Fetch?")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", mode, code, errs)
		}
		if strings.ContainsAny(out+errs, "\u009b\x7f\u202e") {
			t.Errorf("%s: a control character reached the terminal:\n%q\n%q", mode, out, errs)
		}
		if mode == "--json" {
			var res struct{ Answer string }
			if err := json.Unmarshal([]byte(out), &res); err != nil || res.Answer != answer {
				t.Errorf("--json answer %q (%v), want %q", res.Answer, err, answer)
			}
		}
	}
}
