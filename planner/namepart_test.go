package planner

import (
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestANamePartIsHeldByANameThatHasEveryOneOfItsWords: a name_part step's
// name holds a definition when each of its words is a part of the
// definition's name or one of its name words (the tree's words a
// compound splits into), whatever the case or separators.
func TestANamePartIsHeldByANameThatHasEveryOneOfItsWords(t *testing.T) {
	for _, c := range []struct {
		symbol    string
		nameWords []string
		name      string
		want      bool
	}{
		{"get_attrtext", nil, "attrtext", true},
		{"get_extended_attrtext", nil, "attrtext", true},
		{"parse_message_id", nil, "message-id", true},
		{"MessageID", nil, "message-id", true},
		{"get_mailbox_list", nil, "mailbox-list", true},
		{"getaddrlist", []string{"get", "addrlist", "addr", "list"}, "addr-list", true},
		{"getaddrlist", nil, "addr-list", false},
		{"ATTRIBUTE_ENDS", nil, "attrtext", false},
		{"get_mailbox", nil, "mailbox-list", false},
		{"get_attrtext", nil, "--", false},
	} {
		d := retrieval.Document{Symbol: c.symbol, NameWords: c.nameWords}
		if got := NameHolds(d, c.name); got != c.want {
			t.Errorf("NameHolds(%s %v, %q) = %v, want %v", c.symbol, c.nameWords, c.name, got, c.want)
		}
	}
}

// TestNamePartIsALexicalStepsArgument: the planner reads name_part(N) on
// a lexical step, and refuses it on any other strategy.
func TestNamePartIsALexicalStepsArgument(t *testing.T) {
	step := func(strategy string) engine.CompoundValue {
		return engine.CompoundValue{Functor: "step", Args: []any{
			engine.AtomValue(strategy),
			[]any{
				engine.CompoundValue{Functor: "text", Args: []any{engine.StringValue("attrtext = 1*(any)")}},
				engine.CompoundValue{Functor: "name_part", Args: []any{engine.StringValue("attrtext")}},
			},
			engine.AtomValue("evidence"),
		}}
	}
	s, err := decodeStep("plan/3", nil, step("lexical"))
	if err != nil || s.NamePart != "attrtext" {
		t.Errorf("lexical: NamePart %q, err %v; want attrtext", s.NamePart, err)
	}
	for _, strategy := range []string{"hybrid", "vector"} {
		if _, err := decodeStep("plan/3", nil, step(strategy)); err == nil || !strings.Contains(err.Error(), "name_part(N) is for lexical steps") {
			t.Errorf("%s: err %v, want name_part refused", strategy, err)
		}
	}
}
