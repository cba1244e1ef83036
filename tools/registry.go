package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Errors Register returns; match them with errors.Is.
var (
	ErrInvalidTool   = errors.New("tools: invalid tool")
	ErrDuplicateTool = errors.New("tools: tool already registered")
)

// Registry holds the trusted runtime bindings of one host: tool name →
// Tool (handler, schema, capabilities, side-effect class). It is an
// explicit value (there is no package-level registry) and is safe for
// concurrent use. Registering a tool makes it available, nothing more:
// what the model sees is the prompt compiler's decision, what may run is
// the Executor's.
type Registry struct {
	mu    sync.RWMutex
	tools map[string]entry
}

type entry struct {
	tool   Tool
	schema *jsonschema.Resolved
	raw    any // the schema decoded, for checkShadowedKeys
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{tools: map[string]entry{}} }

// Register adds t after checking it: a valid name (ValidName), a side
// effect from the closed vocabulary, a schema ValidateSchema accepts,
// non-empty capability names without spaces, a non-negative timeout and a
// handler. A registry keeps its own copy of t's slices. Errors match
// ErrInvalidTool (and ErrInvalidSchema for a schema) or ErrDuplicateTool.
func (r *Registry) Register(t Tool) error {
	if !ValidName(t.Name) {
		return fmt.Errorf("%w: name %q does not match ^[A-Za-z0-9_-]{1,64}$", ErrInvalidTool, t.Name)
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w %s: %s", ErrInvalidTool, t.Name, fmt.Sprintf(format, args...))
	}
	if !t.SideEffect.Valid() {
		return fail("side effect %q is not one of %v", t.SideEffect, SideEffects())
	}
	for _, c := range t.Capabilities {
		if c == "" || strings.ContainsFunc(c, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			return fail("capability %q is empty or has spaces or control characters", c)
		}
	}
	if t.Timeout < 0 {
		return fail("negative timeout %v", t.Timeout)
	}
	if t.Handler == nil {
		return fail("no handler")
	}
	rs, err := compileSchema(t.Schema)
	if err != nil {
		return fmt.Errorf("%w %s: %w", ErrInvalidTool, t.Name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.tools[t.Name]; dup {
		return fmt.Errorf("%w: %s", ErrDuplicateTool, t.Name)
	}
	var raw any
	_ = json.Unmarshal(effectiveSchema(t.Schema), &raw) // valid: compileSchema decoded it
	r.tools[t.Name] = entry{tool: t.clone(), schema: rs, raw: raw}
	return nil
}

// Lookup returns the tool registered under name (a copy).
func (r *Registry) Lookup(name string) (Tool, bool) {
	e, ok := r.lookup(name)
	return e.tool.clone(), ok
}

func (r *Registry) lookup(name string) (entry, bool) {
	if r == nil {
		return entry{}, false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.tools[name]
	return e, ok
}

// Tools returns every registered tool (copies), sorted by name.
func (r *Registry) Tools() []Tool {
	r.mu.RLock()
	out := make([]Tool, 0, len(r.tools))
	for _, e := range r.tools {
		out = append(out, e.tool.clone())
	}
	r.mu.RUnlock()
	slices.SortFunc(out, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Specs returns the Spec of every registered tool, sorted by name: the
// registry's declarative part, without handlers, for building a catalog.
func (r *Registry) Specs() []Spec {
	ts := r.Tools()
	out := make([]Spec, len(ts))
	for i, t := range ts {
		out[i] = t.Spec()
	}
	return out
}

// Len returns the number of registered tools.
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.tools)
}
