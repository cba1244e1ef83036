package prompt

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/cespare/xxhash/v2"
)

// ToolSchema is what the provider's tool channel gets for one active tool:
// a function named Name, described by Description, whose arguments
// Parameters (a JSON Schema in canonical form) describes.
type ToolSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// content is what the model receives for one unit: a text block (the
// unit's section entry) or a tool schema with its serialisation, and the
// XXH64 of those bytes.
type content struct {
	text string      // the rendered block, or the tool schema's JSON
	tool *ToolSchema // nil for text units
	hash string      // hex XXH64 of text
}

// Rendering. Every piece of Text ends in "\n" and the next begins with
// "#", so no tokenizer piece spans two of them and the tokens of Text are
// the sum of the tokens of its pieces (TestLedgerCountsExactlyWhatIsSent
// checks it): a unit's cost is counted once, when the catalog is built.

var sectionTitles = map[Kind]string{
	KindInstruction: "## Instructions\n\n",
	KindSkill:       "## Skills\n\n",
	KindResource:    "## Resources\n\n",
	KindContext:     "## Context\n\n",
}

// header opens Text. It names the tools as active, never as registered:
// the model sees only what this compile made visible.
func header(tools int) string {
	s := "# Active context for this task\n\nThe sections below hold only the units active for this task."
	switch tools {
	case 0:
	case 1:
		s += " 1 active tool is available through the tool channel."
	default:
		s += fmt.Sprintf(" %d active tools are available through the tool channel.", tools)
	}
	return s + "\n\n"
}

// contentOf renders u (already normalised).
func contentOf(u *Unit) (content, error) {
	if u.Kind.IsTool() {
		desc := u.Description
		if strings.TrimSpace(desc) == "" {
			desc = u.Title
		}
		ts := &ToolSchema{Name: u.ID, Description: desc, Parameters: u.Schema}
		b, err := marshal(ts)
		if err != nil {
			return content{}, err
		}
		return content{text: string(b), tool: ts, hash: hash64(b)}, nil
	}
	title := strings.Join(strings.Fields(u.Title), " ")
	if title == "" {
		title = u.ID
	}
	block := "### " + title + " [" + u.ID + "]\n" + strings.TrimRightFunc(u.Body, unicode.IsSpace) + "\n\n"
	return content{text: block, hash: hash64([]byte(block))}, nil
}

// marshal is the one serialisation of what is sent, counted and hashed:
// encoding/json's, as Go providers send it (HTML characters escaped).
func marshal(v any) ([]byte, error) { return json.Marshal(v) }

func hash64(b []byte) string { return fmt.Sprintf("%016x", xxhash.Sum64(b)) }

// packed is one unit of the final projection.
type packed struct {
	c    *candidate
	cost int
}

// render builds Text (text units by section in Kinds order, each section
// in the given order) and the tool schemas, and returns them with the
// tokens of every piece of Text that is not a unit (header and section
// titles).
func render(enc Encoding, units []packed) (text string, tools []ToolSchema, framing int, err error) {
	var nTools int
	for _, p := range units {
		if p.c.unit.Kind.IsTool() {
			nTools++
		}
	}
	if len(units) == 0 {
		return "", []ToolSchema{}, 0, nil
	}
	var b strings.Builder
	count := func(s string) error {
		n, err := countTokens(enc, s)
		framing += n
		b.WriteString(s)
		return err
	}
	if err := count(header(nTools)); err != nil {
		return "", nil, 0, err
	}
	tools = make([]ToolSchema, 0, nTools)
	for _, k := range Kinds {
		first := true
		for _, p := range units {
			if p.c.unit.Kind != k {
				continue
			}
			if k.IsTool() {
				tools = append(tools, *p.c.content.tool)
				continue
			}
			if first {
				if err := count(sectionTitles[k]); err != nil {
					return "", nil, 0, err
				}
				first = false
			}
			b.WriteString(p.c.content.text)
		}
	}
	return b.String(), tools, framing, nil
}

// fingerprint is the hex XXH64 of the canonical JSON of what the model
// receives: the mode, the budget, the active units in render order with
// their content hashes, and the tool schemas as sent.
func fingerprint(mode Mode, budget int, active []packed, tools []ToolSchema) (string, error) {
	type unit struct {
		ID   string `json:"id"`
		Kind Kind   `json:"kind"`
		Hash string `json:"hash"`
	}
	doc := struct {
		Mode   Mode         `json:"mode"`
		Budget int          `json:"budget"`
		Units  []unit       `json:"units"`
		Tools  []ToolSchema `json:"tools"`
	}{Mode: mode, Budget: budget, Units: make([]unit, len(active)), Tools: tools}
	for i, p := range active {
		doc.Units[i] = unit{ID: p.c.unit.ID, Kind: p.c.unit.Kind, Hash: p.c.content.hash}
	}
	b, err := marshal(doc)
	if err != nil {
		return "", err
	}
	return hash64(b), nil
}
