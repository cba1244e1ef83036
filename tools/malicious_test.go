package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostile are model outputs that look like code: Prolog goals, shell
// commands, traversal. As names they name no tool; as values they are
// strings.
var hostile = []string{
	"halt", "halt.", "call(halt)", "X = 1, call(halt)", "'$set'(x)", "; rm -rf /", "$(id)", "`id`",
	"../../etc/passwd", "/etc/passwd", "a\x00b",
}

func TestMaliciousModelOutputsAreRefusedAndNothingRuns(t *testing.T) {
	rec := &recorder{}
	r := NewRegistry()
	mustRegister(t, r,
		Tool{Name: "read_file", SideEffect: SideEffectRead, Handler: rec.handler(), Schema: json.RawMessage(`{
			"type":"object",
			"properties":{"path":{"type":"string","pattern":"^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$","not":{"pattern":"(^|/)\\.\\.(/|$)"}},
			              "limit":{"type":"integer","minimum":1,"maximum":1000},
			              "tags":{"type":"array","items":{"type":"string"}}},
			"required":["path"],"additionalProperties":false}`)},
		Tool{Name: "anything", SideEffect: SideEffectRead, Handler: rec.handler(), Schema: json.RawMessage(`{"type":"object"}`)},
	)
	visible := []string{"read_file", "anything"}
	tenMB := strings.Repeat("A", 10<<20)
	type tc struct {
		name       string
		call       Call
		want       ErrorKind
		maxArgSize int
	}
	var cases []tc
	for _, h := range hostile {
		cases = append(cases, tc{name: "name " + h, call: Call{Name: h, Arguments: `{"path":"a"}`}, want: KindUnknownTool})
		if h == "halt" || h == "halt." { // legitimate file names
			continue
		}
		cases = append(cases, tc{name: "path " + h, call: Call{Name: "read_file", Arguments: string(mustJSON(map[string]any{"path": h}))}, want: KindInvalidArguments})
	}
	for _, p := range []string{"..", "a/../../b", "a/..", "./../x", "a//b", "/"} {
		cases = append(cases, tc{name: "path " + p, call: Call{Name: "read_file", Arguments: string(mustJSON(map[string]any{"path": p}))}, want: KindInvalidArguments})
	}
	cases = append(cases, []tc{
		{name: "name not in the registry", call: Call{Name: "delete_everything", Arguments: `{}`}, want: KindUnknownTool},
		{name: "name differing in case", call: Call{Name: "Read_File", Arguments: `{"path":"a"}`}, want: KindUnknownTool},
		{name: "name 10 MB long", call: Call{Name: tenMB, Arguments: `{}`}, want: KindUnknownTool},
		{name: "arguments 10 MB long", call: Call{Name: "read_file", Arguments: `{"path":"` + tenMB + `"}`}, want: KindTooLarge},
		{name: "arguments one byte over the limit", call: Call{Name: "anything", Arguments: `{"a":"` + strings.Repeat("x", DefaultMaxArgBytes-7) + `"}`}, want: KindTooLarge},
		{name: "path of 10 KB", call: Call{Name: "read_file", Arguments: `{"path":"` + strings.Repeat("../", 3400) + `"}`}, want: KindInvalidArguments},
		{name: "extra property with a 10 KB name", call: Call{Name: "read_file", Arguments: `{"path":"a","` + strings.Repeat("k", 10000) + `":1}`}, want: KindInvalidArguments},
		{name: "duplicate 10 KB key", call: Call{Name: "anything", Arguments: `{"` + strings.Repeat("k", 10000) + `":1,"` + strings.Repeat("K", 10000) + `":1}`}, want: KindInvalidJSON},
		{name: "arguments not JSON", call: Call{Name: "read_file", Arguments: `{path: a}`}, want: KindInvalidJSON},
		{name: "arguments a Prolog term", call: Call{Name: "read_file", Arguments: `call(halt)`}, want: KindInvalidJSON},
		{name: "arguments truncated", call: Call{Name: "read_file", Arguments: `{"path":"a"`}, want: KindInvalidJSON},
		{name: "arguments with trailing data", call: Call{Name: "read_file", Arguments: `{"path":"a"} {"path":"b"}`}, want: KindInvalidJSON},
		{name: "arguments with trailing garbage", call: Call{Name: "read_file", Arguments: `{"path":"a"}; rm -rf /`}, want: KindInvalidJSON},
		{name: "arguments invalid UTF-8", call: Call{Name: "read_file", Arguments: "{\"path\":\"a\xff\"}"}, want: KindInvalidJSON},
		{name: "arguments an array", call: Call{Name: "read_file", Arguments: `[{"path":"a"}]`}, want: KindInvalidJSON},
		{name: "arguments a string", call: Call{Name: "read_file", Arguments: `"{\"path\":\"a\"}"`}, want: KindInvalidJSON},
		{name: "arguments null", call: Call{Name: "read_file", Arguments: `null`}, want: KindInvalidJSON},
		{name: "arguments a number too big", call: Call{Name: "anything", Arguments: `{"n":1e999}`}, want: KindInvalidJSON},
		{name: "duplicate key", call: Call{Name: "read_file", Arguments: `{"path":"a","path":"../../etc/passwd"}`}, want: KindInvalidJSON},
		{name: "duplicate key up to case", call: Call{Name: "anything", Arguments: `{"path":"a","PATH":"../../etc/passwd"}`}, want: KindInvalidJSON},
		{name: "duplicate key through the Kelvin sign", call: Call{Name: "anything", Arguments: `{"kind":"a","\u212aind":"b"}`}, want: KindInvalidJSON},
		{name: "duplicate key through an escape", call: Call{Name: "read_file", Arguments: `{"path":"a","pa\u0074h":"b"}`}, want: KindInvalidJSON},
		{name: "duplicate key nested", call: Call{Name: "anything", Arguments: `{"a":[{"x":1,"x":2}]}`}, want: KindInvalidJSON},
		{name: "wrong type", call: Call{Name: "read_file", Arguments: `{"path":7}`}, want: KindInvalidArguments},
		{name: "wrong type of an integer", call: Call{Name: "read_file", Arguments: `{"path":"a","limit":1.5}`}, want: KindInvalidArguments},
		{name: "integer out of range", call: Call{Name: "read_file", Arguments: `{"path":"a","limit":100000}`}, want: KindInvalidArguments},
		{name: "wrong item type", call: Call{Name: "read_file", Arguments: `{"path":"a","tags":["x",1]}`}, want: KindInvalidArguments},
		{name: "missing required", call: Call{Name: "read_file", Arguments: `{}`}, want: KindInvalidArguments},
		{name: "extra property", call: Call{Name: "read_file", Arguments: `{"path":"a","exec":"halt"}`}, want: KindInvalidArguments},
		{name: "extra property differing in case", call: Call{Name: "read_file", Arguments: `{"Path":"../x"}`}, want: KindInvalidArguments},
		{name: "objects nested 100k deep", maxArgSize: 64 << 20,
			call: Call{Name: "anything", Arguments: strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000)}, want: KindInvalidJSON},
		{name: "arrays nested 100k deep", maxArgSize: 64 << 20,
			call: Call{Name: "anything", Arguments: `{"a":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "}"}, want: KindInvalidJSON},
		{name: "nested one level too deep", call: Call{Name: "anything", Arguments: nested(MaxArgDepth + 1)}, want: KindInvalidJSON},
	}...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &Executor{Registry: r, Policy: Policy{MaxArgBytes: c.maxArgSize}}
			out := e.Execute(context.Background(), c.call, visible)
			checkRefused(t, out, c.want)
			if rec.count() != 0 {
				t.Fatalf("the handler ran for a refused call: %q", rec.last())
			}
			if len(out.Name) > MaxNameBytes+len("…") {
				t.Errorf("the outcome echoes a %d-byte name", len(out.Name))
			}
			if len(out.Content) > 600 {
				t.Errorf("the refusal is %d bytes long: it quotes too much of the call", len(out.Content))
			}
			if !json.Valid([]byte(out.Content)) {
				t.Errorf("content is not JSON: %q", out.Content)
			}
		})
	}
	t.Run("a legitimate call still runs", func(t *testing.T) {
		for _, args := range []string{`{"path":"src/main.go","limit":10}`, `{"path":"halt.","tags":["a"]}`, `{"path":".hidden/a..b"}`} {
			before := rec.count()
			out := (&Executor{Registry: r}).Execute(context.Background(), Call{Name: "read_file", Arguments: args}, visible)
			if !out.OK || rec.count() != before+1 || string(rec.last()) != args {
				t.Errorf("%s refused: %s", args, out.Content)
			}
		}
	})
	t.Run("the failing schema location is reported", func(t *testing.T) {
		out := (&Executor{Registry: r}).Execute(context.Background(), Call{Name: "read_file", Arguments: `{"path":"../../etc/passwd"}`}, visible)
		checkRefused(t, out, KindInvalidArguments)
		if out.Err.Path != "/properties/path" || !strings.Contains(out.Err.Message, "/properties/path") {
			t.Errorf("path %q, message %q: want the failing location /properties/path", out.Err.Path, out.Err.Message)
		}
	})
}

func TestNestingUpToTheLimitIsAccepted(t *testing.T) {
	rec := &recorder{}
	r := NewRegistry()
	mustRegister(t, r, Tool{Name: "anything", SideEffect: SideEffectNone, Schema: json.RawMessage(`{"type":"object"}`), Handler: rec.handler()})
	out := (&Executor{Registry: r}).Execute(context.Background(), Call{Name: "anything", Arguments: nested(MaxArgDepth)}, []string{"anything"})
	if !out.OK || rec.count() != 1 {
		t.Fatalf("arguments nested %d deep refused: %s", MaxArgDepth, out.Content)
	}
}

// nested returns an argument object whose objects and arrays nest depth
// levels deep (the top-level object is level 1).
func nested(depth int) string {
	inner := depth - 1
	return `{"a":` + strings.Repeat("[", inner) + "1" + strings.Repeat("]", inner) + "}"
}

// TestHostileStringsReachHandlersOnlyAsStringsTheSchemaAdmits: a value
// that looks like code is passed through as the same string when the
// schema admits any string, refused when a pattern does not, and never
// executed either way.
func TestHostileStringsReachHandlersOnlyAsStringsTheSchemaAdmits(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "pwned")
	values := append(append([]string{}, hostile...), "$(touch "+marker+")", "`touch "+marker+"`", "halt. :- initialization(halt).")
	for _, v := range values {
		t.Run(v, func(t *testing.T) {
			free, strict := &recorder{}, &recorder{}
			r := NewRegistry()
			mustRegister(t, r,
				Tool{Name: "free", SideEffect: SideEffectNone, Handler: free.handler(),
					Schema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)},
				Tool{Name: "strict", SideEffect: SideEffectNone, Handler: strict.handler(),
					Schema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","pattern":"^[0-9]+$"}},"required":["q"]}`)},
			)
			e := &Executor{Registry: r}
			args := string(mustJSON(map[string]string{"q": v}))
			out := e.Execute(context.Background(), Call{Name: "free", Arguments: args}, []string{"free", "strict"})
			if !out.OK || free.count() != 1 {
				t.Fatalf("a string the schema admits was refused: %s", out.Content)
			}
			var got struct{ Q any }
			if err := json.Unmarshal(free.last(), &got); err != nil || got.Q != v {
				t.Errorf("handler got %q (%T), want the string %q", free.last(), got.Q, v)
			}
			checkRefused(t, e.Execute(context.Background(), Call{Name: "strict", Arguments: args}, []string{"free", "strict"}), KindInvalidArguments)
			if strict.count() != 0 {
				t.Errorf("the pattern did not hold")
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatalf("a value was executed: %s exists", marker)
			}
		})
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestKeysDifferingOnlyInCaseFromADeclaredPropertyAreRefused: with a
// schema that leaves extra properties open, {"PATH": "../x"} passes the
// schema unchecked, yet encoding/json would decode it into a handler's
// `json:"path"` field. Such a key is refused at every depth the schema
// describes; an undeclared key that no property folds to still passes.
func TestKeysDifferingOnlyInCaseFromADeclaredPropertyAreRefused(t *testing.T) {
	rec := &recorder{}
	r := NewRegistry()
	mustRegister(t, r, Tool{Name: "open", SideEffect: SideEffectRead, Handler: rec.handler(), Schema: json.RawMessage(`{
		"type":"object",
		"properties":{"path":{"type":"string","pattern":"^[a-z]+$"},
		              "items":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string","pattern":"^[a-z]+$"}}}}}}`)})
	e := &Executor{Registry: r}
	for _, tc := range []struct{ args, where string }{
		{`{"PATH":"../x"}`, `key "PATH" at the top level`},
		{`{"Path":"../x"}`, `key "Path" at the top level`},
		{`{"items":[{"name":"ok"},{"NAME":"../x"}]}`, `key "NAME" at /items/1`},
	} {
		args := tc.args
		out := e.Execute(context.Background(), Call{Name: "open", Arguments: args}, []string{"open"})
		checkRefused(t, out, KindInvalidArguments)
		if !strings.Contains(out.Err.Message, tc.where+" differs only in case") {
			t.Errorf("%s: message %q does not say why and where (%s)", args, out.Err.Message, tc.where)
		}
		if rec.count() != 0 {
			t.Fatalf("%s reached the handler", args)
		}
	}
	for _, args := range []string{`{"path":"ok","other":"../x"}`, `{"items":[{"name":"ok","note":"x"}]}`} {
		if out := e.Execute(context.Background(), Call{Name: "open", Arguments: args}, []string{"open"}); !out.OK {
			t.Errorf("%s refused: %s", args, out.Content)
		}
	}
}
