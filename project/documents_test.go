package project_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/embedded"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// TestDocumentIDsAreStableAcrossLineShifts: a definition keeps its
// document id when lines above it are added (a record written for the
// earlier version is replaced, not left behind), and two definitions of
// one qualified name in a file (#if branches, overloads) keep distinct
// ids, numbered in source order.
func TestDocumentIDsAreStableAcrossLineShifts(t *testing.T) {
	file := func(shift int) *sourcefacts.FileFacts {
		at := func(line int) sourcefacts.Range {
			return sourcefacts.Range{StartLine: line + shift, EndLine: line + shift + 2}
		}
		return &sourcefacts.FileFacts{
			Provenance: sourcefacts.Provenance{Path: "pkg/a.c"},
			Symbols: []sourcefacts.Symbol{
				{Name: "init", Kind: "function", Range: at(3)},
				{Name: "Serve", Kind: "method", Receiver: "Server", Range: at(10)},
				{Name: "init", Kind: "function", Range: at(20)},
			},
		}
	}
	ids := func(f *sourcefacts.FileFacts) []string {
		var out []string
		for _, d := range project.Documents([]*sourcefacts.FileFacts{f}, nil) {
			out = append(out, d.ID)
		}
		return out
	}
	want := []string{"pkg/a.c#init", "pkg/a.c#Server.Serve", "pkg/a.c#init~1"}
	for _, shift := range []int{0, 1, 57} {
		if d := cmp.Diff(want, ids(file(shift))); d != "" {
			t.Errorf("lines shifted by %d (-want +got):\n%s", shift, d)
		}
	}
}

// TestADefinitionIsFoundByTheNamesItCalls: an undocumented definition's
// document holds the names it calls and references (its call-graph
// neighbourhood) besides its own fields, each once, so BM25 finds it by
// what it does; a definition without references keeps an empty Text (the
// backends index its fields).
func TestADefinitionIsFoundByTheNamesItCalls(t *testing.T) {
	f := &sourcefacts.FileFacts{
		Provenance: sourcefacts.Provenance{Path: "addr.py"},
		Symbols: []sourcefacts.Symbol{
			{Name: "gotonext", Kind: "method", Receiver: "AddrlistClass", Range: sourcefacts.Range{StartLine: 1, EndLine: 9}},
			{Name: "getaddress", Kind: "method", Receiver: "AddrlistClass", Range: sourcefacts.Range{StartLine: 11, EndLine: 12}},
		},
		References: []sourcefacts.Reference{
			{Name: "getcomment", Kind: sourcefacts.RefCall, Enclosing: 0, Range: sourcefacts.Range{StartLine: 3, EndLine: 3}},
			{Name: "skip_whitespace", Kind: sourcefacts.RefCall, Enclosing: 0, Range: sourcefacts.Range{StartLine: 5, EndLine: 5}},
			{Name: "getcomment", Kind: sourcefacts.RefCall, Enclosing: 0, Range: sourcefacts.Range{StartLine: 7, EndLine: 7}},
		},
	}
	docs := project.Documents([]*sourcefacts.FileFacts{f}, nil)
	if !strings.HasSuffix(docs[0].Text, "\ngetcomment skip_whitespace") || !strings.Contains(docs[0].Text, "AddrlistClass.gotonext") {
		t.Errorf("gotonext's text %q: want its fields, then each name it calls once", docs[0].Text)
	}
	if docs[1].Text != "" {
		t.Errorf("getaddress has no references but text %q", docs[1].Text)
	}
	ctx := context.Background()
	b, err := embedded.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: "skip white space and extract comments", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Document.Symbol != "gotonext" {
		t.Errorf("hits %v: want gotonext first, found by the names it calls", hits)
	}
}
