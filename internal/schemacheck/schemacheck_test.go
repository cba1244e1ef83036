package schemacheck

import (
	"encoding/json"
	"testing"
)

func TestNumericBoundMessagesAreWordedWithPlainNumbers(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"limit":{"type":"integer","minimum":1,"maximum":1000},
		"ratio":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1.5}}}`)
	r, err := Compile(schema)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args, path, msg string
	}{
		{`{"limit":1000000}`, "/properties/limit", "1000000 is more than the maximum 1000"},
		{`{"limit":0}`, "/properties/limit", "0 is less than the minimum 1"},
		{`{"limit":-7}`, "/properties/limit", "-7 is less than the minimum 1"},
		{`{"ratio":0}`, "/properties/ratio", "0 is not more than the exclusive minimum 0"},
		{`{"ratio":2.25}`, "/properties/ratio", "2.25 is not less than the exclusive maximum 1.5"},
		{`{"limit":"ten"}`, "/properties/limit", `type: ten has type "string", want "integer"`},
	}
	for _, tt := range tests {
		var doc any
		if err := json.Unmarshal([]byte(tt.args), &doc); err != nil {
			t.Fatal(err)
		}
		err := r.Validate(doc)
		if err == nil {
			t.Fatalf("%s: no validation error", tt.args)
		}
		path, msg := SplitValidation(err)
		if path != tt.path || msg != tt.msg {
			t.Errorf("%s: SplitValidation = %q, %q; want %q, %q", tt.args, path, msg, tt.path, tt.msg)
		}
	}
}
