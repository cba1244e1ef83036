package tools

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
)

// fuzzSchema is the schema the fuzz target's tool declares; fuzzOracle
// checks the same rules independently, by hand.
const fuzzSchema = `{"type":"object",
	"properties":{"path":{"type":"string","pattern":"^[a-z0-9_/]{1,32}$"},"n":{"type":"integer","minimum":0,"maximum":10}},
	"required":["path"],"additionalProperties":false}`

var fuzzPath = regexp.MustCompile(`^[a-z0-9_/]{1,32}$`)

// fuzzOracle reports whether args, as the handler received them, is a
// flat JSON object with unique keys, a string "path" matching the pattern
// and at most an integer "n" in [0, 10] besides.
func fuzzOracle(args []byte) error {
	dec := json.NewDecoder(strings.NewReader(string(args)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return errors.New("not an object")
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string)
		if seen[strings.ToLower(key)] {
			return errors.New("duplicate key " + key)
		}
		seen[strings.ToLower(key)] = true
		val, err := dec.Token()
		if err != nil {
			return err
		}
		switch key {
		case "path":
			if s, ok := val.(string); !ok || !fuzzPath.MatchString(s) {
				return errors.New("bad path")
			}
		case "n":
			if f, ok := val.(float64); !ok || f != float64(int(f)) || f < 0 || f > 10 {
				return errors.New("bad n")
			}
		default:
			return errors.New("extra key " + key)
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return errors.New("unterminated")
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data")
	}
	if !seen["path"] {
		return errors.New("no path")
	}
	return nil
}

// FuzzExecuteNeverRunsRefusedCalls: whatever the model sends, the handler
// runs only for a visible registered tool whose arguments validate against
// its schema, and the model always gets back JSON.
func FuzzExecuteNeverRunsRefusedCalls(f *testing.F) {
	seeds := []struct {
		name, args string
		visible    bool
	}{
		{"read", `{"path":"src/a"}`, true},
		{"read", `{"path":"src/a","n":3}`, true},
		{"read", `{"path":"src/a"}`, false},
		{"read", `{"path":"../../etc/passwd"}`, true},
		{"read", `{"path":"a","path":"b"}`, true},
		{"read", `{"path":"a","PATH":"b"}`, true},
		{"read", `{"path":"a","n":1.5}`, true},
		{"read", `{"path":"a","n":11}`, true},
		{"read", `{"path":"a","x":1}`, true},
		{"read", `{"path":"a"} {}`, true},
		{"read", `[{"path":"a"}]`, true},
		{"read", `{"path":"a\u0000"}`, true},
		{"read", `{"path":"; rm -rf /"}`, true},
		{"read", "{\"path\":\"a\xff\"}", true},
		{"read", ``, true},
		{"halt", `{"path":"a"}`, true},
		{"call(halt)", `{"path":"a"}`, true},
		{"X = 1, call(halt)", `{}`, true},
		{"read", strings.Repeat(`{"a":`, 200) + "1" + strings.Repeat("}", 200), true},
	}
	for _, s := range seeds {
		f.Add(s.name, s.args, s.visible)
	}
	rec := &recorder{}
	r := NewRegistry()
	mustRegister(f, r, Tool{Name: "read", SideEffect: SideEffectRead, Schema: json.RawMessage(fuzzSchema), Handler: rec.handler()})
	f.Fuzz(func(t *testing.T, name, args string, visible bool) {
		// A fuzz worker calls this function sequentially: reset the record.
		rec.mu.Lock()
		rec.calls = nil
		rec.mu.Unlock()
		var shown []string
		if visible {
			shown = []string{"read"}
		}
		out := (&Executor{Registry: r}).Execute(context.Background(), Call{Name: name, Arguments: args}, shown)
		if !json.Valid([]byte(out.Content)) {
			t.Fatalf("content is not JSON: %q", out.Content)
		}
		if out.OK != (rec.count() == 1) || rec.count() > 1 {
			t.Fatalf("OK = %v but the handler ran %d times", out.OK, rec.count())
		}
		if !out.OK {
			if out.Err == nil || !strings.Contains(out.Content, string(out.Err.Kind)) {
				t.Fatalf("refusal without a kind: %q", out.Content)
			}
			if len(args) > 1000 && strings.Contains(out.Content, args) {
				t.Fatalf("the refusal quotes all %d bytes of the arguments", len(args))
			}
			return
		}
		if name != "read" || !visible {
			t.Fatalf("a call to %q (visible %v) ran", name, visible)
		}
		if err := fuzzOracle(rec.last()); err != nil {
			t.Fatalf("the handler ran with arguments %q the schema refuses: %v", rec.last(), err)
		}
	})
}
