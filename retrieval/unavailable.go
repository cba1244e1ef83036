package retrieval

import "errors"

// ErrUnavailable is matched (errors.Is) by an *UnavailableError: a service
// a strategy needs (the embedder of the vector and hybrid strategies)
// failed. The planner answers such a step with no hits and a note rather
// than failing the search.
var ErrUnavailable = errors.New("retrieval: a service the strategy needs is unavailable")

// UnavailableError is the failure of a service a strategy needs. Note
// says what failed in words safe to show a client ("the embedder M failed
// (transport)": no secrets, no endpoint, no host paths); Err is the cause,
// for logs. It matches ErrUnavailable and everything Err matches.
type UnavailableError struct {
	Note string
	Err  error
}

func (e *UnavailableError) Error() string { return "retrieval: " + e.Note + ": " + e.Err.Error() }

// Unwrap returns ErrUnavailable and the cause.
func (e *UnavailableError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }
