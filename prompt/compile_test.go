package prompt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var readCaps = []string{"git.read", "fs.read"}

// TestPlannerHidesAnIrrelevantTool: for a git review, git_diff is visible
// and project_search is not, though the catalog holds both.
func TestPlannerHidesAnIrrelevantTool(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	for _, id := range []string{"git_diff", "project_search"} {
		if _, ok := cat.Lookup(id); !ok {
			t.Fatalf("the catalog lacks %s", id)
		}
	}
	out := compile(t, c, cat, Input{Text: gitReview, Capabilities: readCaps}, Options{})
	if !slices.Contains(toolNames(out.Tools), "git_diff") {
		t.Errorf("git_diff not visible: tools %v", toolNames(out.Tools))
	}
	if slices.Contains(toolNames(out.Tools), "project_search") || slices.Contains(ids(out.Active), "project_search") {
		t.Errorf("project_search visible: tools %v, active %v", toolNames(out.Tools), ids(out.Active))
	}
	if strings.Contains(out.Text, "project_search") {
		t.Errorf("the prompt names project_search:\n%s", out.Text)
	}
}

// TestAllToolsModeShowsEveryTool: in all_tools mode every authorized tool
// of the catalog is sent, and the other units are decided as in compiled
// mode (one compiler path).
func TestAllToolsModeShowsEveryTool(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	all := []string{"git.read", "git.write", "fs.read", "exec", "network", "github.write"}
	out := compile(t, c, cat, Input{Text: gitReview, Capabilities: all}, Options{Mode: ModeAllTools})
	var want []string
	for _, u := range cat.Units() {
		if u.Kind.IsTool() {
			want = append(want, u.ID)
		}
	}
	if diff := cmp.Diff(want, toolNames(out.Tools)); diff != "" {
		t.Errorf("all_tools sends (-every tool +sent):\n%s", diff)
	}
	compiled := compile(t, c, cat, Input{Text: gitReview, Capabilities: all}, Options{})
	textUnits := func(ds []Decision) (out []string) {
		for _, d := range ds {
			if !d.Kind.IsTool() {
				out = append(out, d.ID)
			}
		}
		return out
	}
	if diff := cmp.Diff(textUnits(compiled.Active), textUnits(out.Active)); diff != "" {
		t.Errorf("the modes disagree on the text units (-compiled +all_tools):\n%s", diff)
	}
	if len(compiled.Tools) >= len(out.Tools) {
		t.Errorf("compiled mode sends %d tools, all_tools %d", len(compiled.Tools), len(out.Tools))
	}
}

// TestCapabilityDeniedToolIsNotVisible: without git.read, git_diff is not
// shown in either mode, and what requires it goes with it.
func TestCapabilityDeniedToolIsNotVisible(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	for _, mode := range []Mode{ModeCompiled, ModeAllTools} {
		out := compile(t, c, cat, Input{Text: gitReview, Capabilities: []string{"fs.read"}}, Options{Mode: mode})
		if slices.Contains(toolNames(out.Tools), "git_diff") {
			t.Errorf("%s: git_diff visible without git.read", mode)
		}
		d, ok := decisionOf(out.Rejected, "git_diff")
		if !ok || d.Because.Rule != "cap_missing" || !slices.Contains(d.Because.Premises, `missing(["git.read"])`) {
			t.Errorf("%s: git_diff decision %+v", mode, d)
		}
		if d, ok := decisionOf(out.Rejected, "code_review"); !ok || d.Because.Rule != "cl_requires_unavailable" {
			t.Errorf("%s: code_review (requires git_diff) decision %+v", mode, d)
		}
	}
}

// TestFingerprintIsStableForIdenticalInputAndChangesWithQueryOrActivation
func TestFingerprintIsStableForIdenticalInputAndChangesWithQueryOrActivation(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	in := Input{Text: gitReview, Capabilities: readCaps}
	a := compile(t, c, cat, in, Options{Budget: 4000})
	b := compile(t, newCompiler(t), loadExample(t), in, Options{Budget: 4000})
	if a.Fingerprint == "" || a.Fingerprint != b.Fingerprint {
		t.Fatalf("identical input, fingerprints %q and %q", a.Fingerprint, b.Fingerprint)
	}
	other := compile(t, c, cat, Input{Text: "who last changed each line of server.go", Capabilities: readCaps}, Options{Budget: 4000})
	if other.Fingerprint == a.Fingerprint {
		t.Errorf("a query with another projection (%v) kept the fingerprint", ids(other.Active))
	}
	units := cat.Units()
	for i := range units {
		if units[i].ID == "project_search" {
			units[i].Activation = ActivationAlways
		}
	}
	changed, err := NewCatalog(context.Background(), units, CatalogOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	defer changed.Release()
	act := compile(t, c, changed, in, Options{Budget: 4000})
	if act.Fingerprint == a.Fingerprint {
		t.Errorf("making project_search always-on kept the fingerprint")
	}
	if budget := compile(t, c, cat, in, Options{Budget: 5000}); budget.Fingerprint == a.Fingerprint {
		t.Errorf("another budget kept the fingerprint")
	}
	if mode := compile(t, c, cat, in, Options{Budget: 4000, Mode: ModeAllTools}); mode.Fingerprint == a.Fingerprint {
		t.Errorf("another mode kept the fingerprint")
	}
}

// TestPromptSaysActiveNotRegistered: the framing calls the tools active
// and never registered.
func TestPromptSaysActiveNotRegistered(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	for _, q := range []string{gitReview, "what is the weather"} {
		out := compile(t, c, cat, Input{Text: q, Capabilities: readCaps}, Options{Mode: ModeAllTools})
		if !strings.Contains(out.Text, "active tools") || !strings.Contains(out.Text, "units active for this task") {
			t.Errorf("%q: the prompt does not say active:\n%s", q, out.Text)
		}
		if strings.Contains(strings.ToLower(out.Text), "registered") {
			t.Errorf("%q: the prompt says registered:\n%s", q, out.Text)
		}
	}
}

// TestNoSchemaIsRenderedTwice: each tool schema is sent once, in Tools
// only: never in Text, never twice in Tools.
func TestNoSchemaIsRenderedTwice(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	for _, mode := range []Mode{ModeCompiled, ModeAllTools} {
		out := compile(t, c, cat, Input{Text: gitReview, Capabilities: readCaps}, Options{Mode: mode})
		seen := map[string]bool{}
		for _, ts := range out.Tools {
			if seen[ts.Name] {
				t.Errorf("%s: %s sent twice", mode, ts.Name)
			}
			seen[ts.Name] = true
			if strings.Contains(out.Text, string(ts.Parameters)) || strings.Contains(out.Text, ts.Description) {
				t.Errorf("%s: %s's schema or description is also in Text", mode, ts.Name)
			}
		}
		if len(out.Tools) == 0 {
			t.Fatalf("%s: no tools", mode)
		}
	}
}

// TestHostOwnedCatalogIsNeverReleasedByCompile: a catalog the host passes
// in survives every compile, successful or not.
func TestHostOwnedCatalogIsNeverReleasedByCompile(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	calls := []func() error{
		func() error {
			_, err := c.Compile(context.Background(), cat, Input{Text: gitReview}, Options{})
			return err
		},
		func() error {
			_, err := c.Compile(context.Background(), cat, Input{Text: gitReview}, Options{Budget: 5})
			return err
		},
		func() error { _, err := c.Compile(canceled, cat, Input{Text: gitReview}, Options{}); return err },
		func() error {
			_, err := c.Compile(context.Background(), cat, Input{}, Options{Mode: "bogus"})
			return err
		},
		func() error {
			_, err := c.Why(context.Background(), cat, Input{Text: gitReview}, Options{}, "project_search")
			return err
		},
	}
	for i, call := range calls {
		err := call()
		if cat.Released() {
			t.Fatalf("call %d (error %v) released the host's catalog", i, err)
		}
	}
	if _, err := c.Compile(context.Background(), cat, Input{Text: gitReview}, Options{}); err != nil {
		t.Fatalf("the catalog is unusable after those calls: %v", err)
	}
}

// TestNonToolUnitMatchingTheQueryIsSelected: instructions and skills are
// selected by the task like tools are.
func TestNonToolUnitMatchingTheQueryIsSelected(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	for _, tc := range []struct{ query, unit string }{
		{"how should I word the commit message", "commit_message_style"},
		{"help me debug this failing test, it panics", "debugging"},
	} {
		out := compile(t, c, cat, Input{Text: tc.query, Capabilities: readCaps}, Options{})
		d, ok := decisionOf(out.Active, tc.unit)
		if !ok || d.Because.Rule != "sel_relevant" {
			t.Errorf("%q: %s not selected: active %v", tc.query, tc.unit, ids(out.Active))
		}
		u, _ := cat.Lookup(tc.unit)
		if !strings.Contains(out.Text, strings.TrimSpace(u.Body)) {
			t.Errorf("%q: %s's body is not in the prompt", tc.query, tc.unit)
		}
	}
}

// TestToolSchemasAreASubsetOfActiveUnits: every schema sent belongs to an
// active tool unit, and every active tool unit is sent.
func TestToolSchemasAreASubsetOfActiveUnits(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	for _, q := range []string{gitReview, "find where the server handles requests", "record a commit", "open a github issue"} {
		for _, opts := range []Options{{}, {Mode: ModeAllTools}, {Budget: 600}, {Budget: 350, Mode: ModeAllTools}} {
			out := compile(t, c, cat, Input{Text: q, Capabilities: []string{"git.read", "git.write", "fs.read", "network", "github.write"}}, opts)
			var activeTools []string
			for _, d := range out.Active {
				if d.Kind.IsTool() {
					activeTools = append(activeTools, d.ID)
				}
			}
			if diff := cmp.Diff(activeTools, toolNames(out.Tools)); diff != "" {
				t.Errorf("%q %+v: (-active tools +sent):\n%s", q, opts, diff)
			}
		}
	}
}

// TestAlwaysToolIsActiveOnAnUnrelatedQuery
func TestAlwaysToolIsActiveOnAnUnrelatedQuery(t *testing.T) {
	c := newCompiler(t)
	units := loadExample(t).Units()
	for i := range units {
		if units[i].ID == "read_file" {
			units[i].Activation = ActivationAlways
		}
	}
	cat, err := NewCatalog(context.Background(), units, CatalogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Release()
	out := compile(t, c, cat, Input{Text: "what is the weather in Paris tomorrow", Capabilities: readCaps}, Options{})
	if d, ok := decisionOf(out.Active, "read_file"); !ok || d.Because.Rule != "sel_always" || !slices.Contains(toolNames(out.Tools), "read_file") {
		t.Fatalf("read_file (always) not sent: active %v, tools %v", ids(out.Active), toolNames(out.Tools))
	}
	if len(out.Tools) != 1 {
		t.Errorf("an unrelated query sends %v", toolNames(out.Tools))
	}
}

// TestRelevantToolTurnsVisibleHiddenVisibleAcrossTurns: one catalog, three
// turns, no re-registration: git_diff is shown, hidden, shown again.
func TestRelevantToolTurnsVisibleHiddenVisibleAcrossTurns(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	before := cat.Units()
	turn := func(q string) *Compiled {
		return compile(t, c, cat, Input{Text: q, Capabilities: readCaps}, Options{})
	}
	a, b, cc := turn(gitReview), turn("who last changed each line of server.go"), turn(gitReview)
	visible := func(o *Compiled) bool { return slices.Contains(toolNames(o.Tools), "git_diff") }
	if !visible(a) || visible(b) || !visible(cc) {
		t.Fatalf("git_diff visible A=%v B=%v C=%v (B sent %v)", visible(a), visible(b), visible(cc), toolNames(b.Tools))
	}
	if a.Fingerprint != cc.Fingerprint {
		t.Errorf("turns A and C differ: %s %s", a.Fingerprint, cc.Fingerprint)
	}
	if diff := cmp.Diff(before, cat.Units()); diff != "" {
		t.Errorf("the catalog changed across turns:\n%s", diff)
	}
}

// TestRequiresClosurePullsDependenciesIn: git_commit brings git_status,
// which nothing else selected.
func TestRequiresClosurePullsDependenciesIn(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	out := compile(t, c, cat, Input{Text: "record a commit", Capabilities: []string{"git.read", "git.write"}}, Options{})
	if _, ok := decisionOf(out.Active, "git_commit"); !ok {
		t.Fatalf("git_commit not active: %v", ids(out.Active))
	}
	d, ok := decisionOf(out.Active, "git_status")
	if !ok || d.Because.Rule != "cl_required" || !slices.Contains(d.Because.Premises, `by("git_commit")`) {
		t.Fatalf("git_status not pulled in by git_commit: %+v (active %v)", d, ids(out.Active))
	}
	if !slices.Contains(toolNames(out.Tools), "git_status") {
		t.Errorf("git_status pulled in but not sent: %v", toolNames(out.Tools))
	}
}

// TestConflictsAndSupersessionResolveDeterministically: the winner of a
// conflict and of a supersession does not depend on catalog order.
func TestConflictsAndSupersessionResolveDeterministically(t *testing.T) {
	c := newCompiler(t)
	units := loadExample(t).Units()
	in := Input{Text: "explain, but terse and brief", HostSelected: []string{"review_checklist", "review_checklist_v2"}, Capabilities: readCaps}
	var first *Compiled
	for _, order := range []string{"file order", "reversed"} {
		us := slices.Clone(units)
		if order == "reversed" {
			slices.Reverse(us)
		}
		cat, err := NewCatalog(context.Background(), us, CatalogOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out := compile(t, c, cat, in, Options{})
		cat.Release()
		terse, tok := decisionOf(out.Active, "terse_mode")
		explain, eok := decisionOf(out.Rejected, "explain_mode")
		if tok == eok && explain.Because.Rule != "cf_conflict" {
			t.Fatalf("%s: terse_mode %+v explain_mode %+v", order, terse, explain)
		}
		if !tok || explain.Because.Rule != "cf_conflict" || !slices.Contains(explain.Because.Premises, `with("terse_mode")`) {
			t.Errorf("%s: want terse_mode to win the conflict: active %v, explain_mode %+v", order, ids(out.Active), explain)
		}
		old, ok := decisionOf(out.Rejected, "review_checklist")
		if !ok || old.Because.Rule != "cf_superseded" || !slices.Contains(ids(out.Active), "review_checklist_v2") {
			t.Errorf("%s: review_checklist %+v, active %v", order, old, ids(out.Active))
		}
		if first == nil {
			first = out
			continue
		}
		sorted := func(xs []string) []string { slices.Sort(xs); return xs }
		if diff := cmp.Diff(sorted(ids(first.Active)), sorted(ids(out.Active))); diff != "" {
			t.Errorf("catalog order changed the active units:\n%s", diff)
		}
	}
}

// TestWhyExplainsUnitsInAndOut
func TestWhyExplainsUnitsInAndOut(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	in := Input{Text: gitReview, Capabilities: readCaps}
	ctx := context.Background()
	d, err := c.Why(ctx, cat, in, Options{}, "git_diff")
	if err != nil || !d.Active || !d.Candidate || d.Because.Rule != "sel_relevant" {
		t.Errorf("git_diff: %+v %v", d, err)
	}
	d, err = c.Why(ctx, cat, in, Options{}, "git_commit")
	if err != nil || d.Active || !d.Candidate || d.Because.Rule != "cap_missing" {
		t.Errorf("git_commit: %+v %v", d, err)
	}
	d, err = c.Why(ctx, cat, in, Options{}, "project_search")
	if err != nil || d.Active || d.Candidate || d.Because.Rule != "sel_not_relevant" || !slices.Contains(d.Because.Premises, "no_lexical_match") {
		t.Errorf("project_search: %+v %v", d, err)
	}
	if _, err := c.Why(ctx, cat, in, Options{}, "no_such_unit"); !errors.Is(err, ErrUnknownUnit) {
		t.Errorf("unknown unit: %v", err)
	}
}

// TestContextUnitsJoinOneCompileOnly: per-call units are rendered in the
// Context section of that compile and leave the catalog untouched.
func TestContextUnitsJoinOneCompileOnly(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	ev := Unit{ID: "evidence:server.go:12", Kind: KindContext, Title: "server.go:12", Body: "func (s *Server) Serve() error", Activation: ActivationAlways}
	out := compile(t, c, cat, Input{Text: gitReview, Capabilities: readCaps, Context: []Unit{ev}}, Options{})
	if _, ok := decisionOf(out.Active, ev.ID); !ok || !strings.Contains(out.Text, "## Context\n\n### server.go:12 [evidence:server.go:12]\nfunc (s *Server) Serve() error\n") {
		t.Fatalf("context unit not rendered: %v\n%s", ids(out.Active), out.Text)
	}
	if _, ok := cat.Lookup(ev.ID); ok {
		t.Fatal("a context unit joined the catalog")
	}
	again := compile(t, c, cat, Input{Text: gitReview, Capabilities: readCaps}, Options{})
	if strings.Contains(again.Text, "server.go:12") {
		t.Fatal("a context unit outlived its compile")
	}
	bad := []Unit{{ID: "git_diff", Kind: KindContext, Body: "x"}, {ID: "t", Kind: KindTool, Description: "x", Schema: []byte(`{"type":"object"}`)}}
	_, err := c.Compile(context.Background(), cat, Input{Text: "x", Context: bad}, Options{})
	var ce *CatalogError
	if !errors.As(err, &ce) || len(ce.Problems) != 2 {
		t.Fatalf("want two problems (id taken, tool kind), got %v", err)
	}
}

// TestBadInputIsRefusedWithAStructuredError
func TestBadInputIsRefusedWithAStructuredError(t *testing.T) {
	c, cat := newCompiler(t), loadExample(t)
	for name, call := range map[string]func() error{
		"mode": func() error {
			_, err := c.Compile(context.Background(), cat, Input{}, Options{Mode: "some"})
			return err
		},
		"budget": func() error { _, err := c.Compile(context.Background(), cat, Input{}, Options{Budget: -1}); return err },
		"candidates": func() error {
			_, err := c.Compile(context.Background(), cat, Input{}, Options{MaxCandidates: 5000})
			return err
		},
		"text": func() error {
			_, err := c.Compile(context.Background(), cat, Input{Text: strings.Repeat("a", MaxTextBytes+1)}, Options{})
			return err
		},
		"signal": func() error {
			_, err := c.Compile(context.Background(), cat, Input{Signals: []string{"a\nb"}}, Options{})
			return err
		},
		"nil catalog": func() error { _, err := c.Compile(context.Background(), nil, Input{}, Options{}); return err },
	} {
		if err := call(); !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: want ErrBadInput, got %v", name, err)
		}
	}
}

// TestMandatoryUnitsAreAlwaysDecided: a mandatory unit is handed to the
// rules on every compile, whatever the lexical cut does, so it is in
// Active or in Rejected with a reason; it never silently vanishes.
func TestMandatoryUnitsAreAlwaysDecided(t *testing.T) {
	c := newCompiler(t)
	var units []Unit
	for i := range 8 {
		units = append(units, Unit{ID: fmt.Sprintf("deploy_%d", i), Kind: KindSkill, Keywords: []string{"deploy", "release"},
			Body: "How to deploy a release to production."})
	}
	units = append(units, Unit{ID: "legal_notice", Kind: KindInstruction, Body: "Never share customer records.", Mandatory: true},
		Unit{ID: "changelog", Kind: KindResource, Keywords: []string{"deploy"}, Body: "What changed, by version.", Mandatory: true})
	cat, err := NewCatalog(context.Background(), units, CatalogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Release()
	for _, tc := range []struct {
		name string
		in   Input
		opts Options
	}{
		{"no lexical match", Input{Text: "deploy the release"}, Options{}},
		{"past the candidate cut", Input{Text: "deploy the release"}, Options{MaxCandidates: 1}},
		{"empty task", Input{}, Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := compile(t, c, cat, tc.in, tc.opts)
			for _, id := range []string{"legal_notice", "changelog"} {
				d, ok := decisionOf(append(slices.Clone(out.Active), out.Rejected...), id)
				if !ok || d.Because.Rule == "" || !d.Candidate {
					t.Errorf("%s: not decided (active %v, rejected %v)", id, ids(out.Active), ids(out.Rejected))
				}
			}
		})
	}
}
