package project_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// compoundFiles is a Python tree whose scanner.py defines a name written
// without separators, getaddrlist; words.py, when present, gives the
// words it splits into.
var compoundFiles = map[string]string{
	"scanner.py": "class Scanner:\n    def getaddrlist(self):\n        return []\n\n    def getquote(self):\n        return ''\n",
	"other.py":   "def fold_header(name, value):\n    return name\n\n\ndef quote_string(text):\n    return text\n",
	"words.py":   "def get_addr_spec(value):\n    return value\n\n\ndef parse_list(value):\n    return [value]\n",
}

// TestAnUpdateSplitsCompoundNamesAsAFreshBuildDoes: a compound name's
// words (Document.NameWords) come from other files, so an update that
// brings the words of a split into the tree (words.py added) or takes
// them out of it (words.py removed again) writes the documents of the
// file whose name they split (scanner.py), untouched itself: the updated
// index answers "addr list" with getaddrlist, then without it, exactly as
// a fresh build of the same snapshot does, and holds the same file
// versions.
func TestAnUpdateSplitsCompoundNamesAsAFreshBuildDoes(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(compoundFiles[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("scanner.py")
	write("other.py")
	reqs := []retrieval.Request{{Strategy: retrieval.Lexical, Text: "addr list", Limit: 10}}
	finds := func(c indexContent) bool {
		for _, a := range c.Answers {
			for _, h := range a {
				if h.ID == retrieval.SymbolDocumentID("scanner.py", "Scanner.getaddrlist", 0) {
					return true
				}
			}
		}
		return false
	}
	steps := []struct {
		name  string
		edit  func()
		finds bool
	}{
		{"the words come", func() { write("words.py") }, true},
		{"the words go", func() { mustRemove(t, filepath.Join(root, "words.py")) }, false},
	}
	dir := t.TempDir()
	opts := project.Options{DBPath: filepath.Join(dir, "kb.sqlite")}
	p, err := project.Open(ctx, root, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { p.Close() }()
	for _, s := range steps {
		s.edit()
		if changed, err := p.Refresh(ctx); err != nil || !changed {
			t.Fatalf("%s: refresh: changed %v, %v", s.name, changed, err)
		}
		if st := p.Stats(); st.DerivedFrom == 0 {
			t.Fatalf("%s: the index was not updated but %+v", s.name, st)
		}
		derived := contentOf(t, p, reqs)
		p.Close()
		removeIndexFiles(t, dir)
		if p, err = project.Open(ctx, root, opts); err != nil {
			t.Fatal(err)
		}
		if st := p.Stats(); st.DerivedFrom != 0 || st.Reused {
			t.Fatalf("%s: the second open: %+v, want a build", s.name, st)
		}
		built := contentOf(t, p, reqs)
		if finds(built) != s.finds {
			t.Errorf("%s: a fresh build finds getaddrlist by \"addr list\": %v, want %v", s.name, finds(built), s.finds)
		}
		if diff := cmp.Diff(built, derived); diff != "" {
			t.Errorf("%s: the updated index differs from a fresh build (-built +derived):\n%s", s.name, diff)
		}
	}
}

// TestACompoundNamePartIsSplitIntoTheTreesWords: Documents gives a
// definition whose name part is a compound of the tree's words those
// words, recursively (getaddrlist: get, addrlist, then addrlist: addr,
// list — AddrlistClass makes addrlist a word), and a definition whose
// parts are no compounds none.
func TestACompoundNamePartIsSplitIntoTheTreesWords(t *testing.T) {
	f := &sourcefacts.FileFacts{
		Provenance: sourcefacts.Provenance{Path: "x.py"},
		Symbols: []sourcefacts.Symbol{
			{Name: "AddrlistClass", Kind: "class", Range: sourcefacts.Range{StartLine: 1, EndLine: 6}},
			{Name: "getaddrlist", Kind: "method", Container: "AddrlistClass", Range: sourcefacts.Range{StartLine: 2, EndLine: 3}},
			{Name: "quote", Kind: "method", Container: "AddrlistClass", Range: sourcefacts.Range{StartLine: 5, EndLine: 6}},
		},
		References: []sourcefacts.Reference{
			{Name: "get_addr_spec", Kind: sourcefacts.RefCall, Enclosing: 1},
			{Name: "parse_list", Kind: sourcefacts.RefCall, Enclosing: 1},
		},
	}
	got := map[string][]string{}
	for _, d := range project.Documents([]*sourcefacts.FileFacts{f}, nil) {
		got[d.Qualified] = d.NameWords
	}
	want := map[string][]string{
		"AddrlistClass":             {"addr", "list"},
		"AddrlistClass.getaddrlist": {"get", "addrlist", "addr", "list"},
		"AddrlistClass.quote":       nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NameWords (-want +got):\n%s", diff)
	}
}
