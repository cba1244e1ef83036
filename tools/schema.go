package tools

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/rlm-dev/rlm/internal/schemacheck"
)

// ErrInvalidSchema is matched (errors.Is) by every error ValidateSchema
// returns.
var ErrInvalidSchema = errors.New("tools: invalid tool schema")

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
	rs, err := schemacheck.Compile(schema)
	if err != nil {
		return fail("%v", err)
	}
	return rs, nil
}

// splitValidation is schemacheck.SplitValidation.
func splitValidation(err error) (path, msg string) { return schemacheck.SplitValidation(err) }
