package loop

import (
	"context"
	"time"

	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/tools"
)

// Model is the one model boundary: an OpenAI-compatible chat endpoint.
// *providers.ChatClient satisfies it.
type Model interface {
	// Stream sends req and calls onDelta for each increment of the answer;
	// it returns the whole validated answer (content or tool calls).
	Stream(ctx context.Context, req providers.ChatRequest, onDelta func(providers.StreamDelta) error) (*providers.ChatResponse, error)
	// Model is the model id (it chooses the tokenizer encoding).
	Model() string
}

// Retriever answers information needs from a current snapshot of a source
// tree. The façade's *rlm.Project satisfies it.
type Retriever interface {
	// Search re-validates the snapshot against the files' bytes, then runs
	// the retrieval planner on query and returns up to limit hits.
	Search(ctx context.Context, query string, limit int) (*planner.Answer, error)
	// ReadSource returns the bytes of the file at path if they are exactly
	// those with content hash contentHash; an error otherwise (the file
	// changed since it was indexed, or is gone).
	ReadSource(ctx context.Context, path, contentHash string) ([]byte, error)
}

// Limits bound one Run, sub-calls included. Zero fields take the defaults.
type Limits struct {
	Depth        int           // recursion depth below the question (recurse tool); 0: default 2; negative: no recursion (recurse is never offered)
	ModelCalls   int           // model calls in all; default 8
	ToolCalls    int           // tool calls in all; default 16
	Tokens       int           // total tokens (prompt + completion, as the provider reports); default 200,000
	Wall         time.Duration // wall time in all; default 2 minutes
	PromptBudget int           // tokens of one compiled projection (text + tool schemas); default 8,000
	Evidence     int           // hits turned into context per retrieval; default 6
	EvidenceLine int           // lines of code per hit; default 40
	MaxTokens    int           // completion tokens per model call (max_completion_tokens); 0: the server's default
}

// StreamSeparator is what Options.OnDelta receives between the streamed
// texts of two model calls.
const StreamSeparator = "\n\n"

// Defaults of Limits.
const (
	DefaultDepth        = 2
	DefaultModelCalls   = 8
	DefaultToolCalls    = 16
	DefaultTokens       = 200_000
	DefaultWall         = 2 * time.Minute
	DefaultPromptBudget = 8000
	DefaultEvidence     = 6
	DefaultEvidenceLine = 40
)

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	if l.Depth == 0 {
		l.Depth = DefaultDepth
	}
	def(&l.ModelCalls, DefaultModelCalls)
	def(&l.ToolCalls, DefaultToolCalls)
	def(&l.Tokens, DefaultTokens)
	def(&l.PromptBudget, DefaultPromptBudget)
	def(&l.Evidence, DefaultEvidence)
	def(&l.EvidenceLine, DefaultEvidenceLine)
	if l.Wall <= 0 {
		l.Wall = DefaultWall
	}
	return l
}

// Options configure Run.
type Options struct {
	Model    Model            // required
	Compiler *prompt.Compiler // required
	// Catalog is the host's prompt catalog, used as is and never released
	// by Run (add BuiltinUnits to it to offer retrieve and recurse). nil:
	// Run builds an ephemeral catalog from Registry's schemas and the
	// built-in tools, and releases it before returning, whatever happens.
	Catalog *prompt.Catalog
	// Registry holds the host's trusted tool bindings (may be nil). The
	// built-in tools are added to a per-run copy; a host tool named like a
	// built-in is an error.
	Registry *tools.Registry
	// Policy is what this run may execute (capabilities, side effects).
	Policy tools.Policy
	// Mode is the compile mode (compiled or all_tools).
	Mode prompt.Mode
	// Input carries the host's trusted compile inputs (signals, needs,
	// host-selected and denied units, granted capabilities) and per-call
	// context units of its own; Run sets Text to the question and puts its
	// instruction and evidence before the host's Context units.
	Input prompt.Input
	// Retriever enables the retrieve tool and the evidence acquired before
	// the first model call; nil: no retrieval.
	Retriever Retriever
	Limits    Limits
	// OnDelta, if set, receives the text the model streams in the
	// top-level call as it arrives. A model may write text before it calls
	// tools; that text is streamed too but is not Result.Answer (the text
	// of the last model call). Text of a later model call is preceded by
	// one StreamSeparator, so a terminal shows the pieces apart.
	OnDelta func(text string)
	// Temperature and Seed are passed to the model when set.
	Temperature *float64
	Seed        *int64
	// Instruction replaces the loop's own instruction to the model (the
	// mandatory unit "rlm:answer"), e.g. for a host that asks for a
	// structured choice rather than an answer about a source tree.
	Instruction string
	// ResponseSchema, when set, asks for an answer that is one JSON object
	// of this schema (response_format json_schema); the Result's Answer is
	// that JSON text, which the caller decodes and validates.
	ResponseSchema *providers.JSONSchema
}
