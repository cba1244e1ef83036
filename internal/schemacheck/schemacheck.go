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
	"math/big"
	"net/url"
	"regexp"
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
// location and the message. A numeric bound's message, which the library
// words with a rational and a %f ("maximum: 1000000/1 is greater than
// 1000.000000"), is reworded with plain numbers ("1000000 is more than the
// maximum 1000").
func SplitValidation(err error) (path, msg string) {
	msg, path = err.Error(), "root"
	for {
		rest, ok := strings.CutPrefix(msg, "validating ")
		if !ok {
			return path, plainBound(msg)
		}
		loc, after, ok := strings.Cut(rest, ": ")
		if !ok {
			return path, msg
		}
		path, msg = loc, after
	}
}

// boundMessage matches jsonschema-go's numeric bound messages (validate.go:
// "%s: %s is less than %f", the instance a *big.Rat in its String form).
var boundMessage = regexp.MustCompile(`^(minimum|maximum|exclusiveMinimum|exclusiveMaximum): (-?[0-9]+/[0-9]+) is (?:less|greater) than (?:or equal to )?(-?[0-9.]+)$`)

// plainBound rewords a numeric bound message (see SplitValidation); any
// other message is returned as it is.
func plainBound(msg string) string {
	m := boundMessage.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	r, ok := new(big.Rat).SetString(m[2])
	if !ok {
		return msg
	}
	n := r.RatString()
	if !r.IsInt() {
		n = trimZeros(r.FloatString(6))
	}
	bound := trimZeros(m[3])
	word := map[string]string{
		"minimum": "less than the minimum", "maximum": "more than the maximum",
		"exclusiveMinimum": "not more than the exclusive minimum", "exclusiveMaximum": "not less than the exclusive maximum",
	}[m[1]]
	return n + " is " + word + " " + bound
}

// trimZeros drops a decimal number's trailing zeros and a bare point.
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}
