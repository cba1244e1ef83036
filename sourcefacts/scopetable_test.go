package sourcefacts

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// naiveOffset is LearnOffset as first written: every import against
// every scope (a vote and the choice among the votes are LearnOffset's).
func naiveOffset(root, lang string, t ScopeTable) ImportOffset {
	scopes := map[string]string{}
	for _, e := range t.Entries(entryGoPackage) {
		if lang == LangGo {
			scopes[e.A] = bestGoPackage(t.EntriesAt(entryGoPackage, e.A))
		}
	}
	for _, e := range t.Entries(entryPython) {
		if lang == LangPython {
			scopes[e.A] = moduleKey(entryPython, e.A)
		}
	}
	votes := map[ImportOffset]int{}
	for _, im := range t.EntriesAt(entryImport, lang) {
		m := "/" + im.B
		if lang == LangPython {
			m = "/" + strings.ReplaceAll(im.B, ".", "/")
		}
		for k, key := range scopes {
			if o, ok := vote(root, lang, im.B, m, k, key); ok {
				votes[o] += im.N
			}
		}
	}
	return bestOffset(votes)
}

// TestLearnOffsetCountsTheVotesOfEveryScope: the offset learnt through
// the index of scopes by last path element is the one every import
// voting against every scope learns — module trees, trees under a
// prefix, a root package, Python packages, import paths that end in a
// slash or name the root.
func TestLearnOffsetCountsTheVotesOfEveryScope(t *testing.T) {
	trees := map[string]map[string]string{
		"module": {
			"lib/lib.go": "package lib\n", "lib/sub/sub.go": "package sub\n", "x.go": "package main\n",
			"a.go": "package main\n\nimport (\n\t\"example.com/m/lib\"\n\t\"example.com/m/lib/sub\"\n\t\"fmt\"\n)\n",
			"b.go": "package main\n\nimport \"other.org/x/lib\"\n",
		},
		"under a prefix": {
			"http/server.go": "package http\n", "http/internal/ascii/a.go": "package ascii\n",
			"http/client.go": "package http\n\nimport \"net/http/internal/ascii\"\n",
			"main.go":        "package main\n\nimport (\n\t\"net/http\"\n\t\"http\"\n\t\"\"\n\t\"x/\"\n)\n",
		},
		"root package": {
			"root.go": "package tree\n", "cmd/c.go": "package main\n\nimport \"example.com/tree\"\n",
		},
		"python": {
			"__init__.py": "", "decoder.py": "", "sub/__init__.py": "", "sub/b.py": "",
			"tool.py": "import json.decoder\nimport json\nimport json.sub.b\nimport os.path\nfrom . import decoder\n",
		},
	}
	for name, files := range trees {
		_, sc := scopedTree(t, "/src/tree", files)
		for _, lang := range []string{LangGo, LangPython} {
			want := naiveOffset("tree", lang, sc.t)
			if got := LearnOffset("tree", lang, sc.t); got != want {
				t.Errorf("%s %s: learnt %+v, every scope votes for %+v", name, lang, got, want)
			}
		}
	}
}

// resolveAll resolves every call of every file over sc, recording each
// file's lookups: path -> "line name: via scope type" and path -> keys.
func resolveAll(ffs []*FileFacts, sc *Scopes) (map[string][]string, map[string]ScopeKeys) {
	targets, keys := map[string][]string{}, map[string]ScopeKeys{}
	for _, f := range ffs {
		k := ScopeKeys{}
		rs := sc.Recording(k)
		for _, r := range f.References {
			if r.Kind == RefCall {
				c := rs.Call(f, r)
				targets[f.Provenance.Path] = append(targets[f.Provenance.Path], fmt.Sprintf("%d %s: %s %s %s", r.Range.StartLine, r.Name, c.Via, c.Scope, c.Type))
			}
		}
		keys[f.Provenance.Path] = k
	}
	return targets, keys
}

// TestAResolutionChangesOnlyWithTheAnswersOfItsLookups: for edits of one
// file each (definitions added, removed, moved; imports, packages,
// embedded fields, modules changed), every other file whose recorded
// lookups all answer as before resolves as before; every lookup whose
// answer changed is among the lookups the edit's contribution changed
// (ScopeChanges); and the edits do
// change some other file's resolution.
func TestAResolutionChangesOnlyWithTheAnswersOfItsLookups(t *testing.T) {
	base := map[string]string{
		"lib/lib.go":     "package lib\n\nimport \"example.com/m/sub\"\n\ntype Client struct {\n\t*Base\n\tConn *Conn\n\tR    *sub.Reader\n}\n\ntype Conn struct{}\n\nfunc (c *Conn) Send() {}\n\nfunc New() *Client { return nil }\n\nfunc Helper() int { return 1 }\n",
		"lib/base.go":    "package lib\n\ntype Base struct{}\n\nfunc (b *Base) Close() {}\n",
		"lib/extra.go":   "package lib\n\nfunc (c *Client) Do() {}\n",
		"sub/sub.go":     "package sub\n\ntype Reader struct{}\n\nfunc (r *Reader) Read() {}\n",
		"sub2/sub.go":    "package sub\n\ntype Reader struct{}\n\nfunc (r *Reader) Read() {}\n",
		"tool/tool.go":   "package tool\n\nfunc X() {}\n",
		"app/app.go":     "package app\n\nimport \"example.com/m/lib\"\n\nfunc Run() {\n\tc := lib.New()\n\tc.Do()\n\tc.Conn.Send()\n\tc.R.Read()\n\tc.Close()\n\tlib.Helper()\n\tlib.Missing()\n}\n",
		"app/tools.go":   "package app\n\nimport . \"example.com/m/tool\"\n\nfunc Tools() { X() }\n",
		"other.go":       "package main\n\nimport \"other.org/x/lib\"\n\nfunc O() { lib.Helper() }\n",
		"py/pkg/a.py":    "from .util import f\nimport pkg.b\n\n\ndef g():\n    f()\n    pkg.b.h()\n",
		"py/pkg/b.py":    "def h():\n    pass\n",
		"web/app.js":     "const s = require('./store');\nfunction h() { s.put(); }\n",
		"web/store.js":   "function put() {}\nmodule.exports = { put };\n",
		"rs/src/a.rs":    "use crate::conn::Conn;\nfn dial() { Conn::open(); }\n",
		"rs/src/conn.rs": "pub struct Conn;\nimpl Conn {\n    pub fn open() -> Conn { Conn }\n}\n",
		"j/a/A.java":     "package a;\n\nimport b.B;\n\nclass A {\n  void f() { B.g(); C.h(); }\n}\n",
		"j/b/B.java":     "package b;\n\npublic class B {\n  public static void g() {}\n}\n",
	}
	edits := []struct{ path, src string }{ // src "" removes the file
		{"lib/extra.go", "package lib\n\nfunc (c *Client) Do() {}\n\nfunc Missing() {}\n"},
		{"lib/lib.go", strings.Replace(base["lib/lib.go"], "func Helper() int", "func Assist() int", 1)},
		{"lib/lib.go", strings.Replace(base["lib/lib.go"], `import "example.com/m/sub"`, `import sub "example.com/m/sub2"`, 1)},
		{"lib/lib.go", strings.Replace(base["lib/lib.go"], "\t*Base\n", "", 1)},
		{"lib/base.go", "package lib\n\ntype Base struct{}\n"},
		{"lib/aaa.go", "package lib\n\nfunc New() *Conn { return nil }\n"},
		{"lib/extra.go", ""},
		{"tool/tool.go", "package tools\n\nfunc X() {}\n"},
		{"app/app.go", strings.Replace(base["app/app.go"], `"example.com/m/lib"`, `"other.org/x/lib"`, 1)},
		{"py/pkg/util.py", "def f():\n    pass\n"},
		{"py/pkg/b.py", ""},
		{"web/store.js", ""},
		{"rs/src/lib.rs", "pub mod conn;\n"},
		{"j/b/B.java", ""},
	}
	ffs, sc := scopedTree(t, "/m", base)
	before, keys := resolveAll(ffs, sc)
	for _, e := range edits {
		t.Run(e.path, func(t *testing.T) {
			files := maps.Clone(base)
			if e.src == "" {
				delete(files, e.path)
			} else {
				files[e.path] = e.src
			}
			ffs2, sc2 := scopedTree(t, "/m", files)
			after, _ := resolveAll(ffs2, sc2)
			var contrib [2]*FileScope
			for i, set := range [][]*FileFacts{ffs, ffs2} {
				for _, f := range set {
					if f.Provenance.Path == e.path {
						fs := FileScopeOf(f)
						contrib[i] = &fs
					}
				}
			}
			cands := ScopeChanges(contrib[0], contrib[1])
			moved := 0
			for path, ks := range keys {
				if path == e.path {
					continue
				}
				same := true
				for _, k := range slices.SortedFunc(maps.Keys(ks), compareKeys) {
					if ScopeValue(sc.t, k) == ScopeValue(sc2.t, k) {
						continue
					}
					same = false
					if _, ok := slices.BinarySearchFunc(cands, k, compareKeys); !ok {
						t.Errorf("%s looked up %+v, whose answer changed, but the edit's candidates lack it", path, k)
					}
				}
				if d := gocmp.Diff(before[path], after[path]); d != "" {
					if same {
						t.Errorf("%s resolves differently with every lookup answering as before (-before +after):\n%s", path, d)
					}
					moved++
				}
			}
			if moved == 0 {
				t.Errorf("the edit changed no other file's resolution: it proves nothing")
			}
		})
	}
}

// TestAQualifiedEmbeddedFieldIsFollowedThroughTheLearntOffset: a struct
// embedding a type of another package of a module tree promotes its
// methods (the embedded type's import is placed by the tree's learnt
// offset, as every import is).
func TestAQualifiedEmbeddedFieldIsFollowedThroughTheLearntOffset(t *testing.T) {
	ffs, sc := scopedTree(t, "/m", map[string]string{
		"other/t.go": "package other\n\ntype T struct{}\n\nfunc (t *T) M() {}\n",
		"w/w.go":     "package w\n\nimport \"example.com/m/other\"\n\ntype W struct{ *other.T }\n\nfunc use(x *W) { x.M() }\n",
	})
	if d := gocmp.Diff(map[int]string{7: "receiver go:other:other T"}, callTargets(ffs, sc, "w/w.go", "M")); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
