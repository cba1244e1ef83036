package intent

import (
	"errors"
	"time"
)

// Kind is the kind of a routing result: the closed family.
type Kind string

// Result kinds.
const (
	// Accept: the utterance asks for Intent with Args, validated: the host
	// may execute it (Router.Execute, Session.Apply).
	Accept Kind = "accept"
	// Clarify: ask the user Question; Candidates are the intents in play.
	Clarify Kind = "clarify"
	// Reject: the utterance cannot be acted on (Reason).
	Reject Kind = "reject"
	// FallbackChat: nothing registered fits; the host may chat instead.
	FallbackChat Kind = "fallback_chat"
)

// Because is one decision and the premises it rested on (terms written as
// text), from the rules or from validation.
type Because struct {
	Rule     string   `json:"rule"`
	Premises []string `json:"premises"`
}

// Candidate is an intent the router considered, with its BM25 score as a
// percentage of the best candidate's.
type Candidate struct {
	Intent string `json:"intent"`
	Score  int    `json:"score"`
}

// Result is what a turn came to. Evidence lists every decision in order:
// the resolver's, the repair's, the validation's.
type Result struct {
	Turn       string         `json:"turn"`
	Kind       Kind           `json:"kind"`
	Intent     string         `json:"intent,omitempty"`
	Args       map[string]any `json:"args,omitempty"`
	Question   string         `json:"question,omitempty"`
	Candidates []string       `json:"candidates,omitempty"`
	Reason     string         `json:"reason,omitempty"`
	// By is who decided: "resolver" (no model call) or "repair".
	By         string        `json:"by"`
	Considered []Candidate   `json:"considered"`
	Evidence   []Because     `json:"evidence"`
	ModelCalls int           `json:"model_calls"`
	Tokens     int           `json:"tokens"`
	Elapsed    time.Duration `json:"elapsed_ns"`
	// RepairFingerprint is the compiled projection's fingerprint of the
	// repair call, if there was one (what the model was shown).
	RepairFingerprint string `json:"repair_fingerprint,omitempty"`
	// RepairStop is why the repair call ended ("answered", "budget", ...).
	RepairStop string `json:"repair_stop,omitempty"`
}

// Errors callers match with errors.Is.
var (
	// ErrTooLong: the utterance is over MaxUtteranceBytes.
	ErrTooLong = errors.New("intent: utterance too long")
	// ErrStaleTurn: a newer turn started (or the turn was cancelled); the
	// stale turn's result is not applied.
	ErrStaleTurn = errors.New("intent: stale turn")
	// ErrNotAccepted: Execute was given a result that is not an accept.
	ErrNotAccepted = errors.New("intent: result is not an accept")
)
