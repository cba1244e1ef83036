package eval

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm"
)

const small = "testdata/small"

// TestCallersGoldIsResolvedByGoTypesNotByName: two methods named Area on
// different types have different callers; calls across the tree's
// packages resolve through go.mod's module path.
func TestCallersGoldIsResolvedByGoTypesNotByName(t *testing.T) {
	g := goCallers(context.Background(), small)
	byName := map[string]map[key]bool{}
	tr, err := loadTree(context.Background(), small, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range tr.decls {
		if cs, ok := g.callers[d.key()]; ok {
			byName[d.Qualified] = cs
		}
	}
	want := map[string]map[key]bool{
		"Square.Area":  {{"shapes/shapes.go", 17}: true},
		"Circle.Area":  {{"shapes/shapes.go", 26}: true},
		"TotalSquares": {{"report.go", 6}: true},
		"Largest":      {{"report.go", 13}: true},
		"describe":     {{"report.go", 6}: true},
	}
	if d := cmp.Diff(want, byName); d != "" {
		t.Errorf("callers gold (-want +got):\n%s", d)
	}
}

// TestStrippedCopyLosesEveryDocAndKeepsEveryLine: the doc-stripped copy
// has the same definitions at the same lines, none with a doc comment.
func TestStrippedCopyLosesEveryDocAndKeepsEveryLine(t *testing.T) {
	ctx := context.Background()
	tr, err := loadTree(ctx, small, false)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	n, err := tr.stripDocs(dir)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := loadTree(ctx, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	var docs, before, after []string
	for _, d := range tr.decls {
		before = append(before, d.loc()+" "+d.Kind)
		if d.Doc != "" {
			docs = append(docs, d.Qualified)
		}
	}
	for _, d := range cp.decls {
		after = append(after, d.loc()+" "+d.Kind)
		if d.Doc != "" {
			t.Errorf("%s kept its doc %q", d.loc(), d.Doc)
		}
	}
	if d := cmp.Diff(before, after); d != "" {
		t.Errorf("definitions moved (-original +stripped):\n%s", d)
	}
	if n != len(docs) || n == 0 {
		t.Errorf("stripped %d docs, the tree has %d: %v", n, len(docs), docs)
	}
}

// TestFirstSentenceIsTheDocsOpeningSentence.
func TestFirstSentenceIsTheDocsOpeningSentence(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"Area returns the surface. It is exact.", "Area returns the surface."},
		{"Split a header line\ninto two.\n\nMore.", "Split a header line into two."},
		{"Too short.", ""},
	} {
		if got := firstSentence(c.doc); got != c.want {
			t.Errorf("firstSentence(%q) = %q, want %q", c.doc, got, c.want)
		}
	}
}

// TestEvalRunsEveryTaskDeterministicallyForASeed: the same seed gives the
// same report, every task has queries, and the product's identifier
// look-ups of unique names are right at rank 1 on the small tree.
func TestEvalRunsEveryTaskDeterministicallyForASeed(t *testing.T) {
	ctx := context.Background()
	run := func() *Report {
		rep, err := Run(ctx, Options{Root: small, N: 5, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	a, b := run(), run()
	if d := cmp.Diff(a, b); d != "" {
		t.Fatalf("two runs with one seed differ:\n%s", d)
	}
	var tasks []string
	for _, r := range a.Tasks {
		tasks = append(tasks, r.Task)
		if r.Queries == 0 {
			t.Errorf("task %s has no queries", r.Task)
		}
	}
	if d := cmp.Diff(Tasks, tasks); d != "" {
		t.Errorf("tasks (-want +got):\n%s", d)
	}
	if id := a.Tasks[0]; id.Product.R1 != 1 {
		t.Errorf("identifier R@1 = %v on the small tree, misses %+v", id.Product.R1, id.Misses)
	}
	var buf bytes.Buffer
	if err := a.WriteText(&buf, true); err != nil {
		t.Fatal(err)
	}
	for _, task := range Tasks {
		if !strings.Contains(buf.String(), task) {
			t.Errorf("text report lacks task %s:\n%s", task, buf.String())
		}
	}
}

// TestUnknownTaskIsAStructuredError.
func TestUnknownTaskIsAStructuredError(t *testing.T) {
	_, err := Run(context.Background(), Options{Root: small, Tasks: []string{"nonsense"}, Open: rlm.Options{}})
	if !errors.Is(err, ErrUnknownTask) || !strings.Contains(err.Error(), "nonsense") {
		t.Fatalf("err = %v", err)
	}
}

// TestSampleIsAFunctionOfTheSeed: one seed, one sample; another seed,
// another sample.
func TestSampleIsAFunctionOfTheSeed(t *testing.T) {
	xs := make([]int, 100)
	for i := range xs {
		xs[i] = i
	}
	a, b, c := sample(xs, 10, 1), sample(xs, 10, 1), sample(xs, 10, 2)
	if d := cmp.Diff(a, b); d != "" {
		t.Errorf("seed 1 twice differs:\n%s", d)
	}
	if cmp.Equal(a, c) {
		t.Errorf("seeds 1 and 2 give the same sample %v", a)
	}
}

// TestCallersTaskNamesEachTargetAsAUserMust: on a tree where two packages
// define Unmarshal, the callers task asks "what calls json.Unmarshal?"
// and "what calls xml.Unmarshal?" — a bare name would denote both — and
// the product, resolving calls through imports and receivers, answers
// every query exactly as go/types does.
func TestCallersTaskNamesEachTargetAsAUserMust(t *testing.T) {
	rep, err := Run(context.Background(), Options{Root: "../testdata/calls/go", Tasks: []string{TaskCallers}, N: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Tasks[0]
	if res.Queries < 6 || res.Product.F1 != 1 || len(res.Misses) != 0 {
		t.Fatalf("%d queries, F1 %.3f, misses %+v: want at least 6 queries answered exactly", res.Queries, res.Product.F1, res.Misses)
	}
	// The queries themselves: only the misses carry them, so ask again
	// the way runCallers names targets.
	tr, err := loadTree(context.Background(), "../testdata/calls/go", false)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range tr.decls {
		if d.Name == "Unmarshal" {
			names = append(names, callersName(d, tr.decls))
		}
	}
	if d := cmp.Diff([]string{"json.Unmarshal", "xml.Unmarshal"}, names); d != "" {
		t.Errorf("names asked (-want +got):\n%s", d)
	}
}

// TestTheTasksSeeTheGeneratedFilesTheProductIndexes: a name defined in a
// hand-written file and again in a generated one (both indexed by the
// product) is not a unique name to ask for, and a name only the generated
// file defines is one.
func TestTheTasksSeeTheGeneratedFilesTheProductIndexes(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":    "module example.com/gen\n\ngo 1.22\n",
		"server.go": "package gen\n\n// Serve answers one request.\nfunc Serve() {}\n",
		"bundle.go": "// Code generated by bundle. DO NOT EDIT.\n\npackage gen\n\n// Serve answers one bundled request.\nfunc Serve() {}\n\n// Bundled is only here.\nfunc Bundled() {}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := loadTree(context.Background(), root, false)
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	for _, q := range identifierQueries(tr, Options{N: 100, Seed: 1}) {
		asked = append(asked, q.Text+"@"+q.Gold.Path)
	}
	sort.Strings(asked)
	if d := cmp.Diff([]string{"Bundled@bundle.go"}, asked); d != "" {
		t.Errorf("identifier queries (-want +got):\n%s", d)
	}
}

// TestAMissSaysWhereTheBaselineRankedItsGold: on the small tree the
// doc-stripped class Mailbox ("A folder of messages kept on disk.") is
// missed by the product and ranked first by the baseline, whose source
// lines hold "messages"; its miss carries that rank, and the text report
// prints it (or "bm25 not found" for a gold the baseline missed too).
func TestAMissSaysWhereTheBaselineRankedItsGold(t *testing.T) {
	rep, err := Run(context.Background(), Options{Root: small, Tasks: []string{TaskDescriptionNoDoc}, N: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var got []Miss
	for _, m := range rep.Tasks[0].Misses {
		if m.Gold == "py/mail.py:1 Mailbox" {
			got = append(got, Miss{Query: m.Query, Rank: m.Rank, BM25Rank: m.BM25Rank})
		}
	}
	want := []Miss{{Query: "A folder of messages kept on disk.", Rank: 0, BM25Rank: 1}}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("Mailbox's miss (-want +got):\n%s", d)
	}
	rep.Tasks[0].Misses = append(rep.Tasks[0].Misses, Miss{Query: "q2", Gold: "x.py:1 X", Rank: 4})
	var buf bytes.Buffer
	if err := rep.WriteText(&buf, true); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		`"A folder of messages kept on disk." → not found, bm25 rank 1 (class`,
		`"q2" → rank 4, bm25 not found (class`,
	} {
		if !strings.Contains(buf.String(), line) {
			t.Errorf("report lacks %q:\n%s", line, buf.String())
		}
	}
}

// TestATaskWithNoQueryShowsNoScore: a task that had no query (callers on
// a tree without Go code) is not measured: its row shows "–" in every
// score column, not scores of 0; a measured task's row shows its scores.
func TestATaskWithNoQueryShowsNoScore(t *testing.T) {
	rep := &Report{Root: "r", Tasks: []TaskResult{
		{Task: TaskCallers, Queries: 0},
		{Task: TaskIdentifier, Queries: 3, Product: Scores{R1: 1, R5: 1, MRR: 1}, Baseline: Scores{R1: 0.5, R5: 1, MRR: 0.75}},
	}}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	var callers, ident string
	for _, l := range lines {
		switch f := strings.Fields(l); {
		case len(f) > 0 && f[0] == TaskCallers && len(f) > 2:
			callers = l
		case len(f) > 0 && f[0] == TaskIdentifier && len(f) > 2:
			ident = l
		}
	}
	if strings.Contains(callers, "0.000") || strings.Count(callers, "–") != 12 {
		t.Errorf("the unmeasured callers row: %q", callers)
	}
	if !strings.Contains(ident, "1.000") || !strings.Contains(ident, "0.750") {
		t.Errorf("the measured identifier row: %q", ident)
	}
}
