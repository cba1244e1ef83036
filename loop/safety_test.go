package loop_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/tools"
)

// TestMaliciousToolCallsAreRefusedAndNothingRuns: tool calls outside the
// schema the model was shown — unknown tools, Prolog and shell text as
// names or arguments, path traversal, huge or invalid JSON, wrong types —
// are refused with a structured error the model sees; no handler runs and
// no goal is built from any of it (tripwires on the retrieval rules).
func TestMaliciousToolCallsAreRefusedAndNothingRuns(t *testing.T) {
	rec := &recorder{}
	reg := gitRegistry(t, rec)
	tw := &tripwires{}
	tr := newTree(t, tw)
	calls := []testfixture.FakeToolCall{
		{ID: "1", Name: "rm_rf", Arguments: `{}`},
		{ID: "2", Name: "halt", Arguments: `{}`},
		{ID: "3", Name: "call(halt)", Arguments: `{}`},
		{ID: "4", Name: "git_diff", Arguments: `{"path":"../../etc/passwd"}`},
		{ID: "5", Name: "git_diff", Arguments: `{"path":"; rm -rf / #"}`},
		{ID: "6", Name: "git_diff", Arguments: `{"path":"$(reboot)"}`},
		{ID: "7", Name: "git_diff", Arguments: `{"n":"not a number"}`},
		{ID: "8", Name: "git_diff", Arguments: `{"path":"a", "extra":"X = 1, call(halt)"}`},
		{ID: "9", Name: "git_diff", Arguments: `{"path": "a"`},
		{ID: "10", Name: "git_diff", Arguments: `["halt."]`},
		{ID: "11", Name: "git_diff", Arguments: `{"path":"` + strings.Repeat("A", 200_000) + `"}`},
		{ID: "12", Name: "git_diff", Arguments: strings.Repeat(`{"a":`, 5000) + `1` + strings.Repeat(`}`, 5000)},
		{ID: "13", Name: "retrieve", Arguments: `{"query":"halt. X = 1, call(halt), assertz(evil(1)), shell('rm -rf /')"}`},
		{ID: "14", Name: "retrieve", Arguments: `{"query":"x","limit":"all"}`},
	}
	m, fake := model(t, answers("done", calls...))
	o := opts(t, m, reg, tr)
	o.Limits.ModelCalls, o.Limits.ToolCalls = 40, 40
	res, err := loop.Run(context.Background(), gitQuestion, o)
	if err != nil {
		t.Fatal(err)
	}
	if rec.runs.Load() != 0 {
		t.Fatalf("a refused call ran a handler: %v", rec.args)
	}
	if len(tw.fired) > 0 {
		t.Fatalf("a goal was built from model output: %v", tw.fired)
	}
	refused := 0
	for _, e := range res.Trace {
		if e.Kind == loop.EventTool && !e.OK {
			refused++
		}
	}
	if refused != len(calls)-1 { // the retrieve of hostile text runs: it is only text to the rules
		t.Fatalf("%d calls refused, want %d (trace %+v)", refused, len(calls)-1, res.Trace)
	}
	last := fake.Requests()[len(calls)]
	for _, m := range toolMessages(last) {
		if strings.Contains(m, "goroutine") || strings.Contains(m, strings.Repeat("A", 1000)) {
			t.Fatalf("a tool message leaks internals or echoes the whole argument: %.300s", m)
		}
	}
}

// TestBudgetsEndTheLoopWithAStructuredResult: a model that never stops
// calling tools is stopped by the model-call, tool-call and token budgets,
// each with StopBudget and ErrBudget, usage within the limit.
func TestBudgetsEndTheLoopWithAStructuredResult(t *testing.T) {
	forever := func(int, testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{ToolCalls: []testfixture.FakeToolCall{{ID: "x", Name: "git_diff", Arguments: `{}`}}, Usage: [3]int{100, 50, 150}}
	}
	for name, l := range map[string]loop.Limits{
		"model calls": {ModelCalls: 3, ToolCalls: 100, Tokens: 1 << 30},
		"tool calls":  {ModelCalls: 100, ToolCalls: 2, Tokens: 1 << 30},
		"tokens":      {ModelCalls: 100, ToolCalls: 100, Tokens: 400},
	} {
		t.Run(name, func(t *testing.T) {
			m, _ := model(t, forever)
			o := opts(t, m, gitRegistry(t, &recorder{}), nil)
			l.Wall = o.Limits.Wall
			o.Limits = l
			res, err := loop.Run(context.Background(), gitQuestion, o)
			var se *loop.StopError
			if res.Stop != loop.StopBudget || !errors.Is(err, loop.ErrBudget) || !errors.As(err, &se) {
				t.Fatalf("stop %s, err %v", res.Stop, err)
			}
			u := res.Usage
			if u.ModelCalls > l.ModelCalls || u.ToolCalls > l.ToolCalls || u.TotalTokens > l.Tokens+150 {
				t.Fatalf("usage %+v over limits %+v", u, l)
			}
			if !strings.Contains(se.Detail, strings.Split(name, " ")[0]) {
				t.Fatalf("detail %q does not name the %s budget", se.Detail, name)
			}
		})
	}
}

// TestProviderErrorsEndTheLoopWithAStructuredResult: an endpoint failure
// stops the run with provider_error and the *providers.Error as cause.
func TestProviderErrorsEndTheLoopWithAStructuredResult(t *testing.T) {
	m, _ := model(t, func(int, testfixture.Request) testfixture.ChatTurn { return testfixture.ChatTurn{Status: 500} })
	res, err := loop.Run(context.Background(), gitQuestion, opts(t, m, nil, nil))
	var pe *providers.Error
	if res.Stop != loop.StopProviderError || !errors.As(err, &pe) {
		t.Fatalf("stop %s, err %v", res.Stop, err)
	}
	if res.Catalog == nil || !res.Catalog.Released() {
		t.Fatal("the ephemeral catalog was not released after a provider error")
	}
}

// TestStreamedAnswerReachesOnDelta: the top-level answer is streamed to
// OnDelta as it arrives and equals the final answer.
func TestStreamedAnswerReachesOnDelta(t *testing.T) {
	want := "Fetch is defined at sub/client.go:6 and called by Retry."
	m, _ := model(t, answers(want))
	o := opts(t, m, nil, nil)
	var got strings.Builder
	o.OnDelta = func(s string) { got.WriteString(s) }
	res, err := loop.Run(context.Background(), "where is Fetch?", o)
	if err != nil || res.Answer != want || got.String() != want {
		t.Fatalf("answer %q, streamed %q, err %v", res.Answer, got.String(), err)
	}
}

// TestEvidenceAndCitationsComeFromTheCurrentBytes: the evidence the model
// is given is read from exactly the indexed bytes, and the answer's
// citations carry each file's content hash; a path the answer names is
// marked cited.
func TestEvidenceAndCitationsComeFromTheCurrentBytes(t *testing.T) {
	tr := newTree(t, nil)
	m, fake := model(t, answers("Fetch is defined at sub/client.go:6; it calls ServeHTTP."))
	res, err := loop.Run(context.Background(), "where is Fetch defined?", opts(t, m, nil, tr))
	if err != nil {
		t.Fatal(err)
	}
	sys := systemText(fake.Requests()[0])
	if !strings.Contains(sys, "func Fetch(") || !strings.Contains(sys, "sub/client.go:6") {
		t.Fatalf("the evidence is not in the prompt:\n%s", sys)
	}
	src, _ := os.ReadFile(filepath.Join(tr.root, "sub", "client.go"))
	var cited bool
	for _, c := range res.Citations {
		if c.Path == "sub/client.go" {
			if _, err := tr.ReadSource(context.Background(), c.Path, c.ContentHash); err != nil {
				t.Fatalf("citation %s does not match the file's bytes: %v", c, err)
			}
			cited = cited || c.Cited
		}
	}
	if !cited || len(src) == 0 {
		t.Fatalf("sub/client.go not cited: %+v", res.Citations)
	}
}

// TestRetrieveDuringRecursionSeesAnEditBetweenTurns: a file edited between
// two turns is read fresh by the second turn's recursive sub-call and its
// retrieve tool; no fact from the old bytes reaches the model.
func TestRetrieveDuringRecursionSeesAnEditBetweenTurns(t *testing.T) {
	tr := newTree(t, nil)
	m1, f1 := model(t, answers("v1", testfixture.FakeToolCall{ID: "r", Name: "retrieve", Arguments: `{"query":"where is Fetch defined?"}`}))
	if _, err := loop.Run(context.Background(), "what does Fetch do?", opts(t, m1, nil, tr)); err != nil {
		t.Fatal(err)
	}
	if tm := toolMessages(f1.Requests()[1]); len(tm) != 1 || !strings.Contains(tm[0], "ServeHTTP(w, \\\"/fetch\\\")") {
		t.Fatalf("turn A's retrieve did not return the code: %v", tm)
	}
	edited := "package sub\n\nimport \"example.com/sample\"\n\n// Fetch now retries.\nfunc Fetch(s *sample.Server, w sample.Writer) {\n\ts.ServeHTTP(w, \"/fetch-v2\")\n}\n"
	if err := os.WriteFile(filepath.Join(tr.root, "sub", "client.go"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	// Turn B: the model delegates to a sub-call, which retrieves again.
	m2, f2 := model(t, func(i int, req testfixture.Request) testfixture.ChatTurn {
		switch i {
		case 0:
			return testfixture.ChatTurn{ToolCalls: []testfixture.FakeToolCall{{ID: "s", Name: "recurse", Arguments: `{"question":"what path does Fetch serve?"}`}}}
		case 1: // the sub-call's first turn
			return testfixture.ChatTurn{ToolCalls: []testfixture.FakeToolCall{{ID: "r2", Name: "retrieve", Arguments: `{"query":"where is Fetch defined?"}`}}}
		default:
			return testfixture.ChatTurn{Content: "It serves /fetch-v2 (sub/client.go:6)."}
		}
	})
	o := opts(t, m2, nil, tr)
	o.Input.HostSelected = []string{loop.ToolRecurse}
	res, err := loop.Run(context.Background(), "what path does Fetch serve now?", o)
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, req := range f2.Requests() {
		for _, msg := range testfixture.ChatMessages(req) {
			all.WriteString(msg[1])
		}
	}
	if strings.Contains(all.String(), `"/fetch")`) || strings.Contains(all.String(), `\"/fetch\")`) {
		t.Fatal("the old bytes of sub/client.go reached the model after the edit")
	}
	if !strings.Contains(all.String(), "/fetch-v2") {
		t.Fatal("the edited bytes never reached the model")
	}
	depth1 := false
	for _, e := range res.Trace {
		if e.Kind == loop.EventEvidence && e.Depth == 1 {
			depth1 = true
		}
	}
	if !depth1 {
		t.Fatalf("no retrieval ran in the sub-call: %+v", res.Trace)
	}
}

// TestRecursionStopsAtTheDepthLimit: a call at the configured depth is
// not offered recurse, and a recurse call there anyway is refused with a
// message the model sees; with a negative depth recurse is never offered.
// The run still answers.
func TestRecursionStopsAtTheDepthLimit(t *testing.T) {
	for _, c := range []struct {
		name      string
		depth     int
		wantDepth int
	}{
		{name: "depth 1", depth: 1, wantDepth: 1},
		{name: "recursion disabled", depth: -1, wantDepth: 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, fake := model(t, func(i int, req testfixture.Request) testfixture.ChatTurn {
				if i < 3 {
					return testfixture.ChatTurn{ToolCalls: []testfixture.FakeToolCall{{ID: "s", Name: "recurse", Arguments: `{"question":"deeper?"}`}}}
				}
				return testfixture.ChatTurn{Content: "stopped"}
			})
			o := opts(t, m, nil, nil)
			o.Limits.Depth = c.depth
			o.Input.HostSelected = []string{loop.ToolRecurse}
			res, err := loop.Run(context.Background(), "go deep", o)
			if err != nil {
				t.Fatal(err)
			}
			maxDepth := 0
			var denied bool
			for _, e := range res.Trace {
				maxDepth = max(maxDepth, e.Depth)
				if e.Kind == loop.EventCompile && e.Depth == c.wantDepth {
					for _, d := range e.Denied {
						denied = denied || strings.HasPrefix(d, loop.ToolRecurse+":")
					}
				}
			}
			if maxDepth != c.wantDepth {
				t.Fatalf("deepest call at depth %d, want %d", maxDepth, c.wantDepth)
			}
			if !denied {
				t.Errorf("the trace does not say recurse was denied at depth %d", c.wantDepth)
			}
			atLimit, refusal := 0, false
			for _, req := range fake.Requests() {
				msgs := testfixture.ChatMessages(req)
				if c.depth >= 0 && !slices.Contains(msgs, [2]string{"user", "deeper?"}) {
					continue // a call above the limit
				}
				atLimit++
				if slices.Contains(testfixture.ChatToolNames(req), loop.ToolRecurse) {
					t.Errorf("recurse was offered to a call at the depth limit")
				}
				for _, m := range toolMessages(req) {
					refusal = refusal || strings.Contains(m, "not available")
				}
			}
			if atLimit < 3 {
				t.Fatalf("%d model calls at the depth limit, want at least 3", atLimit)
			}
			if !refusal {
				t.Fatal("the model was not told recurse is unavailable")
			}
		})
	}
}

var (
	_ = prompt.ModeCompiled
	_ = tools.KindNotVisible
)

// TestAnEmptyAnswerIsNotAnswered: a model that ends its turn with
// neither text (white space counts as none) nor a tool call stops the run
// with empty and ErrNoAnswer, not answered with nothing.
func TestAnEmptyAnswerIsNotAnswered(t *testing.T) {
	for _, content := range []string{"", " \n\t"} {
		m, _ := model(t, func(int, testfixture.Request) testfixture.ChatTurn { return testfixture.ChatTurn{Content: content} })
		res, err := loop.Run(context.Background(), gitQuestion, opts(t, m, nil, nil))
		if res.Stop != loop.StopEmpty || !errors.Is(err, loop.ErrNoAnswer) {
			t.Errorf("content %q: stop %s, err %v", content, res.Stop, err)
		}
		if res.Catalog == nil || !res.Catalog.Released() {
			t.Errorf("content %q: the ephemeral catalog was not released", content)
		}
	}
}

// TestARefusalIsTheCallersAndTheTraceHoldsOnlyItsSize: a model's refusal
// stops the run with StopRefused and its message in the error's detail
// for the caller, while the trace, which holds no model text beyond
// sizes, records only its size.
func TestARefusalIsTheCallersAndTheTraceHoldsOnlyItsSize(t *testing.T) {
	const marker = "I-will-not-do-that-7f3a"
	m, _ := model(t, func(int, testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{Refusal: "Sorry: " + marker, Finish: "stop"}
	})
	res, err := loop.Run(context.Background(), gitQuestion, opts(t, m, nil, nil))
	var se *loop.StopError
	if res.Stop != loop.StopRefused || !errors.As(err, &se) {
		t.Fatalf("stop %s, err %v", res.Stop, err)
	}
	if !strings.Contains(se.Detail, marker) {
		t.Errorf("the caller's detail %q lacks the refusal", se.Detail)
	}
	b, jerr := json.Marshal(res.Trace)
	if jerr != nil {
		t.Fatal(jerr)
	}
	if strings.Contains(string(b), marker) {
		t.Errorf("the trace holds the refusal's text: %s", b)
	}
	if !strings.Contains(string(b), fmt.Sprintf("refusal of %d bytes", len("Sorry: "+marker))) {
		t.Errorf("the trace does not record the refusal's size: %s", b)
	}
}
