package loop

import (
	"sync"
	"time"
)

// Event kinds of the trace.
const (
	EventEvidence = "evidence" // the retrieval planner ran (initially, or for a retrieve call)
	EventCompile  = "compile"  // a projection was compiled
	EventModel    = "model"    // a model call returned
	EventTool     = "tool"     // a tool call was validated and run, or refused
	EventStop     = "stop"     // the run (or a sub-call) ended
)

// Event is one entry of the trace. It holds metadata only: never the
// model's reasoning, never prompt or answer text beyond sizes, never
// secrets.
type Event struct {
	Kind    string        `json:"kind"`
	Depth   int           `json:"depth"`
	At      time.Duration `json:"at_ns"`                // since the run started
	Elapsed time.Duration `json:"elapsed_ns,omitempty"` // of this step
	// evidence
	Query string   `json:"query,omitempty"` // clipped
	Class string   `json:"class,omitempty"`
	Plan  []string `json:"plan,omitempty"` // step -> verdict rule
	Hits  int      `json:"hits,omitempty"`
	Stale int      `json:"stale,omitempty"`
	Gap   string   `json:"gap,omitempty"`
	// compile
	Fingerprint string   `json:"fingerprint,omitempty"`
	Active      []string `json:"active,omitempty"`
	ToolCount   int      `json:"tool_count,omitempty"`
	Tokens      int      `json:"tokens,omitempty"`
	Mode        string   `json:"mode,omitempty"`
	Denied      []string `json:"denied,omitempty"` // tool units not offered, "id: reason" (see toolDenials)
	// model
	Usage        *TokenUsage `json:"usage,omitempty"`
	FinishReason string      `json:"finish_reason,omitempty"`
	ToolCalls    int         `json:"tool_calls,omitempty"`
	AnswerBytes  int         `json:"answer_bytes,omitempty"`
	// tool
	Tool     string `json:"tool,omitempty"`
	CallID   string `json:"call_id,omitempty"`
	ArgBytes int    `json:"arg_bytes,omitempty"`
	OK       bool   `json:"ok,omitempty"`
	Refusal  string `json:"refusal,omitempty"` // tools.ErrorKind
	// stop
	Stop   string `json:"stop,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// tracer collects events from a run and its sub-calls.
type tracer struct {
	mu     sync.Mutex
	start  time.Time
	events []Event
}

func (t *tracer) add(e Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e.At = time.Since(t.start)
	t.events = append(t.events, e)
}

func (t *tracer) all() []Event {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Event(nil), t.events...)
}
