package intent

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/rlm-dev/rlm/internal/schemacheck"
	"github.com/rlm-dev/rlm/internal/textclip"
)

// TextKind is what an open string slot may hold (Slot.Kind). Closed
// vocabulary; "" is KindText.
type TextKind string

// Kinds of string slots.
const (
	// KindText: words a person says — no URL ("http://…", "www.…", a
	// dotted host name like "evil.example"), no file path ("/etc/passwd",
	// "~/x", "a/b/c", a backslash) and nothing code-like (any of
	// ( ) { } [ ] < > ; = | `, "$name" or ":-"). The default.
	KindText TextKind = "text"
	// KindName: a name that stands for one thing by itself (a person, a
	// room, a place, a number to dial): letters, digits, apostrophes,
	// dots, hyphens, plus signs and spaces only, and no pronoun or
	// indefinite word (me, you, her, it, this, a, an, some, someone...) —
	// those need a referent or a choice the router does not have.
	// KindText's refusals apply too.
	KindName TextKind = "name"
	// KindAny: any text (the slot allows URLs, paths and code).
	KindAny TextKind = "any"
)

// Default and largest MaxLength of a string slot, in bytes.
const (
	DefaultMaxLength = 512
	MaxMaxLength     = MaxUtteranceBytes
)

// The shapes KindText refuses, each an RE2 expression: a URL scheme,
// "www." or a dotted host name; a path (a leading "/", "~/", "./" or
// "../" before a name, two slashes, a backslash — "AC/DC", "1/2" and a
// lone "/" are not paths); code
// punctuation (brackets, "<>;=|`", "$name", ":-").
// refusedTextPattern (all three) is also the JSON Schema "not" pattern of
// such a slot.
const (
	urlPattern         = `[a-z][a-z0-9+.-]*://|\bwww\.|\b[a-z0-9-]+\.[a-z]{2,}\b`
	pathPattern        = `(?:^|\s)(?:~|\.{1,2})?/[^\s/]|/[^\s/]*/|\\`
	codePattern        = "[(){}\\[\\]<>;=|`]|\\$[a-z_{(]|:-"
	refusedTextPattern = "(?i)(?:" + urlPattern + ")|(?:" + pathPattern + ")|(?:" + codePattern + ")"
)

// namePattern is what KindName allows; notNamePattern what it refuses
// besides KindText's shapes.
const (
	namePattern    = `^[\p{L}\p{N}][\p{L}\p{M}\p{N}'’. +-]*$`
	notNamePattern = `(?i)(?:^|\s)(?:me|myself|you|yourself|him|her|it|us|them|this|that|these|those|a|an|some|any|another|someone|somebody|something|anyone|anybody|anything|everyone|everybody|everything|nobody|nothing)(?:\s|$)`
)

var shapes = []struct {
	name string
	re   *regexp.Regexp
}{{"url", regexp.MustCompile("(?i)" + urlPattern)}, {"path", regexp.MustCompile("(?i)" + pathPattern)}, {"code", regexp.MustCompile("(?i)" + codePattern)}}

// Shapes are the shapes KindText refuses that raw text has: "url",
// "path", "code", in that order. They are features of an utterance for
// the rules (a repair may not accept an utterance with one).
func Shapes(text string) []string {
	var out []string
	for _, sh := range shapes {
		if sh.re.MatchString(text) {
			out = append(out, sh.name)
		}
	}
	return out
}

// checkConstraints checks a slot's constraints at load.
func (s Slot) checkConstraints() error {
	numeric := s.Type == TypeInteger || s.Type == TypeNumber || s.Type == TypeDuration
	if (s.Min != nil || s.Max != nil) && !numeric {
		return fmt.Errorf("min and max are for integer, number and duration slots")
	}
	if s.Min != nil && s.Max != nil && *s.Min > *s.Max {
		return fmt.Errorf("min %g is over max %g", *s.Min, *s.Max)
	}
	if s.Type != TypeString && (s.Pattern != "" || s.MaxLength != 0 || s.Kind != "") {
		return fmt.Errorf("pattern, max_length and kind are for string slots")
	}
	if s.MaxLength < 0 || s.MaxLength > MaxMaxLength {
		return fmt.Errorf("max_length %d: want 1..%d", s.MaxLength, MaxMaxLength)
	}
	switch s.Kind {
	case "", KindText, KindName, KindAny:
	default:
		return fmt.Errorf("kind %q is not one of text, name, any", s.Kind)
	}
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			return fmt.Errorf("pattern %q: %v", s.Pattern, err)
		}
	}
	return nil
}

// property is the slot's JSON Schema: its type and every constraint, the
// one definition both the tool binding (tools.Executor.Check) and the
// per-slot check use.
func (s Slot) property() map[string]any {
	p := map[string]any{"description": s.Description}
	switch s.Type {
	case TypeString:
		max := s.MaxLength
		if max == 0 {
			max = DefaultMaxLength
		}
		p["type"], p["minLength"], p["maxLength"] = "string", 1, max
		var patterns []string
		if s.Pattern != "" {
			patterns = append(patterns, s.Pattern)
		}
		switch s.Kind {
		case "", KindText:
			p["not"] = map[string]any{"pattern": refusedTextPattern}
		case KindName:
			patterns = append(patterns, namePattern)
			p["not"] = map[string]any{"anyOf": []any{map[string]any{"pattern": refusedTextPattern}, map[string]any{"pattern": notNamePattern}}}
		}
		switch len(patterns) {
		case 1:
			p["pattern"] = patterns[0]
		case 2:
			p["allOf"] = []any{map[string]any{"pattern": patterns[0]}, map[string]any{"pattern": patterns[1]}}
		}
	case TypeInteger:
		p["type"] = "integer"
	case TypeNumber:
		p["type"] = "number"
	case TypeBoolean:
		p["type"] = "boolean"
	case TypeDuration:
		p["type"], p["minimum"] = "integer", 1
		p["description"] = strings.TrimSpace(s.Description + " (seconds)")
	case TypeEnum:
		p["type"], p["enum"] = "string", slices.Clone(s.Enum)
	}
	if s.Min != nil {
		p["minimum"] = *s.Min
	}
	if s.Max != nil {
		p["maximum"] = *s.Max
	}
	return p
}

// promptProperty is property without a kind's patterns, the kind said in
// a "$comment" (Intent.promptSchema).
func (s Slot) promptProperty() map[string]any {
	p := s.property()
	if s.Type != TypeString {
		return p
	}
	delete(p, "not")
	delete(p, "allOf")
	p["pattern"] = s.Pattern
	if s.Pattern == "" {
		delete(p, "pattern")
	}
	switch s.Kind {
	case "", KindText:
		p["$comment"] = "words: no URL, path or code"
	case KindName:
		p["$comment"] = "a name: no pronoun, no a/an/some, no URL, path or code"
	}
	return p
}

// slotCheck validates one slot's value against its property alone.
type slotCheck struct {
	slot    Slot
	schema  *jsonschema.Resolved
	pattern *regexp.Regexp // the slot's own pattern; nil without one
}

// compileSlot compiles the slot's property as a one-property object
// schema, and its pattern for refusal messages.
func compileSlot(s Slot) (slotCheck, error) {
	b, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{s.Name: s.property()}})
	rs, err := schemacheck.Compile(b)
	if err != nil {
		return slotCheck{}, err
	}
	c := slotCheck{slot: s, schema: rs}
	if s.Pattern != "" {
		if c.pattern, err = regexp.Compile(s.Pattern); err != nil {
			return slotCheck{}, err
		}
	}
	return c, nil
}

var (
	nameKindRE    = regexp.MustCompile(namePattern)
	notNameKindRE = regexp.MustCompile(notNamePattern)
)

// check says why value is not a value of the slot, or "" when it is. A
// refusal by a pattern — the slot's own, or its kind's — says what was
// refused and which pattern refused it briefly (patternRefusal), never
// the expression, which may be hundreds of bytes; other refusals are the
// schema validator's message, clipped to 200 bytes.
func (c slotCheck) check(value any) string {
	if c.schema == nil {
		return ""
	}
	err := c.schema.Validate(map[string]any{c.slot.Name: value})
	if err == nil {
		return ""
	}
	_, msg := schemacheck.SplitValidation(err)
	if v, ok := value.(string); ok && (strings.HasPrefix(msg, "pattern:") || strings.HasPrefix(msg, "not:")) {
		if why := c.patternRefusal(v); why != "" {
			return why
		}
	}
	return textclip.Clean(msg, 200)
}

// patternRefusal says which of the slot's patterns refuses v, in the
// order a reader checks them: the slot's own pattern (named by the slot's
// description: `"today" does not match the slot's pattern (time of
// day)`), then its kind's — a name's characters, a pronoun or indefinite
// word in a name, a URL, path or code shape. "" when none does.
func (c slotCheck) patternRefusal(v string) string {
	q := textclip.Clean(v, 80)
	s := c.slot
	if c.pattern != nil && !c.pattern.MatchString(v) {
		if d := strings.TrimSpace(s.Description); d != "" {
			return fmt.Sprintf("%q does not match the slot's pattern (%s)", q, textclip.Clean(d, 80))
		}
		return fmt.Sprintf("%q does not match the slot's pattern", q)
	}
	kind := s.Kind
	if kind == "" {
		kind = KindText
	}
	if kind == KindAny {
		return ""
	}
	if kind == KindName && !nameKindRE.MatchString(v) {
		return fmt.Sprintf("%q is not a name (kind name: letters, digits, ' . - + and spaces)", q)
	}
	if sh := Shapes(v); len(sh) > 0 {
		return fmt.Sprintf("%q has the shape of %s (kind %s)", q, strings.Join(sh, ", "), kind)
	}
	if kind == KindName && notNameKindRE.MatchString(v) {
		return fmt.Sprintf("%q is not a name (kind name: no pronoun or indefinite word)", q)
	}
	return ""
}

// spans splits text into its whitespace-separated fields and its tokens,
// with the field each token came from (at[i] indexes fields): Tokens(text)
// is the concatenation of Tokens(field) over the fields, so the raw text
// behind a slot's words can be checked (the tokens have lost the
// punctuation of "http://evil.example" and the "=" of "x = 1").
func spans(text string) (toks []string, at []int, fields []string) {
	fields = strings.Fields(text)
	for i, f := range fields {
		for _, t := range Tokens(f) {
			if len(toks) == MaxTokens {
				return toks, at, fields
			}
			toks, at = append(toks, t), append(at, i)
		}
	}
	return toks, at, fields
}

// rawText is the raw text behind words, a run of the utterance's tokens:
// where the words occur contiguously (the first place), the fields from
// the first word's to the last word's, with the fields without a token
// around them (punctuation the words lost, like the "=" of "x = 1");
// else the fields of each word's first occurrence. ok is false when a
// word is not a token.
func (u utterance) rawText(words []string) (string, bool) {
	if len(words) == 0 {
		return "", false
	}
	for i := 0; i+len(words) <= len(u.toks); i++ {
		j := i + len(words)
		if !slices.Equal(u.toks[i:j], words) {
			continue
		}
		lo, hi := 0, len(u.fields)-1
		if i > 0 {
			lo = min(u.at[i], u.at[i-1]+1)
		}
		if j < len(u.toks) {
			hi = max(u.at[j-1], u.at[j]-1)
		}
		return strings.Join(u.fields[lo:hi+1], " "), true
	}
	var idx []int
	for _, w := range words {
		k := slices.Index(u.toks, w)
		if k < 0 {
			return "", false
		}
		if !slices.Contains(idx, u.at[k]) {
			idx = append(idx, u.at[k])
		}
	}
	slices.Sort(idx)
	out := make([]string, len(idx))
	for n, k := range idx {
		out[n] = u.fields[k]
	}
	return strings.Join(out, " "), true
}
