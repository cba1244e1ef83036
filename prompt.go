package rlm

import (
	"context"

	"github.com/rlm-dev/rlm/prompt"
)

// The prompt compiler (package prompt): which prompt units and tool
// schemas a model sees. A Catalog holds declarative units (never
// handlers); a Compiler decides, with the rules in rules/prompt, which
// are active for a task, packs them to a token budget and renders them.
// See docs/prompt-compiler.md.
type (
	PromptUnit      = prompt.Unit
	Catalog         = prompt.Catalog
	CatalogOptions  = prompt.CatalogOptions
	CatalogError    = prompt.CatalogError
	Compiler        = prompt.Compiler
	CompilerOptions = prompt.CompilerOptions
	CompileInput    = prompt.Input
	CompileOptions  = prompt.Options
	CompileMode     = prompt.Mode
	Compiled        = prompt.Compiled
	Decision        = prompt.Decision
	Ledger          = prompt.Ledger
	ToolSchema      = prompt.ToolSchema
	BudgetError     = prompt.BudgetError
	ToolSpec        = prompt.ToolSpec
)

// Compile modes.
const (
	ModeCompiled = prompt.ModeCompiled
	ModeAllTools = prompt.ModeAllTools
)

// Errors of the prompt compiler, for errors.Is.
var (
	ErrBudget   = prompt.ErrBudget
	ErrReleased = prompt.ErrReleased
	ErrCatalog  = prompt.ErrCatalog
)

// LoadCatalog reads a catalog file (YAML or JSON; see
// prompt.LoadCatalog). The caller owns the catalog and releases it.
func LoadCatalog(ctx context.Context, path string, opts CatalogOptions) (*Catalog, error) {
	return prompt.LoadCatalog(ctx, path, opts)
}

// NewCatalog builds a catalog from units (see prompt.NewCatalog).
func NewCatalog(ctx context.Context, units []PromptUnit, opts CatalogOptions) (*Catalog, error) {
	return prompt.NewCatalog(ctx, units, opts)
}

// NewCompiler loads the prompt rules: the embedded rules/prompt with the
// prompt/ folder of opts.RulesDir layered over them.
func NewCompiler(opts CompilerOptions) (*Compiler, error) {
	return prompt.NewCompiler(opts)
}
