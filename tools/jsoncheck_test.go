package tools

import (
	"strings"
	"testing"
)

func TestCheckJSONAcceptsOnlyOneUnambiguousObject(t *testing.T) {
	cases := []struct {
		in   string
		want string // "" = accepted, else a substring of the error
	}{
		{`{}`, ""},
		{` {"a":1,"b":[{"a":2},{"a":3}],"c":{"a":{"a":null}}} `, ""},
		{`{"a":"A","b":"a"}`, ""}, // equal values are fine
		{`{"ß":1,"ss":2}`, ""},    // not equal under simple folding
		{``, "empty"},
		{`   `, "empty"},
		{`[]`, "not a JSON object"},
		{`"x"`, "not a JSON object"},
		{`1`, "not a JSON object"},
		{`{} {}`, "data after"},
		{`{}[]`, "data after"},
		{`{}1`, "data after"},
		{`{"a":1`, "end of JSON"},
		{`{"a" 1}`, "malformed"},
		{`{"a":1,}`, "malformed"},
		{`{'a':1}`, "malformed"},
		{"{\"a\":\"\xff\"}", "UTF-8"},
		{`{"a":1,"a":1}`, "duplicate key"},
		{`{"a":1,"A":1}`, "duplicate key"},
		{`{"k":1,"\u212a":1}`, "duplicate key"},
		{`{"x":[{"b":1},{"b":1,"B":2}]}`, "duplicate key"},
		{`{"x":{"y":{}},"x":2}`, "duplicate key"},
	}
	for _, c := range cases {
		err := checkJSON(c.in, 0)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("checkJSON(%q) = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestCheckJSONBoundsDepth(t *testing.T) {
	for depth := 1; depth <= 5; depth++ {
		in := nested(depth)
		if err := checkJSON(in, depth); err != nil {
			t.Errorf("depth %d at limit %d: %v", depth, depth, err)
		}
		if err := checkJSON(in, depth-1); depth > 1 && (err == nil || !strings.Contains(err.Error(), "deeper")) {
			t.Errorf("depth %d at limit %d: %v, want refused", depth, depth-1, err)
		}
	}
	if err := checkJSON(`{"a":{"b":[1]},"c":[[2]],"d":{}}`, 3); err != nil {
		t.Errorf("siblings add no depth: %v", err)
	}
}
