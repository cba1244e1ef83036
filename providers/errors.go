package providers

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind classifies a provider failure. Every error returned by this package's
// embedders and chat clients is an [*Error] carrying one of these kinds
// (the only exceptions are errors returned by a caller's own stream callback,
// which are passed through unchanged, and a panic recovered by [Go]).
type Kind string

const (
	// KindConfiguration: the client or the call's input is invalid (missing
	// base URL or model, an empty input list, an empty or oversized text, too
	// many texts). Raised before any network call.
	KindConfiguration Kind = "configuration"
	// KindMissingCredential: the environment variable named by
	// Config.APIKeyEnv is unset or empty. [Error.EnvVar] names it. Raised
	// before any network call.
	KindMissingCredential Kind = "missing_credential"
	// KindTransport: the request did not produce an HTTP response (connection
	// refused or reset, DNS, TLS, a body that broke off while being read).
	KindTransport Kind = "transport"
	// KindTimeout: a per-attempt timeout (Config.Timeout) or the caller's
	// context deadline expired. errors.Is(err, context.DeadlineExceeded) holds.
	KindTimeout Kind = "timeout"
	// KindCanceled: the caller's context was canceled (or a [Future] was
	// canceled). errors.Is(err, context.Canceled) holds.
	KindCanceled Kind = "canceled"
	// KindHTTP: the server answered with a non-2xx status. [Error.Status]
	// holds it; [Error.RetryAfter] holds a parsed Retry-After, if any.
	KindHTTP Kind = "http"
	// KindProvider: the server answered 2xx but the payload is an error object
	// (for example an `{"error": ...}` event inside a stream).
	KindProvider Kind = "provider"
	// KindInvalidResponse: a 2xx answer that is not what the protocol
	// promises: malformed JSON, missing/duplicated/out-of-range embedding
	// indexes, inconsistent dimensions, non-finite numbers, no choices, a
	// structured-output answer that is not JSON.
	KindInvalidResponse Kind = "invalid_response"
	// KindInvalidStream: a streamed chat answer that is malformed or ends
	// without a finish_reason and the `data: [DONE]` terminator.
	KindInvalidStream Kind = "invalid_stream"
	// KindTooLarge: a chat answer's body (the whole JSON answer, or all of
	// a stream's events together) grew past ChatConfig.MaxAnswerBytes; the
	// connection is closed at that point and the call is not retried.
	KindTooLarge Kind = "too_large"
)

// Error is the single error type of this package. Use errors.As to get it and
// switch on Kind. Error never contains an API key: every message that could
// carry one (provider error text, transport errors) is redacted with the key
// in force for the call before it is stored.
type Error struct {
	Kind     Kind
	Op       string // "embed", "chat", "chat_stream", "future"
	Provider string // Config.Provider
	Model    string // configured model
	// Status is the HTTP status code for KindHTTP (0 otherwise).
	Status int
	// Code is the provider's error code or type, when the body carried one.
	Code string
	// EnvVar names the environment variable for KindMissingCredential.
	EnvVar string
	// Message is a short redacted description.
	Message string
	// RetryAfter is the server-requested delay (Retry-After-Ms or Retry-After)
	// for KindHTTP, zero when absent.
	RetryAfter time.Duration
	// Attempts is how many HTTP attempts were made (0 when the error was
	// raised before any network call).
	Attempts int
	// Err is the underlying cause (context.Canceled, context.DeadlineExceeded,
	// a transport error, a decode error). Its text is not part of Error();
	// the redacted form is in Message.
	Err error

	retryable bool
}

// Error renders "providers: <op> <provider>/<model>: <kind>[ <status>]: <message>".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("providers: ")
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteByte(' ')
	}
	if e.Provider != "" || e.Model != "" {
		b.WriteString(e.Provider)
		b.WriteByte('/')
		b.WriteString(e.Model)
		b.WriteString(": ")
	}
	b.WriteString(string(e.Kind))
	if e.Status != 0 {
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(e.Status))
	}
	if e.Code != "" {
		b.WriteString(" (")
		b.WriteString(e.Code)
		b.WriteByte(')')
	}
	if e.EnvVar != "" {
		b.WriteString(": environment variable ")
		b.WriteString(e.EnvVar)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Unwrap returns the cause, so errors.Is(err, context.Canceled) and
// errors.Is(err, context.DeadlineExceeded) work.
func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether this package considered the failure transient
// (transport errors, per-attempt timeouts, HTTP 408/409/429/5xx).
func (e *Error) Retryable() bool { return e.retryable }

// IsKind reports whether err (or anything it wraps) is an [*Error] of kind k.
func IsKind(err error, k Kind) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == k
}

const redacted = "[REDACTED]"

// redact removes secret from s. It is applied to every message that leaves
// this package (errors and logs).
func redact(s, secret string) string {
	if secret == "" || s == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, redacted)
}

// contextError turns a context error into a canceled/timeout *Error.
func contextError(err error, op string) *Error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Kind: KindTimeout, Op: op, Message: "deadline exceeded", Err: err}
	}
	return &Error{Kind: KindCanceled, Op: op, Message: "canceled", Err: err}
}
