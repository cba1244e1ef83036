package loop

import (
	"errors"
	"fmt"
	"time"

	"github.com/rlm-dev/rlm/prompt"
)

// Stop says why a Run ended. Closed vocabulary.
type Stop string

// Stop reasons.
const (
	StopAnswered      Stop = "answered"       // the model answered in prose
	StopTruncated     Stop = "truncated"      // the answer hit the completion-token limit (finish_reason length)
	StopEmpty         Stop = "empty"          // the model ended its turn with neither text nor a tool call
	StopRefused       Stop = "refused"        // the model refused, or the content filter stopped it
	StopBudget        Stop = "budget"         // a budget ran out (model calls, tool calls, tokens, depth)
	StopDeadline      Stop = "deadline"       // the wall-time budget or the caller's deadline passed
	StopCanceled      Stop = "canceled"       // the caller's context was cancelled
	StopProviderError Stop = "provider_error" // the model endpoint failed (a *providers.Error)
	StopCompileError  Stop = "compile_error"  // the projection could not be compiled (e.g. mandatory units over budget)
	StopRetrieveError Stop = "retrieve_error" // acquiring the initial evidence failed
	StopInvalid       Stop = "invalid"        // the options are unusable
)

// Errors a *StopError matches with errors.Is (besides its cause).
var (
	// ErrBudget: a budget ran out.
	ErrBudget = errors.New("loop: budget exhausted")
	// ErrNoAnswer: the run ended without a complete answer.
	ErrNoAnswer = errors.New("loop: no answer")
)

// StopError is why a Run ended without a complete answer. It matches
// ErrNoAnswer, ErrBudget for StopBudget, and unwraps to the cause
// (context.DeadlineExceeded, context.Canceled, a *providers.Error, a
// *prompt.BudgetError, ...).
type StopError struct {
	Stop   Stop
	Detail string // e.g. "model calls: 8 of 8 used"
	Err    error
}

func (e *StopError) Error() string {
	msg := "loop: stopped (" + string(e.Stop) + ")"
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the cause.
func (e *StopError) Unwrap() error { return e.Err }

// Is matches ErrNoAnswer, and ErrBudget for a budget stop.
func (e *StopError) Is(target error) bool {
	return target == ErrNoAnswer || target == ErrBudget && e.Stop == StopBudget
}

// Citation is evidence the model was given: a definition's location and
// the content hash of the bytes it was read from.
type Citation struct {
	Path        string `json:"path"`
	StartLine   int    `json:"start_line"`
	EndLine     int    `json:"end_line"`
	Symbol      string `json:"symbol,omitempty"`
	ContentHash string `json:"content_hash"`
	// Current is true when, as Run returned, the file still had the bytes
	// this evidence was read from (Retriever.ReadSource succeeded).
	Current bool `json:"current"`
	// Cited is true when the evidence is current and the answer cites it:
	// "path:line" with the line in range, or the path and the symbol's
	// name both mentioned. False for evidence given but not cited.
	Cited bool `json:"cited"`
}

// String is "path:line (hash)".
func (c Citation) String() string {
	return fmt.Sprintf("%s:%d (%s)", c.Path, c.StartLine, c.ContentHash)
}

// Usage counts what a Run used, sub-calls included.
type Usage struct {
	ModelCalls       int `json:"model_calls"`
	ToolCalls        int `json:"tool_calls"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	StaleEvidence    int `json:"stale_evidence"` // hits dropped because their file changed since indexing
}

// Result is what a Run produced. It is never nil.
type Result struct {
	Answer    string        `json:"answer"`
	Stop      Stop          `json:"stop"`
	Citations []Citation    `json:"citations"`
	Usage     Usage         `json:"usage"`
	Elapsed   time.Duration `json:"elapsed_ns"`
	Trace     []Event       `json:"trace"`
	// Catalog is the ephemeral catalog Run built (nil when the host gave
	// one); it is released when Run returns.
	Catalog *prompt.Catalog `json:"-"`
}
