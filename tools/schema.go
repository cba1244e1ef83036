package tools

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// ErrInvalidSchema is matched (errors.Is) by every error ValidateSchema
// returns.
var ErrInvalidSchema = errors.New("tools: invalid tool schema")

//go:embed metaschema/draft2020-12
var metaFS embed.FS

const metaPrefix = "https://json-schema.org/draft/2020-12/"

// metaSchema is the draft 2020-12 meta-schema, resolved once; it is never
// changed after that (jsonschema.Resolved is safe for concurrent Validate).
var metaSchema = sync.OnceValues(func() (*jsonschema.Resolved, error) {
	root, err := loadMeta("schema")
	if err != nil {
		return nil, err
	}
	return root.Resolve(&jsonschema.ResolveOptions{Loader: func(u *url.URL) (*jsonschema.Schema, error) {
		name, ok := strings.CutPrefix(u.String(), metaPrefix)
		if !ok {
			return nil, fmt.Errorf("no meta-schema %s offline", u)
		}
		return loadMeta(name)
	}})
})

func loadMeta(name string) (*jsonschema.Schema, error) {
	b, err := metaFS.ReadFile("metaschema/draft2020-12/" + name + ".json")
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("meta-schema %s: %w", name, err)
	}
	return &s, nil
}

// ValidateSchema checks a tool's argument schema the way Register does:
// well-formed JSON without duplicate keys, valid against the JSON Schema
// draft 2020-12 meta-schema ("$schema" absent or that draft), every
// reference resolvable inside the schema (no remote loading), every
// "pattern" a valid regular expression, and the root of type "object". A
// nil or empty schema is the no-arguments schema and is valid. Errors match
// ErrInvalidSchema.
func ValidateSchema(schema json.RawMessage) error {
	_, err := compileSchema(schema)
	return err
}

// compileSchema validates schema (see ValidateSchema) and resolves it for
// argument validation.
func compileSchema(schema json.RawMessage) (*jsonschema.Resolved, error) {
	schema = effectiveSchema(schema)
	fail := func(format string, args ...any) (*jsonschema.Resolved, error) {
		return nil, fmt.Errorf("%w: %s", ErrInvalidSchema, fmt.Sprintf(format, args...))
	}
	if err := checkJSON(string(schema), 0); err != nil {
		return fail("%v", err)
	}
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return fail("%v", err)
	}
	meta, err := metaSchema()
	if err != nil {
		return nil, fmt.Errorf("tools: loading the draft 2020-12 meta-schema: %w", err)
	}
	if err := meta.Validate(doc); err != nil {
		path, msg := splitValidation(err)
		return fail("not a draft 2020-12 schema at %s: %s", path, msg)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return fail("%v", err)
	}
	if s.Schema != "" && s.Schema != metaPrefix+"schema" {
		return fail("$schema %q: only draft 2020-12 is supported", s.Schema)
	}
	if s.Type != "object" {
		return fail(`the root must have "type": "object" (tool arguments are an object)`)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return fail("%v", err)
	}
	return rs, nil
}

// splitValidation turns a jsonschema validation error, a chain of
// "validating LOCATION: " prefixes ending in a message, into the innermost
// location and the message.
func splitValidation(err error) (path, msg string) {
	msg, path = err.Error(), "root"
	for {
		rest, ok := strings.CutPrefix(msg, "validating ")
		if !ok {
			return path, msg
		}
		loc, after, ok := strings.Cut(rest, ": ")
		if !ok {
			return path, msg
		}
		path, msg = loc, after
	}
}
