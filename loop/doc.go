// Package loop is the completion loop (the RLM): it answers a question
// with a model, giving the model only what the prompt compiler projects
// and running only the tool calls the executor validates.
//
// One Run:
//
//  1. acquires context from a fresh snapshot: the retrieval planner runs on
//     the question (Retriever.Search refreshes the snapshot first) and its
//     hits, read back from exactly the bytes they were indexed from
//     (Retriever.Source checks the content hash), become bounded context
//     units;
//  2. compiles the projection (package prompt): the host's catalog, or an
//     ephemeral one built from the tool registry's schemas and released
//     when Run returns, whatever happens; the context units and the loop's
//     instruction join as per-call units;
//  3. calls the model with the compiled text as the system message and
//     exactly the compiled tool schemas;
//  4. decodes each tool call into a tools.Call and runs it through a
//     tools.Executor over the full trusted registry, visible only if the
//     model was shown it (seeing a tool grants nothing; not seeing it
//     forbids it); results go back as inert JSON tool messages;
//  5. repeats until the model answers in prose or a budget runs out.
//
// Built-in tools: retrieve(query, limit) asks the retrieval planner for
// evidence from a current snapshot; recurse(question) runs a sub-call with
// its own, smaller budget, to a configured depth. Budgets (depth, model
// calls, tool calls, tokens, wall time) are shared with sub-calls, and
// context cancellation ends everything. Run always returns a Result with a
// Stop reason and the trace; the error, when not nil, is a *StopError.
//
// No model output is ever parsed as Prolog or called as a goal: tool
// arguments are JSON validated against the tool's schema, retrieval
// queries are data to the rules. The trace records projections
// (fingerprint, active units), plan steps, tool requests and their
// validation, usage and timing — never hidden reasoning text, never keys.
package loop
