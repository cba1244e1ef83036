// Package schemacheck is rlm's one check of a JSON Schema for tool
// arguments: valid against the draft 2020-12 meta-schema (embedded, never
// loaded over the network), "$schema" absent or that draft, the root of
// type "object", every reference resolvable inside the schema and every
// "pattern" a valid regular expression. The tool registry (package tools)
// and the prompt compiler's catalogs (package prompt) both use it, so a
// schema one accepts the other accepts.
package schemacheck

import (
	"embed"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

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

// Compile checks schema (see the package doc) and resolves it for
// validating arguments. The error says what is wrong, in words; it does
// not check the JSON text itself (duplicate keys, depth): callers do.
func Compile(schema json.RawMessage) (*jsonschema.Resolved, error) {
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return nil, err
	}
	meta, err := metaSchema()
	if err != nil {
		return nil, fmt.Errorf("loading the draft 2020-12 meta-schema: %w", err)
	}
	if err := meta.Validate(doc); err != nil {
		path, msg := SplitValidation(err)
		return nil, fmt.Errorf("not a draft 2020-12 schema at %s: %s", path, msg)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	if s.Schema != "" && s.Schema != metaPrefix+"schema" {
		return nil, fmt.Errorf("$schema %q: only draft 2020-12 is supported", s.Schema)
	}
	if s.Type != "object" {
		return nil, fmt.Errorf(`the root must have "type": "object" (tool arguments are an object)`)
	}
	return s.Resolve(nil)
}

// SplitValidation turns a jsonschema validation error, a chain of
// "validating LOCATION: " prefixes ending in a message, into the innermost
// location and the message.
func SplitValidation(err error) (path, msg string) {
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
