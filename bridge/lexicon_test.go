package bridge

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// nameBackend knows the symbol names in known; a name in flaky fails
// once, then is known. It records every name it is asked about.
type nameBackend struct {
	retrieval.Backend
	known, flaky map[string]bool
	asked        []string
}

func (b *nameBackend) Capabilities() retrieval.Capabilities {
	return retrieval.Capabilities{Strategies: []retrieval.Strategy{retrieval.Exact}}
}

func (b *nameBackend) Search(_ context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	b.asked = append(b.asked, req.Name)
	if b.flaky[req.Name] {
		delete(b.flaky, req.Name)
		b.known[req.Name] = true
		return nil, errors.New("backend unavailable")
	}
	if b.known[req.Name] {
		return []retrieval.Hit{{Document: retrieval.Document{ID: req.Name}}}, nil
	}
	return nil, nil
}

// TestALexiconMemoAsksTheBackendOncePerWordAndKeepsNoError: lexicons of
// later queries over one memo answer the words an earlier query asked
// about without asking the backend, with the backend's answers; a
// look-up that failed is asked again; an answer from the memo still
// counts toward MaxLexiconLookups, so a query sees what BackendLexicon
// would show it.
func TestALexiconMemoAsksTheBackendOncePerWordAndKeepsNoError(t *testing.T) {
	ctx := context.Background()
	b := &nameBackend{known: map[string]bool{"Serve": true}, flaky: map[string]bool{"Flaky": true}}
	memo := NewLexiconMemo()
	ask := func(names ...string) (answers []bool, asked []string) {
		b.asked = nil
		lex := BackendLexiconMemo(ctx, b, memo)
		for _, n := range names {
			answers = append(answers, lex.Symbol(n))
		}
		return answers, b.asked
	}
	steps := []struct {
		names     []string
		want      []bool
		wantAsked []string
	}{
		{[]string{"Serve", "serve", "Flaky"}, []bool{true, false, false}, []string{"Serve", "serve", "Flaky"}},
		{[]string{"Serve", "serve"}, []bool{true, false}, nil},
		{[]string{"Flaky", "Serve"}, []bool{true, true}, []string{"Flaky"}}, // the error was not kept
		{[]string{"Flaky"}, []bool{true}, nil},
	}
	for i, s := range steps {
		got, asked := ask(s.names...)
		if diff := cmp.Diff(s.want, got); diff != "" {
			t.Errorf("step %d %v: answers (-want +got):\n%s", i, s.names, diff)
		}
		if diff := cmp.Diff(s.wantAsked, asked); diff != "" {
			t.Errorf("step %d %v: names asked of the backend (-want +got):\n%s", i, s.names, diff)
		}
	}

	// The bound: with every name already in the memo, a query still sees
	// only its first MaxLexiconLookups names answered.
	var names []string
	for i := range MaxLexiconLookups + 1 {
		n := fmt.Sprintf("Name%d", i)
		b.known[n] = true
		names = append(names, n)
	}
	withoutMemo := func() []bool {
		lex := BackendLexicon(ctx, b)
		var out []bool
		for _, n := range names {
			out = append(out, lex.Symbol(n))
		}
		return out
	}
	want := withoutMemo()
	ask(names...) // fills the memo
	got, _ := ask(names...)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers over the bound through the memo differ from BackendLexicon's (-want +got):\n%s", diff)
	}
	if want[MaxLexiconLookups] {
		t.Errorf("BackendLexicon answered look-up %d: the bound is not tested", MaxLexiconLookups+1)
	}
}

// termBackend answers a lexical search of one word (a hit when the word
// is one of its terms) and an exact look-up of a name NameN.
type termBackend struct {
	retrieval.Backend
	terms map[string]bool
	asked []string
}

func (b *termBackend) Capabilities() retrieval.Capabilities {
	return retrieval.Capabilities{Strategies: []retrieval.Strategy{retrieval.Exact, retrieval.Lexical}}
}

func (b *termBackend) Search(_ context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	if req.Strategy == retrieval.Exact {
		if strings.HasPrefix(req.Name, "Name") {
			return []retrieval.Hit{{Document: retrieval.Document{ID: req.Name}}}, nil
		}
		return nil, nil
	}
	b.asked = append(b.asked, req.Text)
	if req.Strategy == retrieval.Lexical && b.terms[req.Text] {
		return []retrieval.Hit{{Document: retrieval.Document{ID: req.Text}}}, nil
	}
	return nil, nil
}

// TestABackendLexiconKnowsTheIndexsTermsWithinItsOwnBound: Term asks a
// lexical search of the word alone (known when it finds a document),
// each word once per query, and at most MaxTermLookups words, a bound
// apart from the names' (MaxLexiconLookups): a query's candidate
// acronyms do not use up its names' look-ups.
func TestABackendLexiconKnowsTheIndexsTermsWithinItsOwnBound(t *testing.T) {
	b := &termBackend{terms: map[string]bool{"hdn": true}}
	lex := BackendLexicon(context.Background(), b)
	if !lex.Term("hdn") || lex.Term("xyz") || !lex.Term("hdn") {
		t.Fatalf("Term: hdn known, xyz not: got asked %q", b.asked)
	}
	if want := []string{"hdn", "xyz"}; !cmp.Equal(want, b.asked) {
		t.Errorf("asked %q, want each word once: %q", b.asked, want)
	}
	for i := range MaxTermLookups - 2 {
		w := fmt.Sprintf("w%d", i)
		b.terms[w] = true
		if !lex.Term(w) {
			t.Errorf("Term(%s) within the bound: false", w)
		}
	}
	b.terms["over"] = true
	if lex.Term("over") || len(b.asked) != MaxTermLookups {
		t.Errorf("asked %d words (over the bound answered: %v), want the bound %d", len(b.asked), lex.Term("over"), MaxTermLookups)
	}
	for i := range MaxLexiconLookups {
		if n := fmt.Sprintf("Name%d", i); !lex.Symbol(n) {
			t.Errorf("Symbol(%s), look-up %d of the names, after the terms': false", n, i+1)
			break
		}
	}
}
