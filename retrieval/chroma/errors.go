package chroma

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/rlm-dev/rlm/retrieval"
)

// Sentinel errors of this package; match with errors.Is. Errors from the
// server or the transport are *Error values, which also match the sentinel
// of their class (see Error.Unwrap).
var (
	// ErrTransport: no HTTP response arrived (connection refused, reset,
	// DNS failure, timeout, cancellation). The *Error has Status 0.
	ErrTransport = errors.New("chroma: transport failure")
	// ErrNotFound: the server answered 404 (tenant, database or collection
	// missing).
	ErrNotFound = errors.New("chroma: not found")
	// ErrServer: the server answered 5xx.
	ErrServer = errors.New("chroma: server error")
	// ErrMalformedResponse: a 2xx answer whose body could not be decoded or
	// whose arrays disagree in length.
	ErrMalformedResponse = errors.New("chroma: malformed response")
	// ErrMismatch: an existing collection does not match this backend's
	// embedder model, dimensions or distance space.
	ErrMismatch = errors.New("chroma: collection does not match embedder")
	// ErrClosed: the Backend was closed.
	ErrClosed = errors.New("chroma: backend closed")
	// ErrNoEmbedder: a text operation (Upsert, vector Search) on a Backend
	// opened without an Embedder. It wraps retrieval.ErrUnsupported.
	ErrNoEmbedder = fmt.Errorf("%w: chroma backend has no embedder; use UpsertVectors/QueryVector", retrieval.ErrUnsupported)
)

// Error kinds set by this package when the server gave none.
const (
	KindTransport = "transport" // no response: refused, reset, DNS, ...
	KindTimeout   = "timeout"   // context deadline or per-request Timeout
	KindCanceled  = "canceled"  // context canceled
	KindMalformed = "malformed_response"
	KindTooLarge  = "response_too_large"
)

// Error is a failed call to the Chroma server. Use errors.As to get it.
//
// For an HTTP error answer Status is the HTTP status, Kind is the "error"
// field of Chroma's JSON error body ({"error": "...", "message": "..."}),
// e.g. "InvalidArgumentError", "NotFoundError", "ChromaError", and Message
// its "message". A non-JSON error body leaves Kind empty and puts the start of
// the body (at most 512 bytes) in Message.
//
// When no answer arrived Status is 0 and Kind is KindTransport, KindTimeout or
// KindCanceled; the cause (e.g. *net.OpError, context.DeadlineExceeded) is
// reachable through errors.Is / errors.As.
//
// Errors never contain the auth token.
type Error struct {
	Op      string // what was being done: "heartbeat", "upsert", "query", "get collection", ...
	Status  int    // HTTP status, 0 when no response arrived
	Kind    string // Chroma's error name, or one of the Kind* constants
	Message string // Chroma's message, a body excerpt, or the transport error text
	cause   error
}

func (e *Error) Error() string {
	switch {
	case e.Status == 0:
		return fmt.Sprintf("chroma %s: %s: %s", e.Op, e.Kind, e.Message)
	case e.Kind == "":
		return fmt.Sprintf("chroma %s: HTTP %d: %s", e.Op, e.Status, e.Message)
	default:
		return fmt.Sprintf("chroma %s: HTTP %d %s: %s", e.Op, e.Status, e.Kind, e.Message)
	}
}

// Unwrap exposes the sentinel of the error's class and, for transport
// failures, the underlying cause:
//
//	Status 0          → ErrTransport and the cause (context.DeadlineExceeded, *net.OpError, ...)
//	400, 422          → retrieval.ErrBadRequest
//	404               → ErrNotFound
//	413               → retrieval.ErrTooLarge
//	5xx               → ErrServer
//	2xx undecodable   → ErrMalformedResponse (or retrieval.ErrTooLarge past MaxResponseBytes)
func (e *Error) Unwrap() []error {
	var errs []error
	switch {
	case e.Status == 0:
		errs = append(errs, ErrTransport)
	case e.Kind == KindTooLarge:
		errs = append(errs, retrieval.ErrTooLarge)
	case e.Status >= 200 && e.Status < 300:
		errs = append(errs, ErrMalformedResponse)
	case e.Status == http.StatusBadRequest || e.Status == http.StatusUnprocessableEntity:
		errs = append(errs, retrieval.ErrBadRequest)
	case e.Status == http.StatusNotFound:
		errs = append(errs, ErrNotFound)
	case e.Status == http.StatusRequestEntityTooLarge:
		errs = append(errs, retrieval.ErrTooLarge)
	case e.Status >= 500:
		errs = append(errs, ErrServer)
	}
	if e.cause != nil {
		errs = append(errs, e.cause)
	}
	return errs
}

// transportError classifies a failure to get a response.
func transportError(op string, ctx context.Context, err error) *Error {
	e := &Error{Op: op, Kind: KindTransport, Message: err.Error(), cause: err}
	// Prefer the context's own verdict: net/http reports a canceled context
	// in several shapes.
	switch cerr := ctx.Err(); {
	case errors.Is(cerr, context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		e.Kind = KindTimeout
		if cerr != nil && !errors.Is(err, cerr) {
			e.cause = errors.Join(err, cerr)
		}
	case errors.Is(cerr, context.Canceled) || errors.Is(err, context.Canceled):
		e.Kind = KindCanceled
		if cerr != nil && !errors.Is(err, cerr) {
			e.cause = errors.Join(err, cerr)
		}
	}
	return e
}
