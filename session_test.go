package rlm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

func systemOf(req testfixture.Request) string {
	for _, m := range testfixture.ChatMessages(req) {
		if m[0] == "system" || m[0] == "developer" {
			return m[1]
		}
	}
	return ""
}

// TestASessionSeesRederivedContextAfterAnEditBetweenTurns: the evidence of
// a turn is carried into the next; an edit between turns withdraws the
// unit (naming the changed file) and the next turn shows the re-derived
// unit with the new code, not the old; restoring the bytes restores the
// first unit without running its retrieval again.
func TestASessionSeesRederivedContextAfterAnEditBetweenTurns(t *testing.T) {
	root := testfixture.WriteTree(t, memoryTree)
	p := openMemory(t, root)
	fake := testfixture.NewChatFake(t, func(int, testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{Content: "See alpha.go:4."}
	})
	m, err := rlm.NewChatModel(fake.URL(), "gpt-4o-mini", "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.NewSession(rlm.AskOptions{Model: m, Limits: rlm.AskLimits{Wall: 20 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	ctx := context.Background()
	turn := func(q string) *rlm.TurnResult {
		t.Helper()
		tr, err := s.Turn(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	const oldCode, newCode = "func Alpha() int { return 1 }", "func Alpha() int { return 42 }"

	t1 := turn("where is Alpha defined?")
	if len(t1.Carried) != 0 || len(t1.Citations) == 0 {
		t.Fatalf("turn 1 carried %v, cited %v", t1.Carried, t1.Citations)
	}
	oldHash := t1.Citations[0].ContentHash

	write(t, root, "alpha.go", strings.Replace(memoryTree["alpha.go"], oldCode, newCode, 1))
	t2 := turn("where is Gamma defined?")
	if len(t2.Withdrawn) != 1 || t2.Withdrawn[0].Path != "alpha.go" || t2.Withdrawn[0].ContentHash != oldHash ||
		t2.Withdrawn[0].Because.Rule != "tms_source_changed" {
		t.Errorf("turn 2 withdrawn: %+v", t2.Withdrawn)
	}
	if len(t2.Rederived) != 1 || t2.Rederived[0].Path != "alpha.go" || t2.Rederived[0].ContentHash == oldHash {
		t.Errorf("turn 2 rederived: %+v", t2.Rederived)
	}
	reqs := fake.Requests()
	if sys := systemOf(reqs[len(reqs)-1]); !strings.Contains(sys, newCode) || strings.Contains(sys, oldCode) {
		t.Errorf("turn 2's prompt does not show the re-derived code only:\n%s", sys)
	}
	if s.Rederivations() != 1 {
		t.Errorf("%d rederivations after the edit", s.Rederivations())
	}

	write(t, root, "alpha.go", memoryTree["alpha.go"])
	t3 := turn("where is Beta defined?")
	if len(t3.Restored) != 1 || t3.Restored[0].ContentHash != oldHash {
		t.Errorf("turn 3 restored: %+v", t3.Restored)
	}
	if len(t3.Withdrawn) != 1 || t3.Withdrawn[0].ContentHash == oldHash {
		t.Errorf("turn 3 withdrawn: %+v", t3.Withdrawn)
	}
	if s.Rederivations() != 1 || len(t3.Rederived) != 0 {
		t.Errorf("restoring the bytes re-ran a retrieval (%d rederivations, %v)", s.Rederivations(), t3.Rederived)
	}
	reqs = fake.Requests()
	if sys := systemOf(reqs[len(reqs)-1]); !strings.Contains(sys, oldCode) || strings.Contains(sys, newCode) {
		t.Errorf("turn 3's prompt does not show the restored code only:\n%s", sys)
	}
}

// TestSessionsNeedMemory.
func TestSessionsNeedMemory(t *testing.T) {
	root := testfixture.WriteTree(t, memoryTree)
	p, err := rlm.Open(context.Background(), root, rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.NewSession(rlm.AskOptions{}); !errors.Is(err, rlm.ErrNoMemory) {
		t.Errorf("NewSession without Memory: %v", err)
	}
}
