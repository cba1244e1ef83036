package tools

import (
	"context"
	"encoding/json"
	"slices"
	"time"
)

// SideEffect is a tool's side-effect class. The vocabulary is closed: the
// four constants below.
type SideEffect string

// The side-effect classes, from harmless to far-reaching.
const (
	SideEffectNone     SideEffect = "none"     // pure computation
	SideEffectRead     SideEffect = "read"     // reads local state (files, the knowledge base)
	SideEffectWrite    SideEffect = "write"    // changes local state
	SideEffectExternal SideEffect = "external" // talks to the outside world (network, processes)
)

// SideEffects lists every SideEffect (the closed vocabulary).
func SideEffects() []SideEffect {
	return []SideEffect{SideEffectNone, SideEffectRead, SideEffectWrite, SideEffectExternal}
}

// Valid reports whether s is one of the four classes.
func (s SideEffect) Valid() bool { return slices.Contains(SideEffects(), s) }

// Limits the executor applies when a Tool or Policy leaves them zero.
const (
	DefaultTimeout        = 30 * time.Second
	DefaultMaxArgBytes    = 64 << 10  // 64 KiB of argument JSON
	DefaultMaxResultBytes = 256 << 10 // 256 KiB of result JSON
	// MaxArgDepth is how deeply argument JSON may nest (objects and arrays
	// together; the top-level object is depth 1). Deeper arguments are
	// refused with invalid_json before anything recursive looks at them.
	MaxArgDepth = 64
	// MaxNameBytes is the longest tool name (the OpenAI function-name rule).
	MaxNameBytes = 64
)

// noArgsSchema is the schema of a tool whose Schema is nil.
const noArgsSchema = `{"type":"object","properties":{}}`

// Handler runs one call. args is the call's argument object exactly as the
// model sent it, after the executor checked it: well-formed UTF-8 JSON, an
// object, no duplicate keys (not even keys equal up to case, which
// encoding/json would merge into one struct field), at most MaxArgDepth
// deep, valid against the tool's schema. Containment of paths, and any
// other meaning of the values, is the handler's job (see ResolveInside).
// The result must marshal to JSON (encoding/json); ctx carries the call's
// timeout and the caller's cancellation, and a handler that ignores ctx
// keeps running after the executor has given up on it (its result is then
// discarded).
type Handler func(ctx context.Context, args json.RawMessage) (any, error)

// Tool is one trusted runtime binding: a name the model may call, the
// schema of its arguments, what it needs and what it touches, and the Go
// code that runs it. Only host code builds Tools; a model never does.
type Tool struct {
	Name         string          // ^[A-Za-z0-9_-]{1,64}$ (the OpenAI function-name rule)
	Description  string          // for the model, via the prompt catalog
	Schema       json.RawMessage // JSON Schema (draft 2020-12) of the arguments object; nil = no arguments ({"type":"object","properties":{}})
	Capabilities []string        // every one must be granted (Policy.Capabilities) for the tool to run
	SideEffect   SideEffect
	Timeout      time.Duration // per call; 0 = DefaultTimeout
	Handler      Handler
}

// Spec is a Tool without its handler: the declarative part a prompt
// catalog is built from. Schema is the effective schema (the no-arguments
// schema when Tool.Schema is nil).
type Spec struct {
	Name         string
	Description  string
	Schema       json.RawMessage
	Capabilities []string
	SideEffect   SideEffect
}

// Spec returns t's declarative part (copies: changing it changes nothing
// in t).
func (t Tool) Spec() Spec {
	return Spec{
		Name:         t.Name,
		Description:  t.Description,
		Schema:       effectiveSchema(t.Schema),
		Capabilities: slices.Clone(t.Capabilities),
		SideEffect:   t.SideEffect,
	}
}

// effectiveSchema returns a copy of schema, or the no-arguments schema
// when it is empty.
func effectiveSchema(schema json.RawMessage) json.RawMessage {
	if len(schema) == 0 {
		return json.RawMessage(noArgsSchema)
	}
	return slices.Clone(schema)
}

// clone returns t with its slices copied, so a caller cannot change a
// registered binding through a Tool it was given.
func (t Tool) clone() Tool {
	t.Schema = slices.Clone(t.Schema)
	t.Capabilities = slices.Clone(t.Capabilities)
	return t
}

// ValidName reports whether name matches ^[A-Za-z0-9_-]{1,64}$.
func ValidName(name string) bool {
	if len(name) == 0 || len(name) > MaxNameBytes {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
