package rlm

import (
	"context"
	"fmt"
	"sync"

	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/tools"
)

// The harness's types, defined in the packages that own them.
type (
	ChatModel     = loop.Model     // an OpenAI-compatible chat endpoint
	AskResult     = loop.Result    // an answer, its citations, usage and trace
	AskLimits     = loop.Limits    // budgets of one Ask
	ToolRegistry  = tools.Registry // trusted tool bindings
	ToolPolicy    = tools.Policy   // what may run
	PromptCatalog = prompt.Catalog // prompt units a host offers the model
	PromptInput   = prompt.Input   // trusted compile inputs (signals, needs, capabilities)
	PromptMode    = prompt.Mode    // compiled or all_tools
)

// AskOptions configure Project.Ask; Model is required.
type AskOptions struct {
	Model   ChatModel
	Catalog *PromptCatalog // host-owned; nil: built from Tools and the built-in tools, released after
	Tools   *ToolRegistry  // the host's trusted tool bindings (may be nil)
	Policy  ToolPolicy
	Mode    PromptMode
	Input   PromptInput
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
// unless the model answered.
func (p *Project) Ask(ctx context.Context, question string, opts AskOptions) (*AskResult, error) {
	c, err := p.compiler()
	if err != nil {
		return &AskResult{Stop: loop.StopInvalid}, err
	}
	return loop.Run(ctx, question, loop.Options{
		Model: opts.Model, Compiler: c, Catalog: opts.Catalog, Registry: opts.Tools, Policy: opts.Policy,
		Mode: opts.Mode, Input: opts.Input, Retriever: p, Limits: opts.Limits, OnDelta: opts.OnDelta,
	})
}

// ReadSource returns the bytes of the project file at path if they are
// exactly those with the content hash contentHash (as hits carry it).
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
// docs/prompt-compiler.md) for model (the tokenizer encoding), with the
// built-in tools (retrieve, recurse) added. Release it when done.
func LoadCatalog(ctx context.Context, path, model string) (*PromptCatalog, error) {
	return prompt.LoadCatalog(ctx, path, prompt.CatalogOptions{Model: model, Extra: loop.BuiltinUnits()})
}

// NewPromptCatalog builds a host-owned catalog of units (see package
// prompt) for model, with the built-in tools added. Release it when done.
func NewPromptCatalog(ctx context.Context, units []prompt.Unit, model string) (*PromptCatalog, error) {
	return prompt.NewCatalog(ctx, units, prompt.CatalogOptions{Model: model, Extra: loop.BuiltinUnits()})
}
