package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/tools"
)

// Options configure New.
type Options struct {
	// AllowWrite offers apply_patch (side effect write); without it the
	// tool is neither listed nor run.
	AllowWrite bool
	// Catalog and Compiler offer compile: the projection of Catalog's units
	// for a query, decided by Compiler's rules. Both or neither; the
	// caller keeps and releases the catalog.
	Catalog  *rlm.Catalog
	Compiler *rlm.Compiler
	// Version is the server version reported to clients ("" means "dev").
	Version string
	// MaxSessions bounds the HTTP transport's open sessions (Handler); a
	// new session beyond it is refused (HTTP 503). 0 means
	// DefaultMaxSessions.
	MaxSessions int
	// SessionIdleTimeout closes an HTTP session that has had no request
	// for this long (clients keep one alive with pings). 0 means
	// DefaultSessionIdleTimeout.
	SessionIdleTimeout time.Duration
	// Logger, if set, receives the SDK's log and, for every failed call,
	// the host-side cause the client is not shown. Under stdio it must not
	// write to stdout.
	Logger *slog.Logger
}

// Limits of the tools (see also the schemas in tools.go).
const (
	MaxReadLines     = 400     // lines one read returns
	MaxReadLineBytes = 1000    // bytes of one line a read returns (longer lines are clipped, marked …)
	MaxArgBytes      = 1 << 20 // bytes of one call's arguments (a unified diff included)
	MaxResultBytes   = 4 << 20 // bytes of one result's JSON
	// MaxLoggedCauseBytes bounds the cause of a failed call in the log
	// (Options.Logger): longer causes are clipped (…).
	MaxLoggedCauseBytes = 2000
)

// Server is an MCP server over one open project. It is safe for
// concurrent use: the SDK runs calls concurrently, and the project, the
// registry and the executor are safe for concurrent use.
type Server struct {
	proj    *rlm.Project
	opts    Options
	exec    *tools.Executor
	offered []string // the tools listed to clients, sorted
	srv     *sdk.Server
}

// New builds the server: every tool bound in a tools.Registry, the ones
// the policy allows listed to clients, and the resources. It does not
// take ownership of p (close it after the server stops). Errors: a catalog
// without a compiler (or the reverse), or a binding the registry refuses.
func New(p *rlm.Project, opts Options) (*Server, error) {
	if (opts.Catalog == nil) != (opts.Compiler == nil) {
		return nil, errors.New("mcp: compile needs both a catalog and a compiler")
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &Server{proj: p, opts: opts}
	reg := tools.NewRegistry()
	for _, b := range s.bindings() {
		if err := reg.Register(b.tool); err != nil {
			return nil, fmt.Errorf("mcp: %w", err)
		}
	}
	policy := tools.Policy{SideEffects: []tools.SideEffect{tools.SideEffectNone, tools.SideEffectRead},
		MaxArgBytes: MaxArgBytes, MaxResultBytes: MaxResultBytes}
	if opts.AllowWrite {
		policy.SideEffects = append(policy.SideEffects, tools.SideEffectWrite)
	}
	s.exec = &tools.Executor{Registry: reg, Policy: policy}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: "rlm", Title: "rlm: rule-planned code retrieval", Version: opts.Version},
		&sdk.ServerOptions{Instructions: instructions, Logger: logger, Capabilities: &sdk.ServerCapabilities{}})
	for _, b := range s.bindings() {
		t, _ := reg.Lookup(b.tool.Name)
		if policy.Allows(t) != nil {
			continue // not offered: the executor would refuse it anyway
		}
		s.offered = append(s.offered, t.Name)
		s.srv.AddTool(&sdk.Tool{Name: t.Name, Title: b.title, Description: t.Description, InputSchema: json.RawMessage(t.Schema),
			Annotations: annotations(b.title, t.SideEffect)}, s.handler(t.Name))
	}
	slices.Sort(s.offered)
	if err := s.addResources(); err != nil {
		return nil, err
	}
	return s, nil
}

const instructions = `rlm answers questions about one source tree with retrieval planned by Prolog rules.
Use search (or definition, callers, callees) to find definitions; each hit has an id,
path, lines and the content hash of its file. read returns a hit's lines (or a path's)
only if the file still has those exact bytes. explain shows the plan and the rules behind it.
apply_patch (when enabled) edits a file only if it still hashes to expected_hash.`

// Tools are the names of the tools the server lists, sorted.
func (s *Server) Tools() []string { return slices.Clone(s.offered) }

// SDK is the underlying SDK server (to connect it to another transport).
func (s *Server) SDK() *sdk.Server { return s.srv }

// Serve runs one session over a byte stream of newline-delimited JSON-RPC
// messages (stdio: in is stdin, out is stdout) until the client closes in
// or ctx is done; either ends it cleanly (nil). A line that is not a
// JSON-RPC message (not JSON, a bad version tag or id, over
// MaxLineBytes) is answered with a -32700 or -32600 error response and
// the session goes on.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	w := &syncWriter{w: out}
	// The filter bounds every line, so the SDK's own cap is off.
	t := &sdk.IOTransport{Reader: io.NopCloser(newLineFilter(in, w, s.opts.Logger)), Writer: w, MaxLineLength: -1}
	err := s.srv.Run(ctx, t)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil // stopped by the caller (rlm mcp: an interrupt)
	}
	return err
}

// handler runs a tools/call through the executor.
func (s *Server) handler(name string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		out := s.exec.Execute(ctx, tools.Call{Name: name, Arguments: string(req.Params.Arguments)}, s.offered)
		if out.Err != nil && out.Err.Err != nil && s.opts.Logger != nil {
			// The cause may quote the arguments (a schema error quotes the
			// value): it is clipped, and made printable.
			s.opts.Logger.Warn("tool call failed", "tool", name, "kind", out.Err.Kind, "cause", textclip.Clean(out.Err.Err.Error(), MaxLoggedCauseBytes))
		}
		return toResult(out), nil
	}
}

// errorBody is the structured content of a failed call.
type errorBody struct {
	Kind     tools.ErrorKind `json:"kind"`
	Message  string          `json:"message"`
	Path     string          `json:"path,omitempty"` // the schema location of invalid_arguments
	Conflict *conflict       `json:"conflict,omitempty"`
}

// conflict is a refused patch: the file was not the expected bytes.
type conflict struct {
	Path     string `json:"path"`
	Expected string `json:"expected"`
	Actual   string `json:"actual,omitempty"`
	Missing  bool   `json:"missing,omitempty"`
}

// toResult turns an executor outcome into a tool result: the result's
// JSON as text and structured content, or an error result.
func toResult(o tools.Outcome) *sdk.CallToolResult {
	if o.OK {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: o.Content}}, StructuredContent: json.RawMessage(o.Content)}
	}
	body := errorBody{Kind: o.Err.Kind, Message: o.Err.Message, Path: o.Err.Path}
	if ce, ok := errors.AsType[*rlm.ConflictError](o.Err); ok {
		body.Conflict = &conflict{Path: ce.Path, Expected: ce.Expected.String(), Missing: ce.Missing}
		if !ce.Missing {
			body.Conflict.Actual = ce.Actual.String()
		}
	}
	b, err := json.Marshal(map[string]errorBody{"error": body})
	if err != nil { // strings and a bool always marshal
		panic(err)
	}
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}
}

func annotations(title string, se tools.SideEffect) *sdk.ToolAnnotations {
	closed, destructive := false, se == tools.SideEffectWrite
	return &sdk.ToolAnnotations{Title: title, ReadOnlyHint: se != tools.SideEffectWrite, OpenWorldHint: &closed,
		DestructiveHint: &destructive, IdempotentHint: se != tools.SideEffectWrite}
}
