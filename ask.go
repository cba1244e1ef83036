package rlm

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/tools"
)

// The harness's types, defined in the packages that own them: the prompt
// compiler (package prompt, docs/prompt-compiler.md), the completion loop
// (package loop, docs/completion-runtime.md) and the tool registry and
// executor (package tools).
type (
	Catalog        = prompt.Catalog  // prompt units a host offers the model; Release when done
	PromptUnit     = prompt.Unit     // one unit: a tool schema, instruction, skill, resource or context
	Compiler       = prompt.Compiler // decides which units a model sees (rules in rules/prompt)
	CompileInput   = prompt.Input    // the task and the host's trusted inputs (signals, needs, capabilities)
	CompileOptions = prompt.Options  // mode, token budget, model
	CompileMode    = prompt.Mode     // ModeCompiled or ModeAllTools
	Compiled       = prompt.Compiled // the projection: text, tool schemas, decisions, ledger, fingerprint
	Decision       = prompt.Decision // one unit in or out, and why
	ChatModel      = loop.Model      // an OpenAI-compatible chat endpoint (NewChatModel)
	AskResult      = loop.Result     // an answer, its citations, usage and trace
	AskLimits      = loop.Limits     // budgets of one Ask
	ToolRegistry   = tools.Registry  // trusted tool bindings
	ToolPolicy     = tools.Policy    // what may run
)

// Compile modes: the rules' projection, or every tool (compatibility).
const (
	ModeCompiled = prompt.ModeCompiled
	ModeAllTools = prompt.ModeAllTools
)

// AskOptions configure Project.Ask; Model is required.
type AskOptions struct {
	Model   ChatModel
	Catalog *Catalog      // host-owned; nil: built from Tools and the built-in tools, released after
	Tools   *ToolRegistry // the host's trusted tool bindings (may be nil)
	Policy  ToolPolicy
	Mode    CompileMode
	Input   CompileInput
	Limits  AskLimits
	OnDelta func(text string) // the streamed answer
}

// NewChatModel is an OpenAI-compatible chat endpoint: baseURL such as
// https://api.openai.com/v1, model id, and keyEnv, the name of the
// environment variable holding the key (read per call, never logged; ""
// for none).
func NewChatModel(baseURL, model, keyEnv string) (ChatModel, error) {
	return providers.NewChatClient(providers.ChatConfig{Config: providers.Config{BaseURL: baseURL, Model: model, APIKeyEnv: keyEnv}})
}

// Ask answers question with the completion loop over this project: the
// retrieval planner acquires evidence from a fresh snapshot, the prompt
// compiler decides what the model sees, the model may call the retrieve
// tool (and recurse) and the host's tools, each call validated by the
// executor. The result is never nil; the error is a *loop.StopError
// unless the model answered (with Options.Cases, also one revising the
// cases whose evidence the answer was given, which it then joins).
// With Options.Cases the answer's citations revise the kept cases its
// evidence came from: which of their evidence it cited (Case.Cited,
// Case.Ignored, Case.UsedEvidence).
func (p *Project) Ask(ctx context.Context, question string, opts AskOptions) (*AskResult, error) {
	c, err := p.compiler()
	if err != nil {
		return &AskResult{Stop: loop.StopInvalid}, err
	}
	lo := loop.Options{
		Model: opts.Model, Compiler: c, Catalog: opts.Catalog, Registry: opts.Tools, Policy: opts.Policy,
		Mode: opts.Mode, Input: opts.Input, Retriever: p, Limits: opts.Limits, OnDelta: opts.OnDelta,
	}
	if p.cases == nil {
		return loop.Run(ctx, question, lo)
	}
	// With cases, the answer's citations revise the cases its evidence
	// came from (cases.Store.ReviseEvidence).
	rec := &caseRecorder{p: p, from: map[evidenceKey]int64{}}
	lo.Retriever = rec
	res, err := loop.Run(ctx, question, lo)
	if rerr := rec.reviseCited(context.WithoutCancel(ctx), res.Citations); rerr != nil {
		err = errors.Join(err, rerr)
	}
	return res, err
}

// ReadSource returns the bytes of the project file at path if they are
// exactly those with the content hash contentHash (as hits carry it). Only
// files of the project can be read (project.Project.ReadSource: not
// ignored, not under .git or the knowledge base); any other path is
// reported as gone (ErrStale).
func (p *Project) ReadSource(ctx context.Context, path, contentHash string) ([]byte, error) {
	return p.proj.ReadSource(ctx, path, contentHash)
}

// compilerOnce builds the project's prompt compiler (the same rules
// directory as the planner) on first use.
type compilerOnce struct {
	once sync.Once
	c    *prompt.Compiler
	err  error
}

func (p *Project) compiler() (*prompt.Compiler, error) {
	p.comp.once.Do(func() {
		p.comp.c, p.comp.err = prompt.NewCompiler(prompt.CompilerOptions{RulesDir: p.opts.Rules, Inferences: p.opts.Inferences})
		if p.comp.err != nil {
			p.comp.err = fmt.Errorf("rlm: prompt compiler: %w", p.comp.err)
		}
	})
	return p.comp.c, p.comp.err
}

// LoadCatalog reads a prompt catalog file (YAML or JSON, see
// docs/prompt-compiler.md) for model (which chooses the tokenizer), with
// the completion loop's built-in tools (retrieve, recurse) added unless
// the file defines units of those ids. Release it when done.
func LoadCatalog(ctx context.Context, path, model string) (*Catalog, error) {
	return prompt.LoadCatalog(ctx, path, prompt.CatalogOptions{Model: model, Extra: loop.BuiltinUnits()})
}

// NewCompiler loads the prompt rules: the embedded rules/prompt with the
// prompt/ folder of rulesDir ("" for none) layered over them.
func NewCompiler(rulesDir string) (*Compiler, error) {
	return prompt.NewCompiler(prompt.CompilerOptions{RulesDir: rulesDir})
}

// NewCatalog builds a host-owned catalog of units for model, with the
// built-in tools added as LoadCatalog does. Release it when done.
func NewCatalog(ctx context.Context, units []PromptUnit, model string) (*Catalog, error) {
	return prompt.NewCatalog(ctx, units, prompt.CatalogOptions{Model: model, Extra: loop.BuiltinUnits()})
}
