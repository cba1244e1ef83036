package rlm_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestAnAnswersCitationsReviseTheCaseItsEvidenceCameFrom: Ask's evidence
// for "what calls servehttp" comes from the case its search retained; an
// answer citing Handle revises that case as cited, naming handler.go's
// Handle and not Wrap (given, not cited); a later answer citing nothing
// counts as ignored.
func TestAnAnswersCitationsReviseTheCaseItsEvidenceCameFrom(t *testing.T) {
	root := testfixture.WriteTree(t, caseTree)
	p := openCases(t, root, "")
	answers := []string{"Handle in handler.go calls it.", "I cannot tell."}
	fake := testfixture.NewChatFake(t, func(call int, _ testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{Content: answers[min(call, len(answers)-1)]}
	})
	m, err := rlm.NewChatModel(fake.URL(), "gpt-4o-mini", "")
	if err != nil {
		t.Fatal(err)
	}
	ask := func() *rlm.AskResult {
		t.Helper()
		res, err := p.Ask(context.Background(), "what calls servehttp", rlm.AskOptions{Model: m, Limits: rlm.AskLimits{Wall: 20 * time.Second, Depth: -1}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	type outcome struct {
		Cited, Ignored int
		Used           []string
	}
	caseNow := func() outcome {
		t.Helper()
		cs, err := p.Cases(context.Background())
		if err != nil || len(cs) != 1 {
			t.Fatalf("cases %+v, %v; want the one retained", cs, err)
		}
		return outcome{cs[0].Cited, cs[0].Ignored, cs[0].UsedEvidence}
	}

	res := ask()
	var cited, given []string
	for _, c := range res.Citations {
		given = append(given, c.Symbol)
		if c.Cited {
			cited = append(cited, c.Path+":"+itoa(int64(c.StartLine)))
		}
	}
	slices.Sort(given)
	if !slices.Equal(given, []string{"Handle", "Wrap"}) || len(cited) != 1 {
		t.Fatalf("first answer given %v, cited %v; want Handle and Wrap given, Handle cited", given, cited)
	}
	if diff := cmp.Diff(outcome{Cited: 1, Used: cited}, caseNow()); diff != "" {
		t.Errorf("after an answer citing Handle (-want +got):\n%s", diff)
	}
	ask()
	if diff := cmp.Diff(outcome{Cited: 1, Ignored: 1, Used: cited}, caseNow()); diff != "" {
		t.Errorf("after an answer citing nothing (-want +got):\n%s", diff)
	}
}

// TestASessionsCitationsReviseTheCaseItsEvidenceCameFrom: as Ask's, each
// turn's citations revise the case its evidence came from, once, by the
// turn whose search handed it out: a first turn citing Handle counts as
// cited, a second citing nothing as ignored, a third on another question
// citing the carried Handle leaves the case as it was.
func TestASessionsCitationsReviseTheCaseItsEvidenceCameFrom(t *testing.T) {
	root := testfixture.WriteTree(t, caseTree)
	p, err := rlm.Open(context.Background(), root, rlm.Options{InMemory: true, Cases: true, Memory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	answers := []string{"Handle in handler.go calls it.", "I cannot tell.", "Handle in handler.go, as before."}
	fake := testfixture.NewChatFake(t, func(call int, _ testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{Content: answers[min(call, len(answers)-1)]}
	})
	m, err := rlm.NewChatModel(fake.URL(), "gpt-4o-mini", "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.NewSession(rlm.AskOptions{Model: m, Limits: rlm.AskLimits{Wall: 20 * time.Second, Depth: -1}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	const q = "what calls servehttp"
	type outcome struct{ Cited, Ignored int }
	caseNow := func() outcome {
		t.Helper()
		cs, err := p.Cases(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if c.Query == q {
				return outcome{c.Cited, c.Ignored}
			}
		}
		t.Fatalf("cases %+v: none for %q", cs, q)
		return outcome{}
	}
	// The third turn asks another question; Handle, carried from the
	// first as session context, is cited again, but it was not handed out
	// by this turn's search: the first case is not revised again.
	for i, tc := range []struct {
		question string
		want     outcome
	}{{q, outcome{Cited: 1}}, {q, outcome{Cited: 1, Ignored: 1}}, {"where is Wrap defined?", outcome{Cited: 1, Ignored: 1}}} {
		if _, err := s.Turn(context.Background(), tc.question); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, caseNow()); diff != "" {
			t.Errorf("after turn %d, %q (-want +got):\n%s", i+1, tc.question, diff)
		}
	}
}
