package eval_test

import (
	"context"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/intent/eval"
)

// TestTheCorpusSplitsInHalvesByAHashOfTheUtterance: a case is in the
// development half exactly when the FNV-1a 64-bit hash of its utterance is
// even; its line and expectations do not matter; the comparison corpus
// has both halves.
func TestTheCorpusSplitsInHalvesByAHashOfTheUtterance(t *testing.T) {
	cases, err := eval.LoadCorpus(fullCorpus)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, c := range cases {
		h := fnv.New64a()
		h.Write([]byte(c.Utterance))
		want := eval.HalfHeldOut
		if h.Sum64()%2 == 0 {
			want = eval.HalfDev
		}
		moved := c
		moved.Line, moved.Category, moved.Kinds, moved.Intent = c.Line+1000, "elsewhere", nil, ""
		if c.Half() != want || moved.Half() != want {
			t.Errorf("line %d %q: half %s (moved: %s), want %s", c.Line, c.Utterance, c.Half(), moved.Half(), want)
		}
		n[c.Half()]++
	}
	if n[eval.HalfDev] < len(cases)/3 || n[eval.HalfHeldOut] < len(cases)/3 {
		t.Errorf("halves %v of %d cases: want both sizeable", n, len(cases))
	}
}

// TestEvalScoresEachHalfAndCanScoreOneAlone: the per-half counts add up
// to the whole; Options.Half scores only that half's cases, and every
// miss it lists is of that half; an unknown half is an error.
func TestEvalScoresEachHalfAndCanScoreOneAlone(t *testing.T) {
	cases, err := eval.LoadCorpus(smallCorpus)
	if err != nil {
		t.Fatal(err)
	}
	dev := 0
	for _, c := range cases {
		if c.Half() == eval.HalfDev {
			dev++
		}
	}
	if dev == 0 || dev == len(cases) {
		t.Fatalf("the small corpus has %d of %d cases in the dev half; the test needs both halves", dev, len(cases))
	}
	ctx := context.Background()
	all, err := eval.Run(ctx, eval.Options{IntentsDir: homeIntents, Cases: cases})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all.Configs {
		var sum eval.HalfScore
		var halves []string
		for _, h := range s.Halves {
			halves = append(halves, h.Half)
			sum.Cases += h.Cases
			sum.Correct += h.Correct
			sum.Clarify += h.Clarify
			sum.FalsePositives += h.FalsePositives
			sum.WrongArgs += h.WrongArgs
			sum.ModelCalls += h.ModelCalls
		}
		want := eval.HalfScore{Cases: s.Cases, Correct: s.Correct, Clarify: s.Clarify, FalsePositives: s.FalsePositives,
			WrongArgs: s.WrongArgs, ModelCalls: s.ModelCalls}
		if diff := cmp.Diff(want, sum); diff != "" || !cmp.Equal(halves, []string{eval.HalfDev, eval.HalfHeldOut}) {
			t.Errorf("%s: halves %v do not add up to the whole (-whole +sum):\n%s", s.Config, halves, diff)
		}
		if s.Halves[0].Cases != dev {
			t.Errorf("%s: %d dev cases, want %d", s.Config, s.Halves[0].Cases, dev)
		}
	}
	one, err := eval.Run(ctx, eval.Options{IntentsDir: homeIntents, Cases: cases, Half: eval.HalfDev})
	if err != nil {
		t.Fatal(err)
	}
	if one.Cases != dev || one.Half != eval.HalfDev {
		t.Fatalf("the dev half alone: %d cases (half %q), want %d", one.Cases, one.Half, dev)
	}
	for _, s := range one.Configs {
		if s.Cases != dev || len(s.Halves) != 1 || s.Halves[0].Half != eval.HalfDev {
			t.Errorf("%s: %d cases, halves %+v; want only the %d dev cases", s.Config, s.Cases, s.Halves, dev)
		}
		for _, m := range s.Misses {
			if m.Half != eval.HalfDev {
				t.Errorf("%s: a miss of the %s half: %+v", s.Config, m.Half, m)
			}
		}
	}
	var md strings.Builder
	if err := one.Markdown(&md, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "the dev half only") || !strings.Contains(md.String(), "| resolver | dev |") {
		t.Errorf("the report does not say which half it scored:\n%s", md.String())
	}
	if _, err := eval.Run(ctx, eval.Options{IntentsDir: homeIntents, Cases: cases, Half: "test"}); err == nil {
		t.Error("an unknown half was accepted")
	}
}
