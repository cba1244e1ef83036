package loop_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
	"github.com/rlm-dev/rlm/tools"
)

// tree is a project over a copy of testdata/gosample with the retrieval
// planner, as a loop.Retriever (what the façade's Project is).
type tree struct {
	root string
	p    *project.Project
	pl   *planner.Planner
}

func (tr *tree) Search(ctx context.Context, q string, limit int) (*planner.Answer, error) {
	if _, err := tr.p.Refresh(ctx); err != nil {
		return nil, err
	}
	var ans *planner.Answer
	err := tr.p.View(func(b retrieval.Backend, _ store.Identity) (err error) {
		ans, err = tr.pl.Search(ctx, b, q, limit)
		return err
	})
	return ans, err
}

func (tr *tree) ReadSource(ctx context.Context, path, hash string) ([]byte, error) {
	return tr.p.ReadSource(ctx, path, hash)
}

// tripwires are host predicates named after what hostile text asks for;
// any that fires means a goal was built from data.
type tripwires struct {
	mu    sync.Mutex
	fired []string
}

func (tw *tripwires) predicates() []engine.Predicate {
	var ps []engine.Predicate
	for _, n := range []string{"halt", "shell", "evil", "assertz", "consult"} {
		n := n
		ps = append(ps, engine.Predicate{Name: n, Arity: 1, Fn: func(context.Context, []any) (engine.Term, error) {
			tw.mu.Lock()
			tw.fired = append(tw.fired, n)
			tw.mu.Unlock()
			return engine.Atom("true"), nil
		}})
	}
	return ps
}

func newTree(t *testing.T, tw *tripwires) *tree {
	t.Helper()
	root := testfixture.CopyTree(t, "../testdata/gosample")
	p, err := project.Open(context.Background(), root, project.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	var preds []engine.Predicate
	if tw != nil {
		preds = tw.predicates()
	}
	pl, err := planner.New(planner.Options{Capabilities: p.Capabilities(), Predicates: preds})
	if err != nil {
		t.Fatal(err)
	}
	return &tree{root: root, p: p, pl: pl}
}

var (
	compilerOnce sync.Once
	theCompiler  *prompt.Compiler
	compilerErr  error
)

func compiler(t *testing.T) *prompt.Compiler {
	t.Helper()
	compilerOnce.Do(func() { theCompiler, compilerErr = prompt.NewCompiler(prompt.CompilerOptions{}) })
	if compilerErr != nil {
		t.Fatal(compilerErr)
	}
	return theCompiler
}

// model is a chat client talking to a scripted fake endpoint.
func model(t *testing.T, script func(call int, req testfixture.Request) testfixture.ChatTurn) (*providers.ChatClient, *testfixture.ChatFake) {
	t.Helper()
	fake := testfixture.NewChatFake(t, script)
	c, err := providers.NewChatClient(providers.ChatConfig{Config: providers.Config{BaseURL: fake.URL(), Model: "gpt-4o-mini",
		Retry: providers.RetryPolicy{MaxAttempts: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	return c, fake
}

// answers scripts a model that makes the given tool calls, one turn
// each, then answers text.
func answers(text string, calls ...testfixture.FakeToolCall) func(int, testfixture.Request) testfixture.ChatTurn {
	return func(i int, _ testfixture.Request) testfixture.ChatTurn {
		if i < len(calls) {
			return testfixture.ChatTurn{ToolCalls: []testfixture.FakeToolCall{calls[i]}}
		}
		return testfixture.ChatTurn{Content: text}
	}
}

// recorder is a tool whose handler counts the runs that reach its effect.
type recorder struct {
	runs atomic.Int64
	args []string
	mu   sync.Mutex
	dir  string
}

func (r *recorder) root() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dir == "" {
		r.dir, _ = os.MkdirTemp("", "recorder")
	}
	return r.dir
}

func (r *recorder) tool(name, description string, caps ...string) tools.Tool {
	return tools.Tool{Name: name, Description: description, Capabilities: caps, SideEffect: tools.SideEffectRead,
		Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","pattern":"^[A-Za-z0-9_./-]{1,200}$"},"n":{"type":"integer"}},"additionalProperties":false}`),
		Handler: func(_ context.Context, args json.RawMessage) (any, error) {
			// Path containment is the handler's job (the executor knows no
			// paths): a path outside the root is refused here, before any
			// effect.
			var a struct{ Path string }
			_ = json.Unmarshal(args, &a)
			if a.Path != "" {
				if _, err := tools.ResolveInside(r.root(), a.Path); err != nil {
					return nil, tools.ModelErrorf("path %q: %v", a.Path, err)
				}
			}
			r.runs.Add(1)
			r.mu.Lock()
			r.args = append(r.args, string(args))
			r.mu.Unlock()
			return map[string]string{"result": "ok from " + name}, nil
		}}
}

// gitRegistry has a git tool and an unrelated issue-tracker tool.
func gitRegistry(t *testing.T, rec *recorder) *tools.Registry {
	t.Helper()
	reg := tools.NewRegistry()
	for _, tl := range []tools.Tool{
		rec.tool("git_diff", "Show the git diff of the working tree: the changes to review before a commit."),
		rec.tool("project_search", "Search the issue tracker's tickets and milestones of the project management board."),
	} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

func opts(t *testing.T, m loop.Model, reg *tools.Registry, r loop.Retriever) loop.Options {
	return loop.Options{Model: m, Compiler: compiler(t), Registry: reg, Retriever: r,
		Limits: loop.Limits{Wall: 20 * time.Second}}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func systemText(req testfixture.Request) string {
	for _, m := range testfixture.ChatMessages(req) {
		if m[0] == "system" || m[0] == "developer" {
			return m[1]
		}
	}
	return ""
}

func toolMessages(req testfixture.Request) []string {
	var out []string
	for _, m := range testfixture.ChatMessages(req) {
		if m[0] == "tool" {
			out = append(out, m[1])
		}
	}
	return out
}

var _ = strings.Contains
