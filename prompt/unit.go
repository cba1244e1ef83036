package prompt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/internal/schemacheck"
	"github.com/rlm-dev/rlm/internal/textclip"
)

// Kind is what a prompt unit is. The vocabulary is closed: the rules see a
// kind as an atom, and the engine checks the kinds written in rule files
// against it at load time (Vocabulary).
type Kind string

// The kinds of prompt units. Tool kinds are sent through the provider's
// tool channel as a ToolSchema; the others are rendered into Text.
const (
	KindTool        Kind = "tool"        // a trusted tool's schema (from the tool registry)
	KindMCPTool     Kind = "mcp_tool"    // a tool of an MCP server (its text is untrusted)
	KindInstruction Kind = "instruction" // how to behave
	KindSkill       Kind = "skill"       // how to do one kind of task
	KindResource    Kind = "resource"    // reference text
	KindContext     Kind = "context"     // facts for this task, e.g. retrieved evidence
)

// kindOrder lists every Kind in render order: the text sections first,
// then the tool kinds.
var kindOrder = []Kind{KindInstruction, KindSkill, KindResource, KindContext, KindTool, KindMCPTool}

// Kinds returns every Kind, in render order (the text sections first,
// then the tool kinds).
func Kinds() []Kind { return slices.Clone(kindOrder) }

// IsTool reports whether units of kind k are tool schemas.
func (k Kind) IsTool() bool { return k == KindTool || k == KindMCPTool }

// Activation says when a unit is wanted. Closed vocabulary (atoms).
type Activation string

// Activations. An empty Activation means ActivationRelevant.
const (
	ActivationAlways   Activation = "always"   // wanted in every compile (still subject to host denial and capabilities)
	ActivationRelevant Activation = "relevant" // wanted when the task calls for it (lexical match, need, signal, host selection)
)

// Mode is the compile mode. Closed vocabulary (atoms). Both modes go
// through the same compiler path.
type Mode string

// Modes. An empty Mode means ModeCompiled.
const (
	ModeCompiled Mode = "compiled"  // the rules select what the task needs
	ModeAllTools Mode = "all_tools" // every tool in the catalog is wanted (compatibility and benchmarks)
)

// Unit is one prompt unit: declarative metadata, never a handler. Ids,
// titles, descriptions, bodies, keywords, capabilities and triggers reach
// the rules only as strings (catalogs may hold tools of untrusted MCP
// servers); only Kind, Activation and the compile Mode are atoms.
type Unit struct {
	// ID names the unit. Tool ids are function names sent to the provider:
	// 1..64 of [A-Za-z0-9_-]. Other ids: 1..128 of [A-Za-z0-9_.:/-],
	// starting with a letter or digit.
	ID          string   `json:"id"`
	Kind        Kind     `json:"kind"`
	Title       string   `json:"title,omitempty"`       // one line, at most MaxTitleBytes
	Description string   `json:"description,omitempty"` // what it is for (a tool's description is sent with its schema)
	Keywords    []string `json:"keywords,omitempty"`    // words the task may use for it; a need naming one selects it
	// Body is the text rendered into the prompt for instruction, skill,
	// resource and context units (required for them, refused for tools).
	Body string `json:"body,omitempty"`
	// Schema is the JSON Schema of a tool's arguments (tool and mcp_tool:
	// required, an object schema, checked with
	// github.com/google/jsonschema-go; refused for other kinds). It is sent
	// in canonical form: compact, object keys sorted.
	Schema     json.RawMessage `json:"schema,omitempty"`
	Activation Activation      `json:"activation,omitempty"`
	// Requires: units that must be active for this one to be; they are
	// pulled in with it. Suggests: units pulled in with it when they may
	// be active. Conflicts: units that may not be active with it (the
	// weaker goes). Supersedes: units it replaces. Each names unit ids of
	// the same catalog.
	Requires   []string `json:"requires,omitempty"`
	Suggests   []string `json:"suggests,omitempty"`
	Conflicts  []string `json:"conflicts,omitempty"`
	Supersedes []string `json:"supersedes,omitempty"`
	// Capabilities must all be granted (Input.Capabilities) for the unit
	// to be visible.
	Capabilities []string `json:"capabilities,omitempty"`
	// Triggers are trusted signals (Input.Signals) that make a relevant
	// unit wanted, e.g. "git_repo".
	Triggers []string `json:"triggers,omitempty"`
	// Mandatory units may never be packed out: if they cannot fit in the
	// budget, Compile fails with a *BudgetError. A mandatory unit is a
	// candidate of every compile, so it is always decided: in Active, or
	// in Rejected with the rules' reason (e.g. a missing capability, or a
	// relevant unit the task does not call for).
	Mandatory bool `json:"mandatory,omitempty"`
	// Priority orders optional units for packing (higher first, then
	// lexical relevance).
	Priority int `json:"priority,omitempty"`
	// Source says where the unit came from, for messages: "file.yaml:12",
	// "registry", "host".
	Source string `json:"source,omitempty"`
}

// Limits on one unit. Longer values are refused (CatalogError), never
// clipped (except a registry tool's description, by UnitsFromTools).
const (
	MaxIDBytes          = 128
	MaxToolIDBytes      = 64
	MaxTitleBytes       = 256
	MaxDescriptionBytes = 8 << 10
	MaxBodyBytes        = 256 << 10
	MaxSchemaBytes      = 64 << 10
	MaxListItems        = 64  // keywords, capabilities, triggers, and each of requires/suggests/conflicts/supersedes
	MaxWordBytes        = 128 // one keyword, capability or trigger
)

var (
	toolIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	unitIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}$`)
)

// ReservedPrefix starts the ids of the units the harness adds to one
// compile (Input.Context): the completion loop's evidence
// ("rlm:evidence:N"), the intent router's candidates ("rlm:intent:NAME")
// and facts ("rlm:facts"). No catalog unit may take such an id (NewCatalog
// and LoadCatalog refuse it with ErrReservedID), so a catalog can never
// collide with, or pass itself off as, what the harness adds per call.
const ReservedPrefix = "rlm:"

// ErrReservedID is matched by a *CatalogError with a catalog unit whose id
// starts with ReservedPrefix.
var ErrReservedID = errors.New("prompt: reserved id prefix")

// UnitProblem is one reason a unit is invalid.
type UnitProblem struct {
	Source string // where the unit (or the offending field) came from, e.g. "catalog.yaml:12" or "units[3]"; "" if unknown
	Line   int    // the line of Source in the catalog file; 0 when not from a file
	ID     string // the unit's id, if it has one
	Field  string // the offending field (e.g. "kind", "schema", "requires"), "" for the unit as a whole
	Reason string
	// Err is a sentinel the problem matches through the CatalogError
	// (ErrReservedID), or nil.
	Err error
}

func (p UnitProblem) String() string {
	var b strings.Builder
	if p.Source != "" {
		b.WriteString(p.Source + ": ")
	}
	if p.ID != "" {
		fmt.Fprintf(&b, "unit %q: ", clipID(p.ID))
	}
	b.WriteString(p.Reason)
	return b.String()
}

// CatalogError lists every invalid unit of a catalog (or of a compile's
// context units), each with its source and reason, in the order of the
// file's lines (of the units, for NewCatalog). It matches ErrCatalog, and
// the Err of each problem, with errors.Is.
type CatalogError struct {
	Path     string // the catalog file, when loaded from one
	Problems []UnitProblem
}

// ErrCatalog is matched by every *CatalogError.
var ErrCatalog = errors.New("prompt: invalid catalog")

func (e *CatalogError) Error() string {
	var b strings.Builder
	b.WriteString("prompt: invalid catalog")
	if e.Path != "" {
		b.WriteString(" " + e.Path)
	}
	fmt.Fprintf(&b, " (%d problem", len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteString("s")
	}
	b.WriteString(")")
	for i, p := range e.Problems {
		if i == 20 {
			fmt.Fprintf(&b, "\n  ... and %d more", len(e.Problems)-i)
			break
		}
		// A reason of several lines (a JSON Schema's) stays inside its
		// entry of the list.
		b.WriteString("\n  " + strings.ReplaceAll(p.String(), "\n", "\n    "))
	}
	return b.String()
}

// Unwrap makes a CatalogError match ErrCatalog and the sentinels of its
// problems.
func (e *CatalogError) Unwrap() []error {
	out := []error{ErrCatalog}
	for _, p := range e.Problems {
		if p.Err != nil && !slices.Contains(out, p.Err) {
			out = append(out, p.Err)
		}
	}
	return out
}

// clipID shortens an id for a message (ids may be arbitrary text when
// invalid).
func clipID(s string) string { return textclip.Clip(s, 80) }

// fieldProblem is one reason a unit is invalid, with the field it is
// about ("" for the unit as a whole).
type fieldProblem struct {
	field, reason string
}

// normalize validates u on its own (links to other units are checked by
// the catalog), fills the default Activation and puts Schema in canonical
// form. It returns the reasons u is invalid.
func normalize(u *Unit) []fieldProblem {
	var bad []fieldProblem
	add := func(field, format string, args ...any) {
		bad = append(bad, fieldProblem{field, fmt.Sprintf(format, args...)})
	}
	switch {
	case u.Kind.IsTool():
		if !toolIDPattern.MatchString(u.ID) {
			add("id", "%s id must be 1..%d of A-Z a-z 0-9 _ - (it is sent as a function name)", aKind(u.Kind), MaxToolIDBytes)
		}
	case u.ID == "":
		add("id", "no id")
	case !unitIDPattern.MatchString(u.ID):
		add("id", "an id must be 1..%d of A-Z a-z 0-9 _ . : / -, starting with a letter or digit", MaxIDBytes)
	}
	if !validKind(u.Kind) {
		add("kind", "unknown kind %q (want one of %s)", clipID(string(u.Kind)), kindNames())
	}
	switch u.Activation {
	case "":
		u.Activation = ActivationRelevant
	case ActivationAlways, ActivationRelevant:
	default:
		add("activation", "unknown activation %q (want always or relevant)", clipID(string(u.Activation)))
	}
	checkText := func(field, s string, limit int, oneLine bool) {
		switch {
		case len(s) > limit:
			add(field, "%s is %d bytes, over the limit of %d", field, len(s), limit)
		case !utf8.ValidString(s):
			add(field, "%s is not valid UTF-8", field)
		case oneLine && strings.ContainsFunc(s, unicode.IsControl):
			add(field, "%s holds a control character", field)
		}
	}
	checkText("title", u.Title, MaxTitleBytes, true)
	checkText("description", u.Description, MaxDescriptionBytes, false)
	checkText("body", u.Body, MaxBodyBytes, false)
	checkWords := func(field string, ws []string) {
		if len(ws) > MaxListItems {
			add(field, "%s has %d entries, over the limit of %d", field, len(ws), MaxListItems)
			return
		}
		for _, w := range ws {
			if w == "" || len(w) > MaxWordBytes || !utf8.ValidString(w) || strings.ContainsFunc(w, unicode.IsControl) {
				add(field, "%s entry %q must be 1..%d bytes of printable UTF-8", field, clipID(w), MaxWordBytes)
				return
			}
		}
	}
	checkWords("keywords", u.Keywords)
	checkWords("capabilities", u.Capabilities)
	checkWords("triggers", u.Triggers)
	for _, l := range links(u) {
		if len(l.ids) > MaxListItems {
			add(l.field, "%s has %d entries, over the limit of %d", l.field, len(l.ids), MaxListItems)
		}
	}
	if u.Kind.IsTool() {
		if u.Body != "" {
			add("body", "%s has no body: its schema and description are sent through the tool channel", aKind(u.Kind))
		}
		if strings.TrimSpace(u.Description) == "" && strings.TrimSpace(u.Title) == "" {
			add("description", "%s needs a description (sent with its schema)", aKind(u.Kind))
		}
		canon, err := canonicalSchema(u.Schema)
		if err != nil {
			add("schema", "schema: %v", err)
		} else {
			u.Schema = canon
		}
	} else if validKind(u.Kind) {
		if len(u.Schema) > 0 {
			add("schema", "only tool and mcp_tool units have a schema")
		}
		if strings.TrimSpace(u.Body) == "" {
			add("body", "%s needs a body (the text rendered into the prompt)", aKind(u.Kind))
		}
	}
	return bad
}

// link is one relation list of a unit.
type link struct {
	field string
	ids   []string
}

// links returns u's relations to other units, in a fixed order.
func links(u *Unit) []link {
	return []link{{"requires", u.Requires}, {"suggests", u.Suggests}, {"conflicts", u.Conflicts}, {"supersedes", u.Supersedes}}
}

func validKind(k Kind) bool {
	for _, x := range kindOrder {
		if k == x {
			return true
		}
	}
	return false
}

// aKind names a unit of kind k with its article, for messages: "a tool",
// "an MCP tool", "an instruction", "a context unit".
func aKind(k Kind) string {
	switch k {
	case KindMCPTool:
		return "an MCP tool"
	case KindInstruction:
		return "an instruction"
	case KindContext:
		return "a context unit"
	}
	return "a " + string(k)
}

func kindNames() string {
	s := make([]string, len(kindOrder))
	for i, k := range kindOrder {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// canonicalSchema checks that raw is a JSON Schema for an object (the
// arguments of a function call) that github.com/google/jsonschema-go can
// resolve without loading anything, and returns it compact with object
// keys sorted (numbers kept as written).
func canonicalSchema(raw json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("a tool needs the JSON Schema of its arguments")
	}
	if len(raw) > MaxSchemaBytes {
		return nil, fmt.Errorf("%d bytes, over the limit of %d", len(raw), MaxSchemaBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if dec.More() {
		return nil, errors.New("not one JSON value")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("must be a JSON object")
	}
	if t, _ := obj["type"].(string); t != "object" {
		return nil, errors.New(`the arguments schema must have "type": "object"`)
	}
	if err := checkSchemaOnce(raw); err != nil {
		return nil, fmt.Errorf("not a valid JSON Schema: %v", err)
	}
	b, err := marshal(v)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(b), nil
}

// validSchemas holds the exact bytes of schemas schemacheck.Compile
// accepted (at most validSchemasMax; when full it starts again empty):
// the completion loop builds an ephemeral catalog from the same tool
// registry on every run, and checking a schema against the draft 2020-12
// meta-schema is most of that. Only acceptance is kept: a schema that
// differs in any byte, or was refused, is checked again.
var validSchemas = struct {
	sync.Mutex
	raw map[string]bool
}{raw: map[string]bool{}}

const validSchemasMax = 1024

// checkSchemaOnce is schemacheck.Compile's verdict on raw, from
// validSchemas when raw was accepted before.
func checkSchemaOnce(raw json.RawMessage) error {
	validSchemas.Lock()
	ok := validSchemas.raw[string(raw)]
	validSchemas.Unlock()
	if ok {
		return nil
	}
	if _, err := schemacheck.Compile(raw); err != nil {
		return err
	}
	validSchemas.Lock()
	if len(validSchemas.raw) >= validSchemasMax {
		clear(validSchemas.raw)
	}
	validSchemas.raw[string(raw)] = true
	validSchemas.Unlock()
	return nil
}
