package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rlm-dev/rlm/internal/textclip"
)

// Call is one tool call as the model sent it: untrusted data. ID is the
// provider's tool-call id (echoed into the Outcome), Name the tool the
// model asked for, Arguments the JSON text of its argument object.
type Call struct {
	ID, Name, Arguments string
}

// Outcome is one executed or refused call. Content is what the model is
// sent back as the tool message: the JSON text of the handler's result
// when OK, else {"error":{"kind":K,"message":M}} from Err. Name is the
// called name, cleaned and clipped to MaxNameBytes. Elapsed covers the
// whole of Execute (checks and handler).
type Outcome struct {
	CallID, Name string
	OK           bool
	Content      string
	Err          *CallError
	Elapsed      time.Duration
}

// Executor runs calls against the full trusted registry under a policy.
// It is safe for concurrent use (it only reads Registry and Policy).
type Executor struct {
	Registry *Registry
	Policy   Policy
}

// excerpt is how many bytes of model-sent text a message may quote.
const excerpt = 64

// Execute checks call and runs it. visible is the set of tool names the
// model was shown this turn (the compiled projection); a registered tool
// not among them is refused with not_visible — seeing a tool grants
// nothing, and not seeing it forbids it. The checks run in this order and
// the first failure refuses the call; nothing runs before all pass:
//
//  1. name syntax and size, then registered        → unknown_tool
//  2. among visible                                → not_visible
//  3. Policy.Allows                                → capability_denied, side_effect_denied
//  4. len(Arguments) ≤ MaxArgBytes                 → too_large
//  5. UTF-8 JSON, one object, no duplicate keys
//     (also up to case), ≤ MaxArgDepth deep        → invalid_json
//  6. valid against the tool's schema              → invalid_arguments (CallError.Path)
//  7. ctx not done, then the handler under the
//     tool's timeout and ctx                       → timeout, canceled, handler_failed (error or panic)
//  8. the result marshals to JSON, ≤ MaxResultBytes → result_invalid, too_large
//
// Empty (or all-blank) Arguments mean no arguments and are read as {}.
func (e *Executor) Execute(ctx context.Context, call Call, visible []string) Outcome {
	start := time.Now()
	name := textclip.Clean(call.Name, MaxNameBytes)
	out := Outcome{CallID: call.ID, Name: name}
	content, cerr := e.execute(ctx, call, visible)
	if cerr != nil {
		cerr.Tool = name
		out.Err, out.Content = cerr, cerr.content()
	} else {
		out.OK, out.Content = true, string(content)
	}
	out.Elapsed = time.Since(start)
	return out
}

// Check runs every check Execute makes before a handler would run — name,
// registration, visibility, policy, argument size, JSON, schema, context —
// and runs nothing. It returns nil if Execute would call the handler, or
// the *CallError Execute would return. Hosts use it to validate a call
// they will run later (e.g. an intent the user must confirm).
func (e *Executor) Check(ctx context.Context, call Call, visible []string) *CallError {
	_, _, cerr := e.check(ctx, call, visible)
	if cerr != nil {
		cerr.Tool = textclip.Clean(call.Name, MaxNameBytes)
	}
	return cerr
}

func (e *Executor) execute(ctx context.Context, call Call, visible []string) ([]byte, *CallError) {
	tool, args, cerr := e.check(ctx, call, visible)
	if cerr != nil {
		return nil, cerr
	}
	return e.run(ctx, tool, args)
}

// check is steps 1–6 of Execute: everything before the handler runs.
func (e *Executor) check(ctx context.Context, call Call, visible []string) (Tool, json.RawMessage, *CallError) {
	refuse := func(kind ErrorKind, err error, format string, args ...any) (Tool, json.RawMessage, *CallError) {
		return Tool{}, nil, &CallError{Kind: kind, Message: fmt.Sprintf(format, args...), Err: err}
	}
	quoted := func(s string) string { return fmt.Sprintf("%q", textclip.Clean(s, excerpt)) }

	if !ValidName(call.Name) {
		return refuse(KindUnknownTool, nil, "no tool is named %s (names match ^[A-Za-z0-9_-]{1,64}$)", quoted(call.Name))
	}
	ent, ok := e.Registry.lookup(call.Name)
	if !ok {
		return refuse(KindUnknownTool, nil, "no tool is named %s", quoted(call.Name))
	}
	tool := ent.tool
	if !slices.Contains(visible, call.Name) {
		return refuse(KindNotVisible, nil, "tool %s is not available in this turn", tool.Name)
	}
	if err := e.Policy.Allows(tool); err != nil {
		return Tool{}, nil, err.(*CallError)
	}
	args := call.Arguments
	if max := e.Policy.maxArgBytes(); len(args) > max {
		return refuse(KindTooLarge, nil, "arguments are %d bytes, more than the limit of %d", len(args), max)
	}
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	if err := checkJSON(args, MaxArgDepth); err != nil {
		return refuse(KindInvalidJSON, err, "arguments must be one JSON object: %v", err)
	}
	var doc any
	if err := json.Unmarshal([]byte(args), &doc); err != nil {
		return refuse(KindInvalidJSON, err, "arguments must be one JSON object: %s", textclip.Clean(err.Error(), 120))
	}
	if err := checkShadowedKeys(doc, ent.raw, ""); err != nil {
		return refuse(KindInvalidArguments, err, "arguments of %s: %v", tool.Name, err)
	}
	if err := ent.schema.Validate(doc); err != nil {
		path, msg := splitValidation(err)
		_, _, cerr := refuse(KindInvalidArguments, err, "arguments do not match the schema of %s at %s: %s",
			tool.Name, path, textclip.Clean(msg, 160))
		cerr.Path = path
		return Tool{}, nil, cerr
	}
	if err := ctx.Err(); err != nil {
		return refuse(contextKind(err), err, "the call was not started: %s", contextWord(err))
	}
	return tool, json.RawMessage(args), nil
}

// result is what a handler goroutine reports.
type result struct {
	content []byte
	err     *CallError
}

// run calls tool's handler under its timeout and ctx, recovering a panic,
// and marshals and bounds the result.
func (e *Executor) run(ctx context.Context, tool Tool, args json.RawMessage) ([]byte, *CallError) {
	timeout := tool.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan result, 1) // buffered: a handler that outlives the call never blocks
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{err: &CallError{Kind: KindHandlerFailed, Message: "the tool failed (it panicked)",
					Err: fmt.Errorf("tools: handler %s panicked: %v", tool.Name, p)}}
			}
		}()
		done <- e.finish(cctx, tool, args)
	}()
	select {
	case r := <-done:
		return r.content, r.err
	case <-cctx.Done():
		err := cctx.Err()
		kind := contextKind(err)
		msg := fmt.Sprintf("the call was %s", contextWord(err))
		if kind == KindTimeout && ctx.Err() == nil {
			msg = fmt.Sprintf("the call took longer than its timeout of %v", timeout)
		}
		return nil, &CallError{Kind: kind, Message: msg, Err: err}
	}
}

// finish runs the handler (in run's goroutine) and turns its answer into
// a result.
func (e *Executor) finish(ctx context.Context, tool Tool, args json.RawMessage) result {
	v, err := tool.Handler(ctx, args)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
			return result{err: &CallError{Kind: contextKind(cerr), Message: "the call was " + contextWord(cerr), Err: err}}
		}
		msg := "the tool failed"
		if me, ok := errors.AsType[*ModelError](err); ok {
			msg = "the tool failed: " + textclip.Clean(me.Message, 400)
		}
		return result{err: &CallError{Kind: KindHandlerFailed, Message: msg, Err: err}}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return result{err: &CallError{Kind: KindResultInvalid, Message: "the tool's result is not JSON", Err: err}}
	}
	if max := e.Policy.maxResultBytes(); len(b) > max {
		return result{err: &CallError{Kind: KindTooLarge,
			Message: fmt.Sprintf("the tool's result is %d bytes, more than the limit of %d", len(b), max)}}
	}
	return result{content: b}
}

func contextKind(err error) ErrorKind {
	if errors.Is(err, context.DeadlineExceeded) {
		return KindTimeout
	}
	return KindCanceled
}

func contextWord(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "past its deadline"
	}
	return "canceled"
}
