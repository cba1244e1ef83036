package engine

import (
	"strings"
	"testing"
)

func TestDescribeNamesThePrologTypeOfAValueForRuleAuthors(t *testing.T) {
	long := strings.Repeat("€", 20) // 60 bytes, 3 per rune: cut at 39, a rune boundary
	tests := []struct {
		in   any
		want string
	}{
		{int64(123), "the integer 123"},
		{1.5, "the float 1.5"},
		{AtomValue("foo"), `the atom "foo"`},
		{StringValue("where is x?"), `the string "where is x?"`},
		{VarValue("_G1"), "an unbound variable"},
		{[]any{int64(1), int64(2), int64(3)}, "a list of 3 elements"},
		{CompoundValue{Functor: "foo", Args: []any{int64(1), int64(2)}}, `the compound "foo"/2`},
		{StringValue(long), `the string "` + strings.Repeat("€", 13) + `…"`},
	}
	for _, tt := range tests {
		if got := Describe(tt.in); got != tt.want {
			t.Errorf("Describe(%#v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
