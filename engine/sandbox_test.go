package engine

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goldenBuiltins is every Go builtin the sandbox registers (sandboxBuiltins),
// as name/arity, sorted. Adding one is a decision about what a rule or a
// REPL query can reach: change this list, docs/RULES.md's "The sandbox"
// and builtins.go's comment together.
var goldenBuiltins = []string{
	"</2", "=../2", "=/2", "=:=/2", "=</2", `=\=/2`, ">/2", ">=/2", `\+/1`,
	"acyclic_term/1", "append/3", "arg/3", "atom/1", "atom_chars/2", "atom_codes/2",
	"atom_concat/3", "atom_length/2", "atomic_list_concat/2", "atomic_list_concat/3",
	"bagof/3", "between/3", "call/1", "call/2", "call/3", "call/4", "call/5",
	"catch/3", "char_code/2", "compare/3", "compound/1", "copy_term/2",
	"current_predicate/1", "current_prolog_flag/2", "findall/3", "float/1",
	"functor/3", "integer/1", "is/2", "keysort/2", "length/2", "nth0/3", "nth1/3",
	"number_chars/2", "number_codes/2", "setof/3", "sort/2", "sub_atom/5",
	"subsumes_term/2", "succ/2", "term_variables/2", "throw/1",
	"unify_with_occurs_check/2", "var/1",
}

// TestSandboxRegistersExactlyTheGoldenBuiltins pins the sandbox's Go
// builtins to goldenBuiltins.
func TestSandboxRegistersExactlyTheGoldenBuiltins(t *testing.T) {
	var got []string
	for _, b := range sandboxBuiltins {
		got = append(got, fmt.Sprintf("%s/%d", b.name, b.arity))
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(goldenBuiltins))
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("sandbox builtins differ from the golden list (-golden +registered):\n%s", d)
	}
}

// absentBuiltins: for each builtin docs/RULES.md names as "Absent on
// purpose" (the key, as the doc writes it), the predicates a rule could
// reach for under that name; "also" holds the ones builtins.go's comment
// and the design add (clause parsing, flags, grammar expansion).
var absentBuiltins = map[string][]string{
	"halt":    {"halt/0", "halt/1"},
	"consult": {"consult/1", "ensure_loaded/1", "include/1"},
	"open": {"open/3", "open/4", "close/1", "close/2", "current_input/1", "current_output/1",
		"set_input/1", "set_output/1", "stream_property/2", "set_stream_position/2",
		"at_end_of_stream/0", "at_end_of_stream/1", "flush_output/0", "flush_output/1",
		"get_char/1", "get_char/2", "peek_char/1", "put_char/1", "put_char/2", "get_byte/1",
		"put_byte/1", "get_code/1", "put_code/1", "nl/0", "nl/1", "write/1", "write/2",
		"writeq/1", "print/1", "write_canonical/1", "write_term/2", "write_term/3", "read/1", "read/2"},
	"read_term":         {"read_term/2", "read_term/3"},
	"op/3":              {"op/3"},
	"set_prolog_flag/2": {"set_prolog_flag/2"},
	"assert*":           {"assert/1", "asserta/1", "assertz/1"},
	"retract":           {"retract/1", "retractall/1", "abolish/1"},
	"clause/2":          {"clause/2"},
	"also": {"char_conversion/2", "phrase/2", "phrase/3", "expand_term/2", "atom_to_term/3",
		"term_to_atom/2", "read_term_from_atom/3"},
}

// TestEveryBuiltinDocumentedAsAbsentIsAbsent: every predicate of
// absentBuiltins, called from a query, raises existence_error for exactly
// that predicate; and every name docs/RULES.md lists as absent is in
// absentBuiltins, so the doc and the probe cannot drift apart.
func TestEveryBuiltinDocumentedAsAbsentIsAbsent(t *testing.T) {
	doc, err := os.ReadFile("../docs/RULES.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "Absent on purpose:")
	sentence, _, _ := strings.Cut(after, ". ")
	if !ok {
		t.Fatal(`docs/RULES.md has no "Absent on purpose:" sentence`)
	}
	names := regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(sentence, -1)
	if len(names) < 5 {
		t.Fatalf("only %d names in RULES.md's absent list: %q", len(names), sentence)
	}
	for _, m := range names {
		if _, ok := absentBuiltins[m[1]]; !ok {
			t.Errorf("docs/RULES.md lists %q as absent; absentBuiltins does not probe it", m[1])
		}
	}

	e := newTestEngine(t, map[string]string{"a.pl": "ok.\n"}, Options{})
	for doc, pis := range absentBuiltins {
		for _, pi := range pis {
			name, arity := splitIndicator(t, pi)
			goal := "'" + strings.ReplaceAll(name, "'", "''") + "'"
			if arity > 0 {
				goal += "(" + strings.TrimSuffix(strings.Repeat("_, ", arity), ", ") + ")"
			}
			_, err := e.QueryText(context.Background(), goal, func([]Binding) bool { return true })
			want := fmt.Sprintf("existence_error(procedure,%s)", pi)
			if err == nil || !strings.Contains(strings.ReplaceAll(err.Error(), " ", ""), want) {
				t.Errorf("%s (RULES.md %q): want %s, got %v", goal, doc, want, err)
			}
		}
	}
}

func splitIndicator(t *testing.T, pi string) (string, int) {
	t.Helper()
	i := strings.LastIndex(pi, "/")
	var n int
	if _, err := fmt.Sscan(pi[i+1:], &n); i < 0 || err != nil {
		t.Fatalf("bad indicator %q", pi)
	}
	return pi[:i], n
}
