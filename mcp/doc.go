// Package mcp serves an open rlm project to editors and coding agents
// over the Model Context Protocol (the official Go SDK,
// github.com/modelcontextprotocol/go-sdk): rule-planned, explained
// retrieval, bounded reads verified by content hash, and hash-checked
// edits. `rlm mcp` runs it over stdio or streamable HTTP.
//
// # Tools
//
// Every tool is a tools.Tool binding (JSON Schema draft 2020-12 of its
// arguments, side-effect class, Go handler) in one tools.Registry, and
// every call runs through one tools.Executor: the executor alone checks
// the arguments (well-formed, bounded JSON valid against the schema) and
// the policy before a handler runs. The tools and their results (JSON, in
// the result's text content and as its structured content):
//
//	search       query, limit, path_prefix, kinds, exclude_tests → SearchResult
//	definition   name, limit → SearchResult of "where is NAME defined?"
//	callers      name, limit → SearchResult of "what calls NAME?"
//	callees      name, limit → SearchResult of "what does NAME call?"
//	explain      query → the plan, its rule chain and contingencies (rlm.Explanation)
//	read         id | path, start_line, end_line → ReadResult (at most MaxReadLines lines)
//	status       → Status: the snapshot, counts and the files that are not current
//	apply_patch  path, expected_hash, unified_diff | edits → PatchResult, or a conflict (Options.AllowWrite only)
//	compile      query, mode, budget, ... → the prompt compiler's projection (rlm.Compiled; Options.Catalog only)
//
// A hit's id is "PATH:START-END@CONTENT_HASH": read takes it back and
// returns those lines only if the file still has exactly those bytes.
// Search, the shortcuts, read by path and status validate the files
// against the knowledge base when they are called (no watcher), so every
// answer reflects the tree as it is then; apply_patch publishes its edit
// before it returns, so the next search sees it.
//
// A failing embedder stops only the vector and hybrid steps: they find
// nothing and the answer's notes name the step and the embedder (never
// the cause's text); exact, lexical and graph search, read and status
// keep working, on an index without vectors if a snapshot is built while
// the embedder is down (status's vectors_unavailable says why).
//
// # Errors
//
// A call the executor refuses, or whose handler fails, is a tool result
// with isError set whose content is {"error":{"kind":K,"message":M}} — K
// one of tools.Kinds, M a clear message without host paths or secrets
// (and "path", the failing schema location, for invalid_arguments). A
// refused patch adds "conflict": {"path", "expected", "actual",
// "missing"}. An unknown tool or a malformed request is a JSON-RPC error
// from the SDK. Over stdio, a line that is not JSON is answered -32700
// and one that is not a JSON-RPC message -32600; the session goes on. Handlers honour the call's context, which the SDK cancels
// when the client sends notifications/cancelled.
//
// # Resources
//
// rlm://snapshot is the Status as JSON, validated when read; each rule
// file the planner (and the prompt compiler) loaded is one resource,
// rlm://rules/LAYER/CONCERN/FILE (text/x-prolog, read-only; LAYER 0 is
// rlm's defaults, CONCERN its folder: retrieval, prompt, intent),
// described by what its concern decides and which engines loaded it.
//
// # Security
//
// Nothing a client sends reaches Prolog except as data: queries and names
// go to the planner as query text (engine strings), never as goals. Paths
// stay inside the project root (tools.ResolveInside, then os.OpenRoot and
// the store's own checks). Writes are off unless Options.AllowWrite; the
// HTTP handler serves loopback clients only (DNS-rebinding and
// cross-origin protection).
package mcp
