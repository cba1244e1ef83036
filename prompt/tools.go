package prompt

import (
	"encoding/json"
	"strings"

	"github.com/rlm-dev/rlm/internal/textclip"
)

// ToolSpec is what a tool registry knows of a tool that the model may be
// shown: its name, description, argument schema and the capabilities it
// needs. Handlers stay in the registry; a catalog never holds them.
type ToolSpec struct {
	Name         string
	Description  string
	Schema       json.RawMessage // JSON Schema of the arguments
	Capabilities []string
}

// UnitsFromTools turns a registry's tool specs into relevant tool units
// (Source "registry"), in the same order, for an ephemeral catalog that
// the caller builds with NewCatalog and releases when done. The name
// becomes the unit id; the candidate index splits it like an identifier,
// so a task naming the tool or a part of its name finds it.
//
// A registry's descriptions are made to fit a catalog rather than refused:
// an empty (or blank) one becomes "tool NAME"; one that is not valid UTF-8
// has its bad bytes replaced with U+FFFD; one over MaxDescriptionBytes is
// clipped to it, ending in textclip.Ellipsis. The name and the schema are
// kept as they are (NewCatalog checks them as the registry does).
func UnitsFromTools(specs []ToolSpec) []Unit {
	out := make([]Unit, len(specs))
	for i, s := range specs {
		desc := strings.ToValidUTF8(s.Description, "\uFFFD")
		if strings.TrimSpace(desc) == "" {
			desc = "tool " + s.Name
		}
		out[i] = Unit{
			ID:           s.Name,
			Kind:         KindTool,
			Description:  textclip.Fit(desc, MaxDescriptionBytes),
			Schema:       s.Schema,
			Activation:   ActivationRelevant,
			Capabilities: append([]string(nil), s.Capabilities...),
			Source:       "registry",
		}
	}
	return out
}
