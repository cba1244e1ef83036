package loop_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/tools"
)

// TestCatalogToolsOnlyReachTheModelWhenBoundAllowedAndTheSame: a host
// catalog may name tools the registry lacks, bind with another schema, or
// the policy forbids; none of them is offered (the trace says why), and a
// call to one anyway runs nothing. A tool present and allowed everywhere
// is offered.
func TestCatalogToolsOnlyReachTheModelWhenBoundAllowedAndTheSame(t *testing.T) {
	rec := &recorder{}
	reg := tools.NewRegistry()
	bound := rec.tool("git_diff", "Show the git diff of the working tree.")
	other := rec.tool("git_log", "Show the git log of the working tree.")
	pushy := rec.tool("git_push", "Push git changes to the remote.")
	pushy.SideEffect = tools.SideEffectWrite
	for _, tl := range []tools.Tool{bound, other, pushy} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	unit := func(id, schema string) prompt.Unit {
		return prompt.Unit{ID: id, Kind: prompt.KindTool, Title: id, Description: "git " + id, Schema: json.RawMessage(schema),
			Activation: prompt.ActivationAlways, Source: "catalog"}
	}
	cat, err := prompt.NewCatalog(context.Background(), []prompt.Unit{
		unit("git_diff", string(bound.Schema)),
		unit("git_log", `{"type":"object","properties":{"path":{"type":"string"}}}`), // looser than the binding
		unit("git_push", string(pushy.Schema)),
		unit("rm_rf", `{"type":"object"}`), // no binding
	}, prompt.CatalogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Release()
	calls := []testfixture.FakeToolCall{
		{ID: "1", Name: "rm_rf", Arguments: `{}`},
		{ID: "2", Name: "git_log", Arguments: `{"path":"../x"}`},
		{ID: "3", Name: "git_push", Arguments: `{}`},
	}
	m, fake := model(t, answers("done", calls...))
	o := opts(t, m, reg, nil)
	o.Catalog = cat
	res, err := loop.Run(context.Background(), "show the git diff and log, then push", o)
	if err != nil {
		t.Fatal(err)
	}
	offered := testfixture.ChatToolNames(fake.Requests()[0])
	if !slices.Contains(offered, "git_diff") {
		t.Errorf("the bound, allowed tool git_diff was not offered: %v", offered)
	}
	for _, name := range []string{"git_log", "git_push", "rm_rf"} {
		if slices.Contains(offered, name) {
			t.Errorf("%s was offered: %v", name, offered)
		}
	}
	if rec.runs.Load() != 0 {
		t.Errorf("%d handler runs for tools never offered", rec.runs.Load())
	}
	var denied []string
	for _, e := range res.Trace {
		if e.Kind == loop.EventCompile {
			denied = e.Denied
			break
		}
	}
	for _, want := range []string{"git_log: its schema differs", "git_push: the run's policy", "rm_rf: no tool of this name"} {
		if !slices.ContainsFunc(denied, func(d string) bool { return strings.HasPrefix(d, want) }) {
			t.Errorf("the trace does not say %q: %q", want, denied)
		}
	}
}

// TestRetrieveReturnsAtMostTheHostsEvidenceLimit: whatever limit the
// model asks for (any JSON spelling of an integer), retrieve returns at
// most Limits.Evidence hits.
func TestRetrieveReturnsAtMostTheHostsEvidenceLimit(t *testing.T) {
	tr := newTree(t, nil)
	for _, limit := range []string{"20", "1e1", "3.0"} {
		t.Run(limit, func(t *testing.T) {
			m, fake := model(t, answers("done", testfixture.FakeToolCall{ID: "r", Name: "retrieve", Arguments: `{"query":"func","limit":` + limit + `}`}))
			o := opts(t, m, nil, tr)
			o.Limits.Evidence = 2
			if _, err := loop.Run(context.Background(), "what functions are there?", o); err != nil {
				t.Fatal(err)
			}
			msgs := toolMessages(fake.Requests()[1])
			if len(msgs) != 1 {
				t.Fatalf("tool messages: %q", msgs)
			}
			var got struct {
				Hits []json.RawMessage `json:"hits"`
			}
			if err := json.Unmarshal([]byte(msgs[0]), &got); err != nil {
				t.Fatalf("retrieve's result %q: %v", msgs[0], err)
			}
			if len(got.Hits) == 0 || len(got.Hits) > 2 {
				t.Fatalf("%d hits for limit %s, want 1..2 (the host's limit): %s", len(got.Hits), limit, msgs[0])
			}
		})
	}
}

var errHostPath = errors.New("open /home/alice/.secret/index.db: permission denied")

// TestRetrieverErrorsReachTheModelAsAFixedSentence: when a retrieve call's
// search fails, the model is told the search failed and nothing of the
// cause (which may name host paths); the run goes on.
func TestRetrieverErrorsReachTheModelAsAFixedSentence(t *testing.T) {
	r := &flaky{}
	m, fake := model(t, answers("done", testfixture.FakeToolCall{ID: "r", Name: "retrieve", Arguments: `{"query":"Fetch"}`}))
	if _, err := loop.Run(context.Background(), "where is Fetch?", opts(t, m, nil, r)); err != nil {
		t.Fatal(err)
	}
	msgs := toolMessages(fake.Requests()[1])
	if len(msgs) != 1 || !strings.Contains(msgs[0], "the search failed") || strings.Contains(msgs[0], "alice") {
		t.Fatalf("tool message %q: want the fixed sentence, without the cause", msgs)
	}
}

// flaky answers the first search (the evidence acquired before the first
// model call) and fails the rest.
type flaky struct{ searches int }

func (f *flaky) Search(context.Context, string, int) (*planner.Answer, error) {
	f.searches++
	if f.searches == 1 {
		return &planner.Answer{}, nil
	}
	return nil, errHostPath
}

func (f *flaky) ReadSource(context.Context, string, string) ([]byte, error) { return nil, errHostPath }

// TestEvidenceWhoseFileChangedBeforeTheAnswerIsNotCited: a citation is
// re-read when the run ends; evidence whose file changed meanwhile is
// reported not current and never cited, though the answer names it.
func TestEvidenceWhoseFileChangedBeforeTheAnswerIsNotCited(t *testing.T) {
	tr := newTree(t, nil)
	path := filepath.Join(tr.root, "sub", "client.go")
	m, _ := model(t, func(i int, _ testfixture.Request) testfixture.ChatTurn {
		src, _ := os.ReadFile(path)
		if err := os.WriteFile(path, append(src, []byte("\n// edited\n")...), 0o644); err != nil {
			t.Error(err)
		}
		return testfixture.ChatTurn{Content: "Fetch is defined at sub/client.go:6."}
	})
	res, err := loop.Run(context.Background(), "where is Fetch defined?", opts(t, m, nil, tr))
	if err != nil {
		t.Fatal(err)
	}
	var seen bool
	for _, c := range res.Citations {
		if c.Path != "sub/client.go" {
			continue
		}
		seen = true
		if c.Current || c.Cited {
			t.Errorf("%s: current %v, cited %v after its file changed", c, c.Current, c.Cited)
		}
	}
	if !seen {
		t.Fatalf("sub/client.go was not given as evidence: %+v", res.Citations)
	}
}

// TestTextStreamedBeforeAToolCallIsSetApart: text the model writes before
// it calls a tool is streamed, then a separator, then the answer; the
// Result's Answer is the answer alone.
func TestTextStreamedBeforeAToolCallIsSetApart(t *testing.T) {
	rec := &recorder{}
	m, _ := model(t, func(i int, _ testfixture.Request) testfixture.ChatTurn {
		if i == 0 {
			return testfixture.ChatTurn{Content: "Let me look.", ToolCalls: []testfixture.FakeToolCall{{ID: "1", Name: "git_diff", Arguments: `{}`}}}
		}
		return testfixture.ChatTurn{Content: "No changes."}
	})
	o := opts(t, m, gitRegistry(t, rec), nil)
	o.Mode = prompt.ModeAllTools
	var got strings.Builder
	o.OnDelta = func(s string) { got.WriteString(s) }
	res, err := loop.Run(context.Background(), "show the git diff", o)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Let me look." + loop.StreamSeparator + "No changes."; got.String() != want || res.Answer != "No changes." {
		t.Fatalf("streamed %q, answer %q; want streamed %q, answer %q", got.String(), res.Answer, want, "No changes.")
	}
}

// TestTokenCountsFromTheServerAreClamped: negative counts give no budget
// back and huge ones do not overflow: the usage stays within [0, max].
func TestTokenCountsFromTheServerAreClamped(t *testing.T) {
	for _, u := range [][3]int{{-1 << 40, -5, -1 << 50}, {1 << 62, 1 << 62, 1 << 62}} {
		m, _ := model(t, func(i int, _ testfixture.Request) testfixture.ChatTurn {
			return testfixture.ChatTurn{Content: "ok", Usage: u}
		})
		res, _ := loop.Run(context.Background(), "hi", opts(t, m, nil, nil))
		us := res.Usage
		for _, n := range []int{us.PromptTokens, us.CompletionTokens, us.TotalTokens} {
			if n < 0 || n > 3*loop.MaxReportedTokens {
				t.Errorf("usage %v from server counts %v", us, u)
			}
		}
		if us.TotalTokens < us.PromptTokens+us.CompletionTokens {
			t.Errorf("total %d below prompt %d + completion %d", us.TotalTokens, us.PromptTokens, us.CompletionTokens)
		}
	}
}

// TestTwoToolCallsUnderOneIDRunOnlyTheFirst: a model answer with two
// calls sharing an id runs the first; the second is refused (the model
// is told why, the trace says duplicate_call_id) and its handler never
// runs.
func TestTwoToolCallsUnderOneIDRunOnlyTheFirst(t *testing.T) {
	rec := &recorder{}
	m, fake := model(t, func(i int, _ testfixture.Request) testfixture.ChatTurn {
		if i == 0 {
			return testfixture.ChatTurn{ToolCalls: []testfixture.FakeToolCall{
				{ID: "call_1", Name: "git_diff", Arguments: `{}`},
				{ID: "call_1", Name: "project_search", Arguments: `{}`},
			}}
		}
		return testfixture.ChatTurn{Content: "done"}
	})
	o := opts(t, m, gitRegistry(t, rec), nil)
	o.Mode = prompt.ModeAllTools
	res, err := loop.Run(context.Background(), "show the git diff", o)
	if err != nil {
		t.Fatal(err)
	}
	if n := rec.runs.Load(); n != 1 {
		t.Fatalf("%d handler runs, want 1 (the first call only)", n)
	}
	msgs := toolMessages(fake.Requests()[1])
	if len(msgs) != 2 || !strings.Contains(msgs[1], "duplicate_call_id") || strings.Contains(msgs[0], "duplicate") {
		t.Fatalf("tool messages %q: want the first call's result, then a duplicate_call_id refusal", msgs)
	}
	var refused bool
	for _, e := range res.Trace {
		refused = refused || e.Kind == loop.EventTool && e.Refusal == "duplicate_call_id"
	}
	if !refused {
		t.Error("the trace does not record the refusal")
	}
}
