package rlm_test

import (
	"context"
	"fmt"
	"go/build"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// These tests run the whole product on a real tree: the Go standard
// library's net/http, as installed with the toolchain that runs the tests.

var (
	httpOnce  sync.Once
	httpP     *rlm.Project
	httpNames map[string]int // definitions per bare name in the indexed tree
	httpErr   error
	kbDir     string // knowledge bases of this test binary (TestMain)
)

func TestMain(m *testing.M) {
	var err error
	if kbDir, err = os.MkdirTemp("", "rlm-root-test-*"); err != nil {
		panic(err)
	}
	code := m.Run()
	if httpP != nil {
		httpP.Close()
	}
	os.RemoveAll(kbDir)
	os.Exit(code)
}

func netHTTPRoot() string { return filepath.Join(build.Default.GOROOT, "src", "net", "http") }

// netHTTPOptions open net/http with its knowledge base under kbDir (never
// inside the Go installation); a second Open with them reuses it.
func netHTTPOptions() rlm.Options {
	return rlm.Options{DBPath: filepath.Join(kbDir, "nethttp", "kb.sqlite"), NoRefresh: true}
}

// netHTTP opens net/http once per test binary (no embedder: BM25 only).
func netHTTP(t testing.TB) *rlm.Project {
	t.Helper()
	httpOnce.Do(func() {
		httpP, httpErr = rlm.Open(context.Background(), netHTTPRoot(), netHTTPOptions())
		if httpErr != nil {
			return
		}
		var facts []*sourcefacts.FileFacts
		facts, httpErr = sourcefacts.Walk(context.Background(), netHTTPRoot(), sourcefacts.WalkOptions{IncludeGenerated: true})
		httpNames = map[string]int{}
		for _, f := range facts {
			for _, s := range f.Symbols {
				httpNames[s.Name]++
			}
		}
	})
	if httpErr != nil {
		t.Fatalf("indexing net/http: %v", httpErr)
	}
	return httpP
}

// uniqueExported returns the exported declarations whose bare name is
// declared once in the whole indexed tree (all of net/http and its
// subpackages, tests included), sorted by name.
func uniqueExported(o *oracle) []declaration {
	count := httpNames
	var out []declaration
	for _, d := range o.decls {
		if token.IsExported(d.bare) && count[d.bare] == 1 {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// TestUniqueNameQueriesPutDeclarationFirst: for every exported function,
// method or type of net/http whose name is unique in the tree, both the
// bare name and "where is X defined?" put its declaration first.
func TestUniqueNameQueriesPutDeclarationFirst(t *testing.T) {
	p := netHTTP(t)
	o := loadOracle(t)
	decls := uniqueExported(o)
	if len(decls) < 50 {
		t.Fatalf("only %d unique exported declarations found; the oracle or the index is broken", len(decls))
	}
	kinds := map[string]int{}
	for _, d := range decls {
		kinds[d.kind]++
		for _, q := range []string{d.bare, "where is " + d.bare + " defined?"} {
			a, err := p.Search(context.Background(), q, 5)
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			if len(a.Hits) == 0 {
				t.Errorf("%q: no hits (class %s)", q, a.Class)
				continue
			}
			h := a.Hits[0]
			if h.Path != d.file || h.StartLine != d.line {
				t.Errorf("%q: first hit %s:%d %s, want declaration %s:%d", q, h.Path, h.StartLine, h.Symbol, d.file, d.line)
			}
		}
	}
	t.Logf("checked %d declarations (%v), 2 queries each", len(decls), kinds)
}

// TestCallersMatchTypeCheckedOracle: "what calls X?" returns the functions,
// methods and package-level variables whose code calls the function or
// method X declared in net/http, checked against go/types (oracle_test.go)
// for every function and method of net/http whose name is unique in the
// indexed tree. The oracle keys a call by the declaration its callee
// resolves to, and every hit is scored: one in a file go/types did not
// check for this GOOS/GOARCH (roundtrip_js.go, triv.go, ...) counts as a
// false positive. The product resolves calls from syntax (imports,
// declared types, result types); where no call resolves to the target it
// lists the calls by name (fakeLocker.Lock: other types' Lock), which are
// false positives: precision is pinned to the figure README.md states,
// recall to just under what is measured.
func TestCallersMatchTypeCheckedOracle(t *testing.T) {
	p := netHTTP(t)
	o := loadOracle(t)
	var targets []declaration
	withCallers := 0
	for _, d := range o.decls {
		if d.kind != "type" && httpNames[d.bare] == 1 {
			targets = append(targets, d)
			if len(o.callers[d.key]) > 0 {
				withCallers++
			}
		}
	}
	if withCallers < 30 {
		t.Fatalf("only %d of %d targets have callers; need at least 30", withCallers, len(targets))
	}
	var tp, fp, fn, unseen int
	for _, d := range targets {
		a, err := p.Search(context.Background(), "what calls "+d.bare+"?", 1000)
		if err != nil {
			t.Fatalf("%s: %v", d.bare, err)
		}
		if a.Class != "relationship" {
			t.Errorf("what calls %s?: class %s, want relationship", d.bare, a.Class)
		}
		got := map[string]bool{}
		for _, h := range a.Hits {
			got[fmt.Sprintf("%s:%d", h.Path, h.StartLine)] = true
		}
		want := o.callers[d.key]
		for k := range got {
			switch {
			case want[k]:
				tp++
			case !o.seen[strings.SplitN(k, ":", 2)[0]]:
				fp++
				unseen++
				t.Logf("what calls %s?: extra %s (a file go/types did not check)", d.name, k)
			default:
				fp++
				t.Logf("what calls %s?: extra %s", d.name, k)
			}
		}
		for k := range want {
			if !got[k] {
				fn++
				t.Logf("what calls %s?: missed %s", d.name, k)
			}
		}
	}
	precision := float64(tp) / float64(tp+fp)
	recall := float64(tp) / float64(tp+fn)
	t.Logf("%d targets (%d with callers): precision %.4f recall %.4f (tp=%d fp=%d of which %d in unchecked files, fn=%d)",
		len(targets), withCallers, precision, recall, tp, fp, unseen, fn)
	if math.Abs(precision-callersPrecision) > callersTolerance {
		t.Errorf("precision %.4f, want %.2f ± %.2f (the figure README.md states)", precision, callersPrecision, callersTolerance)
	}
	if recall < minCallersRecall {
		t.Errorf("recall %.4f, want >= %.3f", recall, minCallersRecall)
	}
}

// TestQualifiedRelationRetargetsToTheLastSegment: on net/http, "what does
// httpx.Get call?" finds no symbol "httpx.Get" (no package or type is
// httpx); the rules resolve it to "Get", say so, and the graph step then
// follows Get's edges — the note appears only because the retarget really
// ran. "what does http.Get call?" names package http's Get: no retarget,
// no note.
func TestQualifiedRelationRetargetsToTheLastSegment(t *testing.T) {
	p := netHTTP(t)
	graphName := func(a *rlm.Answer) string {
		for _, s := range a.Plan {
			if s.Strategy == "graph" {
				return s.Name
			}
		}
		return ""
	}
	a, err := p.Search(context.Background(), "what does httpx.Get call?", 10)
	if err != nil {
		t.Fatal(err)
	}
	if g := graphName(a); g != "Get" {
		t.Fatalf("the graph step searched %q, want \"Get\" (plan %+v)", g, a.Plan)
	}
	if a.Resolved == nil || a.Resolved.From != "httpx.Get" || a.Resolved.To != "Get" {
		t.Fatalf("resolved %+v, want httpx.Get -> Get", a.Resolved)
	}
	if len(a.Hits) == 0 {
		t.Fatal("no callees of Get")
	}
	a, err = p.Search(context.Background(), "what does http.Get call?", 10)
	if err != nil {
		t.Fatal(err)
	}
	if g := graphName(a); g != "http.Get" || a.Resolved != nil || len(a.Hits) == 0 {
		t.Fatalf("graph step %q, resolved %+v, %d hits: want http.Get, no resolution, hits", g, a.Resolved, len(a.Hits))
	}
	// A qualified name whose last segment does not exist either is a gap,
	// with no claim of a resolution.
	a, err = p.Search(context.Background(), "what does http.Zqxwvkj call?", 10)
	if err != nil {
		t.Fatal(err)
	}
	if a.Resolved != nil || a.Gap == "" {
		t.Fatalf("resolved %+v gap %q: want no resolution and a gap", a.Resolved, a.Gap)
	}
}

// What TestCallersMatchTypeCheckedOracle measured on net/http (go1.26,
// linux/amd64) when these were set: 657 targets, precision 0.9881 (tp
// 1750, fp 21, 7 of them in files go/types does not check here), recall
// 0.9977 (fn 4: calls through test tables of anonymous structs declared
// in another file). Before calls were resolved (issue 10, fault 4):
// precision 0.7493, recall 1.0. README.md quotes callersPrecision, so the
// measurement must stay within callersTolerance of it either way: better
// matching is news for the README, not only worse.
const (
	callersPrecision = 0.99
	callersTolerance = 0.01
	minCallersRecall = 0.995
)
