// Package tools is the typed tool registry and executor of rlm's harness:
// the trusted runtime bindings a model may ask to run, and the one place
// that decides whether a model's tool call runs.
//
// # Shapes
//
// A Tool is one binding: Name (^[A-Za-z0-9_-]{1,64}$), Description, the
// JSON Schema (draft 2020-12) of its argument object, the Capabilities it
// needs, its SideEffect class (none, read, write, external — a closed
// vocabulary), a per-call Timeout and its Go Handler. A Registry (an
// explicit value; there is no package-level registry) holds Tools by name;
// Register validates each one (ErrInvalidTool, ErrInvalidSchema,
// ErrDuplicateTool). Tool.Spec and Registry.Specs give the declarative part
// without handlers, from which a prompt catalog is built; ValidateSchema
// checks a schema the way Register does, for other packages.
//
// A Policy is what one session may run: granted capabilities, allowed side
// effects (none and read by default), and byte limits on arguments and
// results. An Executor runs a Call (ID, Name, Arguments as the model sent
// them) against a Registry under a Policy and returns an Outcome whose
// Content is the tool message for the model: the result's JSON, or
// {"error":{"kind":K,"message":M}}.
//
// # Errors
//
// A refused or failed call has Outcome.Err, a *CallError whose Kind is one
// of a closed vocabulary (Kinds: unknown_tool, not_visible, invalid_json,
// invalid_arguments, too_large, capability_denied, side_effect_denied,
// timeout, canceled, handler_failed, result_invalid). Every *CallError
// matches ErrRefused with errors.Is; its Err (the handler's error, the
// context error, the validation error) is for the host and unwraps with
// errors.Is/As. The model sees only Message: no stack trace, no handler
// error text unless the handler returned a *ModelError on purpose, and no
// more of its own arguments than a short clipped excerpt.
//
// # Security boundary
//
// Registration, visibility and authorisation are three things:
//
//	registry handlers ──────────────────────────────► Executor (runs or refuses)
//	registry schemas ─► catalog ─► compiler ─► model ─► Call ─┘
//
// The registry says what exists; the prompt compiler says what the model
// sees this turn; the Executor alone says what runs, and re-checks every
// call against the full trusted binding, never against what the model was
// shown or claims. A call must name a registered tool that was visible
// this turn (seeing a tool grants nothing; not seeing it forbids it), pass
// the Policy, and carry arguments that are a bounded, well-formed JSON
// object with unambiguous keys that validates against the tool's schema.
// Only then does the handler run, under a timeout and the caller's
// context, with a panic recovered. Model output is hostile data throughout:
// names and arguments are compared and validated as JSON, never parsed as
// Prolog, never called as a goal, never passed to a shell. A string value
// such as "call(halt)" or "; rm -rf /" reaches a handler as that string,
// and only if the schema admits it.
//
// What the values mean is the handler's job. In particular the executor
// knows nothing about paths: a schema "pattern" can narrow what a path
// argument looks like, but containment in a directory is checked by the
// handler, with ResolveInside (or os.OpenRoot).
package tools
