package intent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/rlm-dev/rlm/tools"
)

// SlotType is the type of a slot's value. Closed vocabulary.
type SlotType string

// Slot types. Values are parsed from the slot's words (see ParseSlot):
// duration to whole seconds, integer and number from digits or small
// number words, boolean from yes/no words, enum to one of Enum.
const (
	TypeString   SlotType = "string"
	TypeInteger  SlotType = "integer"
	TypeNumber   SlotType = "number"
	TypeBoolean  SlotType = "boolean"
	TypeDuration SlotType = "duration" // seconds, an integer ≥ 1
	TypeEnum     SlotType = "enum"
)

// Slot is one argument of an intent.
type Slot struct {
	Name        string   `json:"name"` // ^[a-z][a-z0-9_]{0,63}$
	Type        SlotType `json:"type"`
	Enum        []string `json:"enum,omitempty"` // for TypeEnum: the values, lowercase
	Required    bool     `json:"required"`
	Description string   `json:"description,omitempty"`
	// Constraints beyond the type, enforced by validation whoever decided
	// (the slot's JSON Schema, Intent.Schema). The zero values add none,
	// except that a string slot is KindText and at most DefaultMaxLength
	// bytes.
	Min       *float64 `json:"min,omitempty"`        // integer, number, duration (seconds): the smallest value
	Max       *float64 `json:"max,omitempty"`        // the largest value
	Pattern   string   `json:"pattern,omitempty"`    // string: an RE2 expression the value must match
	MaxLength int      `json:"max_length,omitempty"` // string: the most bytes, 1..MaxMaxLength
	Kind      TextKind `json:"kind,omitempty"`       // string: KindText (""), KindName or KindAny
}

// Intent is one thing the host can do for a user.
type Intent struct {
	Name         string           `json:"name"` // ^[a-z][a-z0-9_]{0,63}$: also its tool name
	Description  string           `json:"description"`
	Slots        []Slot           `json:"slots,omitempty"`
	Capabilities []string         `json:"capabilities,omitempty"` // all must be granted to run it
	SideEffect   tools.SideEffect `json:"side_effect"`
	// Phrasings are ways people say it: words with {slot} places, e.g.
	// "set a timer for {duration}".
	Phrasings []string `json:"phrasings"`
	// Handler runs an accepted intent (Router.Execute); nil: the host runs
	// accepted results itself.
	Handler tools.Handler `json:"-"`
	Source  string        `json:"source,omitempty"` // "file.pl" or "go"
}

// Limits of a registry.
const (
	MaxIntents         = 1024
	MaxPhrasings       = 64 // per intent
	MaxPhrasingWords   = 32
	MaxSlots           = 16
	MaxDescriptionSize = 2048
)

// ErrBadIntent: an intent is malformed; the error is an *IntentError.
var ErrBadIntent = errors.New("intent: invalid intent")

// IntentError names an invalid intent and why.
type IntentError struct {
	Intent string
	Source string
	Reason string
}

func (e *IntentError) Error() string {
	src := ""
	if e.Source != "" {
		src = " (" + e.Source + ")"
	}
	return fmt.Sprintf("intent %q%s: %s", e.Intent, src, e.Reason)
}

// Unwrap makes an IntentError match ErrBadIntent.
func (e *IntentError) Unwrap() error { return ErrBadIntent }

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// check validates in and returns its slot pattern words per phrasing.
func (in *Intent) check() ([][]patternWord, error) {
	bad := func(format string, args ...any) ([][]patternWord, error) {
		return nil, &IntentError{Intent: in.Name, Source: in.Source, Reason: fmt.Sprintf(format, args...)}
	}
	if !nameRE.MatchString(in.Name) {
		return bad("the name must match %s", nameRE)
	}
	if in.Description == "" || len(in.Description) > MaxDescriptionSize {
		return bad("a description of 1..%d bytes is required", MaxDescriptionSize)
	}
	if in.SideEffect == "" {
		in.SideEffect = tools.SideEffectNone
	}
	if !in.SideEffect.Valid() {
		return bad("side effect %q is not one of %v", in.SideEffect, tools.SideEffects())
	}
	if len(in.Slots) > MaxSlots {
		return bad("%d slots, over %d", len(in.Slots), MaxSlots)
	}
	seen := map[string]bool{}
	for _, s := range in.Slots {
		if !nameRE.MatchString(s.Name) || seen[s.Name] {
			return bad("slot %q: a unique name matching %s is required", s.Name, nameRE)
		}
		seen[s.Name] = true
		switch s.Type {
		case TypeString, TypeInteger, TypeNumber, TypeBoolean, TypeDuration:
			if len(s.Enum) > 0 {
				return bad("slot %s: only an enum slot has values", s.Name)
			}
		case TypeEnum:
			if len(s.Enum) == 0 {
				return bad("slot %s: an enum slot needs values", s.Name)
			}
		default:
			return bad("slot %s: type %q is not one of string, integer, number, boolean, duration, enum", s.Name, s.Type)
		}
		if err := s.checkConstraints(); err != nil {
			return bad("slot %s: %v", s.Name, err)
		}
	}
	if len(in.Phrasings) == 0 || len(in.Phrasings) > MaxPhrasings {
		return bad("1..%d phrasings are required", MaxPhrasings)
	}
	var out [][]patternWord
	for _, p := range in.Phrasings {
		pw, err := parsePhrasing(p)
		if err != nil {
			return bad("phrasing %q: %v", p, err)
		}
		for _, w := range pw {
			if w.slot != "" && !seen[w.slot] {
				return bad("phrasing %q names slot {%s}, which the intent does not have", p, w.slot)
			}
		}
		out = append(out, pw)
	}
	return out, nil
}

// Schema is the JSON Schema of the intent's arguments: one property per
// slot with its type (an enum slot's values, a duration's whole seconds)
// and constraints (minimum, maximum, pattern, maxLength, the kind's
// refusals as "not"), the required slots required, nothing else allowed.
func (in Intent) Schema() json.RawMessage { return in.schema(Slot.property) }

// promptSchema is Schema as a repair's model is shown it: a string slot's
// kind is said in a "$comment" instead of as the kind's patterns (the
// validation still checks them), which would cost the prompt hundreds of
// tokens per candidate.
func (in Intent) promptSchema() json.RawMessage { return in.schema(Slot.promptProperty) }

func (in Intent) schema(property func(Slot) map[string]any) json.RawMessage {
	props := map[string]any{}
	var req []string
	for _, s := range in.Slots {
		props[s.Name] = property(s)
		if s.Required {
			req = append(req, s.Name)
		}
	}
	schema := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(req) > 0 {
		schema["required"] = req
	}
	b, _ := json.Marshal(schema)
	return b
}

// tool is the intent's trusted binding: the executor validates accepted
// results against it and runs Handler.
func (in Intent) tool() tools.Tool {
	h := in.Handler
	if h == nil {
		h = func(_ context.Context, args json.RawMessage) (any, error) { return json.RawMessage(args), nil }
	}
	return tools.Tool{Name: in.Name, Description: in.Description, Schema: in.Schema(), Capabilities: in.Capabilities,
		SideEffect: in.SideEffect, Handler: h}
}

// patternWord is one word of a phrasing: a literal word or a slot.
type patternWord struct {
	word, slot string
}

// parsePhrasing splits "set a timer for {duration}" into words and slots,
// with the tokenizer utterances use.
func parsePhrasing(p string) ([]patternWord, error) {
	var out []patternWord
	for _, f := range strings.Fields(p) {
		if strings.HasPrefix(f, "{") && strings.HasSuffix(f, "}") {
			name := f[1 : len(f)-1]
			if !nameRE.MatchString(name) {
				return nil, fmt.Errorf("slot place %q: want {name}", f)
			}
			out = append(out, patternWord{slot: name})
			continue
		}
		for _, w := range Tokens(f) {
			out = append(out, patternWord{word: w})
		}
	}
	if len(out) == 0 || len(out) > MaxPhrasingWords {
		return nil, fmt.Errorf("1..%d words are required", MaxPhrasingWords)
	}
	return out, nil
}
