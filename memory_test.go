package rlm_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/tms"
)

var memoryTree = map[string]string{
	"alpha.go": "package m\n\n// Alpha parses the alpha header.\nfunc Alpha() int { return 1 }\n",
	"beta.go":  "package m\n\n// Beta writes the beta footer.\nfunc Beta() int { return 2 }\n",
	"gamma.go": "package m\n\n// Gamma closes the gamma stream.\nfunc Gamma() int { return 3 }\n",
}

func openMemory(t *testing.T, root string) *rlm.Project {
	t.Helper()
	p, err := rlm.Open(context.Background(), root, rlm.Options{InMemory: true, Memory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func write(t *testing.T, root, rel, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func search(t *testing.T, p *rlm.Project, q string) *rlm.Answer {
	t.Helper()
	a, err := p.Search(context.Background(), q, 5)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func hitHashes(a *rlm.Answer) []string {
	var out []string
	for _, h := range a.Hits {
		out = append(out, h.Path+"@"+h.ContentHash)
	}
	return out
}

// TestACachedAnswerIsNeverServedWithAnOutPremise: a repeated question is
// served from the cache while its answer is IN; after an edit to a file it
// rests on it is recomputed (its hits carry the new bytes' hash), other
// answers are still served; restoring the bytes serves the first answer
// again without recomputing it; a new file mentioning the question's name
// withdraws it too.
func TestACachedAnswerIsNeverServedWithAnOutPremise(t *testing.T) {
	root := testfixture.WriteTree(t, memoryTree)
	p := openMemory(t, root)
	steps := []struct {
		name     string
		edit     func()
		query    string
		computed int64 // answers computed so far
		hashOf   string
	}{
		{"first Alpha", nil, "Alpha", 1, ""},
		{"first Beta", nil, "Beta", 2, ""},
		{"Alpha again", nil, "Alpha", 2, ""},
		{"Alpha after editing alpha.go", func() {
			write(t, root, "alpha.go", strings.Replace(memoryTree["alpha.go"], "return 1", "return 10", 1))
		}, "Alpha", 3, "edited"},
		{"Beta after editing alpha.go", nil, "Beta", 3, ""},
		{"Alpha after restoring alpha.go", func() { write(t, root, "alpha.go", memoryTree["alpha.go"]) }, "Alpha", 3, "original"},
		{"Alpha after a new file mentions it", func() { write(t, root, "delta.go", "package m\n\nfunc AlphaToo() int { return Alpha() }\n") }, "Alpha", 4, ""},
	}
	var original, edited []string
	for _, st := range steps {
		if st.edit != nil {
			st.edit()
		}
		a := search(t, p, st.query)
		if got := p.Memory().Computed; got != st.computed {
			t.Errorf("%s: %d answers computed, want %d", st.name, got, st.computed)
		}
		switch {
		case st.name == "first Alpha":
			original = hitHashes(a)
		case st.hashOf == "edited":
			edited = hitHashes(a)
			if slices.Equal(edited, original) || len(edited) == 0 {
				t.Errorf("%s: served the hits of the old bytes %v", st.name, edited)
			}
		case st.hashOf == "original":
			if !slices.Equal(hitHashes(a), original) {
				t.Errorf("%s: hits %v, want the original %v", st.name, hitHashes(a), original)
			}
		}
	}
	if p.Memory().Served != 3 {
		t.Errorf("served %d answers from the cache, want 3", p.Memory().Served)
	}
}

// TestAnEditTurnsExactlyTheDependentAnswersOut: over a real knowledge base,
// the answers that go OUT after an edit are exactly those an oracle
// computes from each conclusion's own premises: one of its files is the
// edited one, or the edited file's new bytes mention its question's terms.
func TestAnEditTurnsExactlyTheDependentAnswersOut(t *testing.T) {
	root := testfixture.WriteTree(t, memoryTree)
	p := openMemory(t, root)
	for _, q := range []string{"Alpha", "Beta", "Gamma", "beta footer", "what calls Gamma?", "stream"} {
		search(t, p, q)
	}
	newAlpha := "package m\n\n// Alpha parses the alpha header and the stream.\nfunc Alpha() int { return 1 }\n"
	write(t, root, "alpha.go", newAlpha)
	if _, err := p.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	cs, err := p.Conclusions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, got := map[string]tms.Label{}, map[string]tms.Label{}
	for _, c := range cs {
		got[c.ID] = c.Label
		l := tms.In
		for _, pr := range c.Premises {
			switch {
			case pr.Kind == tms.PremiseSource && pr.Path == "alpha.go":
				l = tms.Out
			case pr.Kind == tms.PremiseElsewhere && pr.AnyChange && !usesFile(c, "alpha.go"):
				l = tms.Out
			case pr.Kind == tms.PremiseElsewhere && !usesFile(c, "alpha.go") && slices.ContainsFunc(pr.Terms, func(term string) bool {
				return strings.Contains(strings.ToLower(newAlpha), term)
			}):
				l = tms.Out
			}
		}
		want[c.ID] = l
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("labels after editing alpha.go (-oracle +got):\n%s", diff)
	}
	outs := 0
	for _, l := range got {
		if l == tms.Out {
			outs++
		}
	}
	if outs == 0 || outs == len(got) {
		t.Errorf("%d of %d conclusions OUT: the edit must split them", outs, len(got))
	}
}

func usesFile(c rlm.Conclusion, path string) bool {
	return slices.ContainsFunc(c.Premises, func(p tms.Premise) bool { return p.Kind == tms.PremiseSource && p.Path == path })
}

// TestWhatIfNamesTheConclusionsAFileChangeWouldWithdraw, and changes no
// label.
func TestWhatIfNamesTheConclusionsAFileChangeWouldWithdraw(t *testing.T) {
	root := testfixture.WriteTree(t, memoryTree)
	p := openMemory(t, root)
	search(t, p, "Alpha")
	search(t, p, "Beta")
	ch, err := p.WhatIf(context.Background(), "beta.go")
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, c := range ch {
		titles = append(titles, c.Title+": "+c.Because.Rule)
	}
	if diff := cmp.Diff([]string{"Beta: tms_source_changed"}, titles); diff != "" {
		t.Errorf("whatif beta.go (-want +got):\n%s", diff)
	}
	cs, _ := p.Conclusions(context.Background())
	for _, c := range cs {
		if c.Label != tms.In {
			t.Errorf("WhatIf changed %s to %s", c.Title, c.Label)
		}
	}
	q, err := rlm.Open(context.Background(), root, rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if _, err := q.WhatIf(context.Background(), "a.go"); !errors.Is(err, rlm.ErrNoMemory) {
		t.Errorf("without Memory: %v", err)
	}
}

// TestAnAnswerRestsOnTheFilesItsCheckStepsRead: "what calls Gamma?" checks
// that Gamma exists (in gamma.go) before following edges; renaming Gamma
// there, with no word of the question left in the file, withdraws the
// cached answer: the recomputed one says the name is gone (no other name
// stands in for a relationship question's target).
func TestAnAnswerRestsOnTheFilesItsCheckStepsRead(t *testing.T) {
	root := testfixture.WriteTree(t, memoryTree)
	p := openMemory(t, root)
	if a := search(t, p, "what calls Gamma?"); a.Gap != "" || a.Resolved != nil {
		t.Fatalf("before the rename: gap %s, resolved %v", a.Gap, a.Resolved)
	}
	write(t, root, "gamma.go", "package m\n\nfunc Delta() int { return 3 }\n")
	a := search(t, p, "what calls Gamma?")
	if p.Memory().Computed != 2 || a.Gap != `symbol_not_found("Gamma")` || a.Resolved != nil {
		t.Errorf("after renaming Gamma: %d answers computed, gap %q, resolved %v", p.Memory().Computed, a.Gap, a.Resolved)
	}
}
