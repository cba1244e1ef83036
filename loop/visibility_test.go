package loop_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/tools"
)

const gitQuestion = "review my git changes: what does the diff of the working tree show?"

// TestModelSeesOnlyRelevantToolsAndTheExecutorKeepsTheHiddenOne: on a
// git-review question the model is shown git_diff and not project_search,
// though both are registered; when it calls the hidden one anyway, the
// call is refused and nothing runs; a later question that needs
// project_search sees it and runs it, from the same registry.
func TestModelSeesOnlyRelevantToolsAndTheExecutorKeepsTheHiddenOne(t *testing.T) {
	rec := &recorder{}
	reg := gitRegistry(t, rec)
	m, fake := model(t, answers("The diff changes server.go:12.", testfixture.FakeToolCall{ID: "c1", Name: "project_search", Arguments: `{}`}))
	res, err := loop.Run(context.Background(), gitQuestion, opts(t, m, reg, nil))
	if err != nil {
		t.Fatal(err)
	}
	reqs := fake.Requests()
	if names := testfixture.ChatToolNames(reqs[0]); !contains(names, "git_diff") || contains(names, "project_search") {
		t.Fatalf("tools shown: %v; want git_diff and not project_search", names)
	}
	if rec.runs.Load() != 0 {
		t.Fatalf("the hidden tool ran %d times", rec.runs.Load())
	}
	if tm := toolMessages(reqs[1]); len(tm) != 1 || !strings.Contains(tm[0], string(tools.KindNotVisible)) {
		t.Fatalf("the model was not told the hidden call was refused: %v", tm)
	}
	if !hasRefusal(res.Trace, "project_search", string(tools.KindNotVisible)) {
		t.Fatalf("trace lacks the refusal: %+v", res.Trace)
	}
	if _, ok := reg.Lookup("project_search"); !ok {
		t.Fatal("the registry lost the hidden binding")
	}
	m2, fake2 := model(t, answers("There are 3 tickets.", testfixture.FakeToolCall{ID: "c2", Name: "project_search", Arguments: `{}`}))
	if _, err := loop.Run(context.Background(), "search the issue tracker tickets of the project board", opts(t, m2, reg, nil)); err != nil {
		t.Fatal(err)
	}
	if names := testfixture.ChatToolNames(fake2.Requests()[0]); !contains(names, "project_search") {
		t.Fatalf("project_search not shown for a tracker question: %v", names)
	}
	if rec.runs.Load() != 1 {
		t.Fatalf("project_search ran %d times once visible; want 1", rec.runs.Load())
	}
}

func hasRefusal(tr []loop.Event, tool, kind string) bool {
	for _, e := range tr {
		if e.Kind == loop.EventTool && e.Tool == tool && e.Refusal == kind {
			return true
		}
	}
	return false
}

// TestAllToolsModeShowsEveryTool: all_tools (compatibility and benchmarks)
// goes through the same compiler and shows every registered tool.
func TestAllToolsModeShowsEveryTool(t *testing.T) {
	reg := gitRegistry(t, &recorder{})
	m, fake := model(t, answers("ok"))
	o := opts(t, m, reg, nil)
	o.Mode = prompt.ModeAllTools
	if _, err := loop.Run(context.Background(), gitQuestion, o); err != nil {
		t.Fatal(err)
	}
	names := testfixture.ChatToolNames(fake.Requests()[0])
	for _, want := range []string{"git_diff", "project_search", loop.ToolRecurse} {
		if !contains(names, want) {
			t.Errorf("all_tools did not show %s: %v", want, names)
		}
	}
}

// TestCapabilityDeniedToolIsNotVisible: a tool needing a capability the
// run is not granted is neither shown nor run.
func TestCapabilityDeniedToolIsNotVisible(t *testing.T) {
	rec := &recorder{}
	reg := tools.NewRegistry()
	if err := reg.Register(rec.tool("git_push", "Push the reviewed git changes of the working tree to the remote.", "git_write")); err != nil {
		t.Fatal(err)
	}
	m, fake := model(t, answers("done", testfixture.FakeToolCall{ID: "c1", Name: "git_push", Arguments: `{}`}))
	o := opts(t, m, reg, nil)
	o.Mode = prompt.ModeAllTools
	if _, err := loop.Run(context.Background(), "push my git changes", o); err != nil {
		t.Fatal(err)
	}
	if names := testfixture.ChatToolNames(fake.Requests()[0]); contains(names, "git_push") {
		t.Fatalf("a tool needing an ungranted capability was shown: %v", names)
	}
	if rec.runs.Load() != 0 {
		t.Fatal("a capability-denied tool ran")
	}
	// Granted by the policy (which grants the compile too), it is shown
	// and runs.
	m2, fake2 := model(t, answers("done", testfixture.FakeToolCall{ID: "c1", Name: "git_push", Arguments: `{}`}))
	o = opts(t, m2, reg, nil)
	o.Mode = prompt.ModeAllTools
	o.Policy.Capabilities = []string{"git_write"}
	if _, err := loop.Run(context.Background(), "push my git changes", o); err != nil {
		t.Fatal(err)
	}
	if !contains(testfixture.ChatToolNames(fake2.Requests()[0]), "git_push") || rec.runs.Load() != 1 {
		t.Fatalf("granted: shown %v, ran %d", testfixture.ChatToolNames(fake2.Requests()[0]), rec.runs.Load())
	}
}

// TestSentSchemasAreExactlyTheActiveToolUnits: the tools sent to the model
// are the compiled projection's active tool units, each once, never also
// in the prompt text, and the prompt calls them active, not registered.
func TestSentSchemasAreExactlyTheActiveToolUnits(t *testing.T) {
	reg := gitRegistry(t, &recorder{})
	m, fake := model(t, answers("ok"))
	res, err := loop.Run(context.Background(), gitQuestion, opts(t, m, reg, nil))
	if err != nil {
		t.Fatal(err)
	}
	var active []string
	for _, e := range res.Trace {
		if e.Kind == loop.EventCompile {
			active = e.Active
		}
	}
	req := fake.Requests()[0]
	sent := testfixture.ChatToolNames(req)
	seen := map[string]bool{}
	for _, n := range sent {
		if seen[n] {
			t.Errorf("tool %s sent twice", n)
		}
		seen[n] = true
		if !contains(active, n) {
			t.Errorf("tool %s sent but not an active unit (%v)", n, active)
		}
	}
	for _, a := range active {
		if u, ok := res.Catalog.Lookup(a); ok && u.Kind.IsTool() && !seen[a] {
			t.Errorf("active tool unit %s not sent", a)
		}
	}
	sys := systemText(req)
	for _, n := range sent {
		if strings.Contains(sys, `"name":"`+n+`"`) || strings.Contains(sys, n+"(") {
			t.Errorf("the schema of %s is also rendered in the prompt text", n)
		}
	}
	if strings.Contains(strings.ToLower(sys), "registered") {
		t.Errorf("the prompt says \"registered\":\n%s", sys)
	}
}

// TestRelevantToolTurnsVisibleHiddenVisibleAcrossTurns: one registry and
// one host-owned catalog serve turns A, B, C; a relevant tool is shown,
// hidden, shown again without re-registration.
func TestRelevantToolTurnsVisibleHiddenVisibleAcrossTurns(t *testing.T) {
	reg := gitRegistry(t, &recorder{})
	var specs []prompt.ToolSpec
	for _, s := range reg.Specs() {
		specs = append(specs, prompt.ToolSpec{Name: s.Name, Description: s.Description, Schema: s.Schema, Capabilities: s.Capabilities})
	}
	cat, err := prompt.NewCatalog(context.Background(), append(prompt.UnitsFromTools(specs), loop.BuiltinUnits()...), prompt.CatalogOptions{Model: "gpt-4o-mini"})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Release()
	for i, turn := range []struct {
		q    string
		want bool
	}{{gitQuestion, true}, {"what is the capital of norway", false}, {"show me the git diff again", true}} {
		m, fake := model(t, answers("ok"))
		o := opts(t, m, reg, nil)
		o.Catalog = cat
		if _, err := loop.Run(context.Background(), turn.q, o); err != nil {
			t.Fatal(err)
		}
		if got := contains(testfixture.ChatToolNames(fake.Requests()[0]), "git_diff"); got != turn.want {
			t.Fatalf("turn %c: git_diff shown %v, want %v", 'A'+i, got, turn.want)
		}
	}
	if cat.Released() {
		t.Fatal("a host-owned catalog was released by Run")
	}
}

// TestAlwaysToolReachesTheModelOnAnUnrelatedQuestion: retrieve is an
// always unit: shown even when the question names nothing it matches.
func TestAlwaysToolReachesTheModelOnAnUnrelatedQuestion(t *testing.T) {
	tr := newTree(t, nil)
	m, fake := model(t, answers("ok"))
	if _, err := loop.Run(context.Background(), "what is the capital of norway", opts(t, m, nil, tr)); err != nil {
		t.Fatal(err)
	}
	if names := testfixture.ChatToolNames(fake.Requests()[0]); !contains(names, loop.ToolRetrieve) {
		t.Fatalf("retrieve not shown on an unrelated question: %v", names)
	}
}

// TestEphemeralCatalogIsReleasedOnEveryExit: the catalog Run builds from
// the registry is released on success, on a compile failure, on a timeout
// and on cancellation.
func TestEphemeralCatalogIsReleasedOnEveryExit(t *testing.T) {
	reg := gitRegistry(t, &recorder{})
	cases := map[string]struct {
		turn   testfixture.ChatTurn
		prep   func(*loop.Options)
		cancel bool
		stop   loop.Stop
	}{
		"success":       {turn: testfixture.ChatTurn{Content: "ok"}, stop: loop.StopAnswered},
		"compile error": {turn: testfixture.ChatTurn{Content: "ok"}, prep: func(o *loop.Options) { o.Limits.PromptBudget = 5 }, stop: loop.StopCompileError},
		"timeout":       {turn: testfixture.ChatTurn{Hang: true, Content: "partial answer"}, prep: func(o *loop.Options) { o.Limits.Wall = 300e6 }, stop: loop.StopDeadline},
		"cancellation":  {turn: testfixture.ChatTurn{Hang: true, Content: "partial answer"}, cancel: true, stop: loop.StopCanceled},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m, _ := model(t, func(int, testfixture.Request) testfixture.ChatTurn { return tc.turn })
			o := opts(t, m, reg, nil)
			if tc.prep != nil {
				tc.prep(&o)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				o.OnDelta = func(string) { cancel() }
			}
			res, err := loop.Run(ctx, gitQuestion, o)
			if res.Stop != tc.stop {
				t.Fatalf("stop %s (%v), want %s", res.Stop, err, tc.stop)
			}
			if tc.stop != loop.StopAnswered && !errors.Is(err, loop.ErrNoAnswer) {
				t.Fatalf("error %v does not match ErrNoAnswer", err)
			}
			if res.Catalog == nil || !res.Catalog.Released() {
				t.Fatal("the ephemeral catalog was not released")
			}
		})
	}
}
