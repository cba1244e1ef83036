package tools

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrorKind names why a call was refused or failed. The vocabulary is
// closed: the constants below are every value Execute produces.
type ErrorKind string

// The ErrorKinds, in the order Execute checks them.
const (
	KindUnknownTool      ErrorKind = "unknown_tool"       // bad name syntax or size, or no such registered tool
	KindNotVisible       ErrorKind = "not_visible"        // registered, but not among the tools shown this turn
	KindCapabilityDenied ErrorKind = "capability_denied"  // the policy does not grant a capability the tool needs
	KindSideEffectDenied ErrorKind = "side_effect_denied" // the policy does not allow the tool's side-effect class
	KindTooLarge         ErrorKind = "too_large"          // arguments over Policy.MaxArgBytes, or result over Policy.MaxResultBytes
	KindInvalidJSON      ErrorKind = "invalid_json"       // arguments not well-formed UTF-8 JSON, not an object, duplicate keys, too deep
	KindInvalidArguments ErrorKind = "invalid_arguments"  // arguments do not validate against the tool's schema
	KindTimeout          ErrorKind = "timeout"            // the per-call timeout (or the caller's deadline) expired
	KindCanceled         ErrorKind = "canceled"           // the caller's context was cancelled
	KindHandlerFailed    ErrorKind = "handler_failed"     // the handler returned an error or panicked
	KindResultInvalid    ErrorKind = "result_invalid"     // the handler's result does not marshal to JSON
)

// Kinds lists every ErrorKind (the closed vocabulary), in check order.
func Kinds() []ErrorKind {
	return []ErrorKind{KindUnknownTool, KindNotVisible, KindCapabilityDenied, KindSideEffectDenied,
		KindTooLarge, KindInvalidJSON, KindInvalidArguments, KindTimeout, KindCanceled,
		KindHandlerFailed, KindResultInvalid}
}

// ErrRefused is matched (errors.Is) by every *CallError.
var ErrRefused = errors.New("tools: call refused")

// CallError is the structured refusal of one call. Message is what the
// model is shown (inside Outcome.Content): it holds no stack trace, no
// secret and at most a short clipped excerpt of the model's own arguments.
// Err, for the host only, is the underlying cause when there is one (a
// handler's error, context.DeadlineExceeded, a schema validation error) and
// is never shown to the model.
type CallError struct {
	Kind    ErrorKind
	Tool    string // the called name, cleaned and clipped to 64 bytes
	Message string
	// Path is, for invalid_arguments, the location in the tool's schema
	// that failed (a JSON Pointer such as "/properties/path", or "root").
	Path string
	Err  error
}

func (e *CallError) Error() string {
	return fmt.Sprintf("tools: %s: %s: %s", e.Tool, e.Kind, e.Message)
}

// Unwrap returns the host-side cause (may be nil).
func (e *CallError) Unwrap() error { return e.Err }

// Is reports whether target is ErrRefused: every CallError is a refusal.
func (e *CallError) Is(target error) bool { return target == ErrRefused }

// content is the JSON text the model is sent for a refused call:
// {"error":{"kind":K,"message":M}}.
func (e *CallError) content() string {
	type body struct {
		Kind    ErrorKind `json:"kind"`
		Message string    `json:"message"`
	}
	b, err := json.Marshal(struct {
		Error body `json:"error"`
	}{body{e.Kind, e.Message}})
	if err != nil { // two strings always marshal
		panic(err)
	}
	return string(b)
}

// ModelError is an error a handler returns when its message is meant for
// the model ("no file notes.txt", "query is empty"). The executor shows
// Message to the model; any other handler error is shown only as a generic
// "the tool failed", because handler errors may carry host paths, URLs or
// credentials. Err, if set, is kept for the host.
type ModelError struct {
	Message string
	Err     error
}

func (e *ModelError) Error() string { return e.Message }

// Unwrap returns the host-side cause (may be nil).
func (e *ModelError) Unwrap() error { return e.Err }

// ModelErrorf formats a *ModelError like fmt.Errorf (so %w wraps a cause
// for the host; its text becomes part of the model-visible message, so only
// wrap errors whose text is safe to show).
func ModelErrorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &ModelError{Message: err.Error(), Err: errors.Unwrap(err)}
}
