package rlm

import (
	"context"

	"github.com/rlm-dev/rlm/intent"
)

// The intent router (package intent, docs/intent-router.md): an
// utterance to one of a host's intents, rules first, one bounded model
// repair when they cannot decide, then validation.
type (
	Router        = intent.Router
	RouterOptions = intent.Options
	Turn          = intent.Turn
	RouteResult   = intent.Result
)

// NewRouter loads the intent rules and the host's intents (see
// intent.Options: IntentsDir, Intents, Model and Compiler for the repair,
// Policy).
func NewRouter(ctx context.Context, opts RouterOptions) (*Router, error) {
	return intent.New(ctx, opts)
}
