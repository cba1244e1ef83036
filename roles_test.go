package rlm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/retrieval"
)

// The trees of testdata/roles, one per language convention: a function
// that computes the shipping cost of a parcel from its weight, tests and
// examples of it that repeat the words of a description of it (so that
// without demotion they outrank it), and a source function about
// something else.
var rolesTrees = []struct {
	tree   string
	answer string // the shipping-cost function's symbol
}{
	{"python", "shipping_cost"},
	{"javascript", "shippingCost"},
	{"ruby", "shipping_cost"},
	{"java", "shippingCost"},
	{"go", "ShippingCost"},
	{"rust", "shipping_cost"},
	{"c", "shipping_cost"},
}

// vectorModes are the two ways a description is answered: BM25 alone (no
// embedder) and hybrid search (BM25 fused with an embedder the rules
// trust: the offline embedder presented as learned, asLearned).
var vectorModes = []string{"bm25", "hybrid"}

// asLearned hides the local embedder's Nature: an embedder that does not
// say is taken for a trained model (retrieval.EmbedderNature), whose
// vectors the rules trust for descriptions, so they plan hybrid search.
type asLearned struct{ retrieval.Embedder }

func openRolesTree(t *testing.T, tree, mode string) *rlm.Project {
	t.Helper()
	opts := rlm.Options{InMemory: true}
	if mode != "bm25" {
		e, err := rlm.LocalEmbedder()
		if err != nil {
			t.Fatal(err)
		}
		opts.Embedder = asLearned{e}
	}
	if mode == "chroma" {
		opts.Chroma = &rlm.ChromaConfig{URL: testfixture.ChromaURL(t), CollectionPrefix: testfixture.UniquePrefix("roles")}
	}
	p, err := rlm.Open(context.Background(), filepath.Join("testdata", "roles", tree), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func searchAll(t *testing.T, p *rlm.Project, q string) *rlm.Answer {
	t.Helper()
	a, err := p.Search(context.Background(), q, 50)
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	return a
}

// hitList renders hits as "path:line symbol [role]" for failure messages.
func hitList(a *rlm.Answer) string {
	var b strings.Builder
	for _, h := range a.Hits {
		b.WriteString("\n\t" + h.Path + " " + h.Symbol + " [" + h.Role + "]")
	}
	return b.String()
}

// stepsOf returns the executed steps of strategy s.
func stepsOf(a *rlm.Answer, s string) []planner.ExecutedStep {
	var out []planner.ExecutedStep
	for _, st := range a.Plan {
		if st.Strategy == s {
			out = append(out, st)
		}
	}
	return out
}

func TestDescriptionsRankTheCodeBeforeItsTestsAndExamplesInEveryLanguage(t *testing.T) {
	const q = "shipping cost of a parcel weight"
	for _, tr := range rolesTrees {
		for _, mode := range vectorModes {
			t.Run(tr.tree+"/"+mode, func(t *testing.T) {
				a := searchAll(t, openRolesTree(t, tr.tree, mode), q)
				if len(a.Hits) == 0 || a.Hits[0].Symbol != tr.answer || a.Hits[0].Role != "source" {
					t.Fatalf("%q: want %s (source) first, got:%s", q, tr.answer, hitList(a))
				}
				demoted := map[string]bool{}
				for i, h := range a.Hits {
					if h.Role == "" {
						t.Errorf("hit %d %s has no role", i, h.Symbol)
					}
					if h.Role != "source" {
						demoted[h.Role] = true
					} else if i > 0 && a.Hits[i-1].Role != "source" {
						t.Errorf("source %s ranks after a %s:%s", h.Symbol, a.Hits[i-1].Role, hitList(a))
					}
				}
				// Demoted, not left out.
				if !demoted["test"] || !demoted["example"] {
					t.Errorf("tests or examples left out of the answer:%s", hitList(a))
				}
				if len(stepsOf(a, map[string]string{"bm25": "lexical", "hybrid": "hybrid"}[mode])) == 0 {
					t.Errorf("no %s step in %v", mode, a.Plan)
				}
				for _, s := range a.Plan {
					if !slices.Contains(s.Demote, "test") || !slices.Contains(s.Demote, "example") {
						t.Errorf("step %s does not demote tests and examples", s.Step)
					}
				}
			})
		}
	}
}

func TestAQuestionAboutTestsKeepsTestsInTheirPlace(t *testing.T) {
	for _, tr := range rolesTrees {
		for _, mode := range vectorModes {
			t.Run(tr.tree+"/"+mode, func(t *testing.T) {
				p := openRolesTree(t, tr.tree, mode)
				for _, q := range []string{"which tests check the shipping cost of a parcel weight", "test for the shipping cost of a parcel weight"} {
					a := searchAll(t, p, q)
					// The tests repeat the query's words: undemoted, one
					// of them ranks first.
					if len(a.Hits) == 0 || a.Hits[0].Role != "test" {
						t.Errorf("%q: want a test first, got:%s", q, hitList(a))
					}
					for _, s := range a.Plan {
						if slices.Contains(s.Demote, "test") {
							t.Errorf("%q: step %s demotes tests", q, s.Step)
						}
					}
				}
			})
		}
	}
}

func TestOnlyDescriptionsDemoteTestsAndExamples(t *testing.T) {
	p := openRolesTree(t, "go", "hybrid")
	for q, class := range map[string]string{
		"ShippingCost":                   "identifier",
		"where is ShippingCost defined?": "identifier",
		"what calls ShippingCost?":       "relationship",
		"parcel":                         "broad",
		"example/quote.go shipping cost": "path",
		"shipping cost of a parcel":      "conceptual",
		"the cost of shipping a parcel of this weight in kilograms to a country": "description",
	} {
		a := searchAll(t, p, q)
		if a.Class != class {
			t.Errorf("%q: class %s, want %s", q, a.Class, class)
			continue
		}
		descriptive := class == "conceptual" || class == "description"
		for _, s := range a.Plan {
			if s.Role == "evidence" && (len(s.Demote) > 0) != descriptive {
				t.Errorf("%q (%s): step %s demotes %v", q, class, s.Step, s.Demote)
			}
		}
	}
	// A broad word is not a description: its tests keep their rank.
	if a := searchAll(t, p, "parcel"); len(a.Hits) == 0 || a.Hits[0].Role == "source" {
		t.Errorf("parcel: want a test or example first (undemoted), got:%s", hitList(a))
	}
}

// TestRoleFiltersAreHonouredInEveryMode: the filters a query asks for in
// words reach the backend in every search mode: an exact look-up, a graph
// walk, BM25, hybrid and embedding search (each seen running in the plan)
// return only the definitions of the roles asked for, file roles and
// definitions' own roles (Go Example functions in a test file) alike.
func TestRoleFiltersAreHonouredInEveryMode(t *testing.T) {
	type check struct {
		query, strategy string
		mode            string
		want            []string // the roles the hits may have
		some            bool     // at least one hit expected
	}
	checks := []check{
		{"where is printParcelShippingCost defined without examples", "exact", "bm25", []string{"source", "test"}, false},
		{"where is printParcelShippingCost defined in examples", "exact", "bm25", []string{"example"}, true},
		{"what calls ShippingCost without tests", "graph", "bm25", []string{"source", "example"}, true},
		{"what calls ShippingCost examples only", "graph", "bm25", []string{"example"}, true},
		{"what calls ShippingCost in tests", "graph", "bm25", []string{"test"}, true},
		{"shipping cost of a parcel weight without examples", "lexical", "bm25", []string{"source", "test"}, true},
		{"shipping cost of a parcel weight examples only", "lexical", "bm25", []string{"example"}, true},
		{"shipping cost of a parcel weight tests only", "lexical", "bm25", []string{"test"}, true},
		{"shipping cost of a parcel weight without examples", "hybrid", "hybrid", []string{"source", "test"}, true},
		{"shipping cost of a parcel weight examples only", "hybrid", "hybrid", []string{"example"}, true},
		{"shipping cost of a parcel weight tests only", "hybrid", "hybrid", []string{"test"}, true},
		{"parcel examples only", "vector", "hybrid", []string{"example"}, true},
		{"parcel without tests", "vector", "hybrid", []string{"source", "example"}, true},
	}
	run := func(t *testing.T, p *rlm.Project, checks []check) {
		for _, c := range checks {
			a := searchAll(t, p, c.query)
			ran := stepsOf(a, c.strategy)
			if len(ran) == 0 {
				t.Errorf("%q: no %s step ran: %v", c.query, c.strategy, a.Plan)
				continue
			}
			if c.some && (len(a.Hits) == 0 || ran[0].Hits == 0) {
				t.Errorf("%q: the %s step found nothing:%s", c.query, c.strategy, hitList(a))
			}
			for _, h := range a.Hits {
				if !slices.Contains(c.want, h.Role) {
					t.Errorf("%q (%s): %s is a %s, want one of %v", c.query, c.strategy, h.Symbol, h.Role, c.want)
				}
			}
		}
	}
	for _, mode := range vectorModes {
		var mine []check
		for _, c := range checks {
			if c.mode == mode {
				mine = append(mine, c)
			}
		}
		run(t, openRolesTree(t, "go", mode), mine)
	}
	// Vectors in a Chroma server: its where clauses filter the embedding
	// search, and hybrid fuses it with BM25.
	t.Run("chroma", func(t *testing.T) {
		var vec []check
		for _, c := range checks {
			if c.mode == "hybrid" {
				vec = append(vec, c)
			}
		}
		run(t, openRolesTree(t, "go", "chroma"), vec)
	})
}

// TestHitsCarryWhatAHostNeedsToCiteThem: every hit has its definition's
// stable document id, signature, doc comment, role and its file's content
// hash in the snapshot, and the answer names that snapshot (generation
// and fingerprint); in the JSON form too. An edit above a definition moves
// its lines but not its id.
func TestHitsCarryWhatAHostNeedsToCiteThem(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "roles", "go", "cost.go"))
	if err != nil {
		t.Fatal(err)
	}
	root := testfixture.WriteTree(t, map[string]string{"cost.go": string(src)})
	ctx := context.Background()
	p, err := rlm.Open(ctx, root, rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	check := func(q string) *rlm.Hit {
		t.Helper()
		a := searchAll(t, p, q)
		id := p.Snapshot()
		want := &rlm.SnapshotID{Generation: id.Generation, Fingerprint: fmt.Sprintf("%016x", id.Fingerprint)}
		if diff := cmp.Diff(want, a.Snapshot); diff != "" {
			t.Errorf("%q: snapshot (-project +answer):\n%s", q, diff)
		}
		if len(a.Hits) == 0 {
			t.Fatalf("%q: no hits", q)
		}
		for _, h := range a.Hits {
			hash, _ := p.FileHash(h.Path)
			if h.ID != retrieval.SymbolDocumentID(h.Path, h.Qualified, 0) || h.Signature == "" || h.Role != "source" || h.ContentHash != hash {
				t.Errorf("%q: hit %+v: want id %q, a signature, role source and content hash %q", q, h, retrieval.SymbolDocumentID(h.Path, h.Qualified, 0), hash)
			}
		}
		var js struct {
			Hits     []map[string]any `json:"hits"`
			Snapshot map[string]any   `json:"snapshot"`
		}
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &js); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"id", "signature", "doc", "content_hash", "role"} {
			if s, _ := js.Hits[0][k].(string); s == "" {
				t.Errorf("%q: JSON hit lacks %q: %s", q, k, b)
			}
		}
		if js.Snapshot["generation"] != float64(id.Generation) || js.Snapshot["fingerprint"] != want.Fingerprint {
			t.Errorf("%q: JSON snapshot %v, want %+v", q, js.Snapshot, want)
		}
		return &a.Hits[0]
	}
	before := check("where is ShippingCost defined?")
	if before.Signature != "func ShippingCost(weight int) int" ||
		before.Doc != "ShippingCost computes the shipping cost of a parcel from its weight in kilograms." {
		t.Errorf("ShippingCost: signature %q, doc %q", before.Signature, before.Doc)
	}
	gen := p.Snapshot().Generation
	if _, err := p.ApplyPatch(ctx, "cost.go", before.ContentHash, rlm.Patch{Edits: []rlm.PatchEdit{{Start: 0, End: 0, Text: []byte("// Rates as of this year.\n\n")}}}); err != nil {
		t.Fatal(err)
	}
	after := check("where is ShippingCost defined?")
	if after.ID != before.ID || after.StartLine != before.StartLine+2 || after.ContentHash == before.ContentHash || p.Snapshot().Generation <= gen {
		t.Errorf("after an edit above it: id %q line %d hash %s (generation %d); before: %q line %d hash %s (generation %d)",
			after.ID, after.StartLine, after.ContentHash, p.Snapshot().Generation, before.ID, before.StartLine, before.ContentHash, gen)
	}
	check("shipping cost of a parcel weight")
}

// TestANameTheCodeDefinesSparesNoTestOfThatName: a description that
// names a definition of the code itself ("Handler sends each parcel to
// the right depot", testdata/roles/namesake) ranks the code's Handlers
// first and a test's field named Handler after them — named, but the
// name is as much the code's; demoted, not left out — and says why
// (rk_named_in_source). A name only the tests define (stubDepot) is
// still spared: BM25 ranks that test definition first, and it stays.
func TestANameTheCodeDefinesSparesNoTestOfThatName(t *testing.T) {
	p, err := rlm.Open(context.Background(), filepath.Join("testdata", "roles", "namesake"), rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	a := searchAll(t, p, "Handler sends each parcel to the right depot")
	var roles []string
	for _, h := range a.Hits {
		if h.Symbol == "Handler" {
			roles = append(roles, h.Role)
		}
	}
	if diff := cmp.Diff([]string{"source", "source", "test"}, roles); diff != "" {
		t.Errorf("the roles of the Handlers, in rank order (-want +got):\n%s%s", diff, hitList(a))
	}
	inSource := false
	for _, b := range a.Explain {
		for _, pr := range b.Premises {
			inSource = inSource || strings.Contains(pr, `because(rk_named_in_source, [names(["Handler"])])`)
		}
	}
	if !inSource {
		t.Errorf("no rk_named_in_source for Handler in the chain %v", a.Explain)
	}
	if a := searchAll(t, p, "the stubDepot double sends every parcel to one depot"); len(a.Hits) == 0 || a.Hits[0].Symbol != "stubDepot" {
		t.Errorf("a name only the tests define: want stubDepot first, got:%s", hitList(a))
	}
}
