package sourcefacts

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scopedTree extracts files (path -> source) as one tree rooted at root.
func scopedTree(t *testing.T, root string, files map[string]string) ([]*FileFacts, *Scopes) {
	t.Helper()
	e := newAllExtractor(t)
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var ffs []*FileFacts
	for _, p := range paths {
		ff, err := e.Extract(context.Background(), p, []byte(files[p]))
		if err != nil {
			t.Fatal(err)
		}
		if ff.Status != StatusCurrent {
			t.Fatalf("%s: %s %s", p, ff.Status, ff.Error)
		}
		ff.Provenance.Project = root
		ffs = append(ffs, ff)
	}
	return ffs, NewScopes(root, ffs)
}

// callTargets is what Call says of every call of name in file path, by
// line: "via scope type".
func callTargets(ffs []*FileFacts, sc *Scopes, path, name string) map[int]string {
	out := map[int]string{}
	for _, f := range ffs {
		if f.Provenance.Path != path {
			continue
		}
		for _, r := range f.References {
			if r.Kind == RefCall && r.Name == name {
				c := sc.Call(f, r)
				out[r.Range.StartLine] = fmt.Sprintf("%s %s %s", c.Via, c.Scope, c.Type)
			}
		}
	}
	return out
}

// TestScopesMapImportsToTheTreeByTheirCommonSuffix: a tree's own import
// paths place it (a module's path, or its place under GOROOT/src) without
// go.mod; a directory's importable package is the one most of its files
// declare; other imports are outside the tree.
func TestScopesMapImportsToTheTreeByTheirCommonSuffix(t *testing.T) {
	ffs, sc := scopedTree(t, "/src/net/http", map[string]string{
		"server.go":               "package http\n\nfunc Serve() {}\n",
		"triv.go":                 "//go:build ignore\n\npackage main\n\nimport \"net/http\"\n\nfunc main() { http.Serve() }\n",
		"internal/ascii/print.go": "package ascii\n\nfunc Lower(s string) string { return s }\n",
		"client.go": `package http

import (
	"net/http/internal/ascii"
	"strings"
)

func get(s string) string { return ascii.Lower(strings.ToLower(s)) }
`,
		"httptest/server.go": `package httptest

import "net/http"

func Start() { http.Serve() }
`,
	})
	got := map[string]map[int]string{
		"client Lower":   callTargets(ffs, sc, "client.go", "Lower"),
		"client ToLower": callTargets(ffs, sc, "client.go", "ToLower"),
		"httptest Serve": callTargets(ffs, sc, "httptest/server.go", "Serve"),
		"triv Serve":     callTargets(ffs, sc, "triv.go", "Serve"),
	}
	want := map[string]map[int]string{
		"client Lower":   {8: "import go:internal/ascii:ascii "},
		"client ToLower": {8: "import ext:strings "},
		"httptest Serve": {5: "import go:.:http "},
		"triv Serve":     {7: "import go:.:http "},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// A one-package tree that nothing in it imports is not placed by
	// the imports it makes: fmt is no name of the root package.
	ffs, sc = scopedTree(t, "/src/app", map[string]string{
		"a.go": "package app\n\nimport \"fmt\"\n\nfunc A() string { return fmt.Sprint(1) }\n",
		"b.go": "package app\n\nimport \"fmt\"\n\nfunc B() string { return fmt.Sprint(2) }\n",
	})
	if d := cmp.Diff(map[int]string{5: "import ext:fmt "}, callTargets(ffs, sc, "a.go", "Sprint")); d != "" {
		t.Errorf("a tree importing fmt (-want +got):\n%s", d)
	}
}

// TestScopesFollowReceiversAcrossFiles: fields, results, embedded
// fields, aliases, elements, conversions and dot imports are followed
// through the declarations of the whole tree; a path that leaves the
// tree is external, one that cannot be followed is by name.
func TestScopesFollowReceiversAcrossFiles(t *testing.T) {
	ffs, sc := scopedTree(t, "/m", map[string]string{
		"web/types.go": `package web

import "bufio"

type body struct{}

func (b *body) Read(p []byte) (int, error) { return 0, nil }

type Request struct {
	Body *body
	br   *bufio.Reader
}

type wrapped struct{ *Request }

type Alias = body

type Bodies []*body

var Default = &Request{}

func NewRequest() (*Request, error) { return nil, nil }
`,
		"web/use.go": `package web

func use(r *Request, w wrapped, a Alias, bs Bodies, m map[string]*body, ch chan *body) {
	r.Body.Read(nil)
	w.Body.Read(nil)
	a.Read(nil)
	bs[0].Read(nil)
	m["k"].Read(nil)
	(<-ch).Read(nil)
	req, _ := NewRequest()
	req.Body.Read(nil)
	Default.Body.Read(nil)
	r.br.Read(nil)
	r.nope.Read(nil)
	Bodies(nil)[0].Read(nil)
}
`,
		"web/use_test.go": `package web_test

import . "example.com/m/web"

func useDot() {
	r, _ := NewRequest()
	r.Body.Read(nil)
}
`,
		"other/x.go": `package other

import "example.com/m/web"

func x() { web.NewRequest() }
`,
	})
	got := callTargets(ffs, sc, "web/use.go", "Read")
	want := map[int]string{
		4: "receiver go:web:web body", 5: "receiver go:web:web body", 6: "receiver go:web:web body",
		7: "receiver go:web:web body", 8: "receiver go:web:web body", 9: "receiver go:web:web body",
		11: "receiver go:web:web body", 12: "receiver go:web:web body", 13: "receiver ext:bufio Reader",
		14: "  ", 15: "receiver go:web:web body",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("web/use.go (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[int]string{7: "receiver go:web:web body"}, callTargets(ffs, sc, "web/use_test.go", "Read")); d != "" {
		t.Errorf("a dot import (-want +got):\n%s", d)
	}
}

// TestScopesResolveModulesOfOtherLanguages: Python absolute and relative
// imports (a package at the tree's root named by the root directory),
// JavaScript relative specifiers (index files too), Java packages and
// java.lang, Rust crate:: paths.
func TestScopesResolveModulesOfOtherLanguages(t *testing.T) {
	ffs, sc := scopedTree(t, "/lib/json", map[string]string{
		"__init__.py":      "from .decoder import scan\n\ndef loads(s):\n    return scan(s)\n",
		"decoder.py":       "def scan(s):\n    return s\n",
		"sub/a.py":         "from .b import g\n\n\ndef f():\n    g()\n",
		"sub/b.py":         "def g():\n    pass\n",
		"tool.py":          "import json.decoder\nimport json\n\ndef main():\n    json.decoder.scan(1)\n    json.loads(2)\n",
		"web/app.js":       "const u = require('../util');\nconst { put } = require('./store');\nfunction f() { u.get(); put(); }\n",
		"util/index.js":    "function get() {}\nmodule.exports = { get };\n",
		"web/store.js":     "function put() {}\nmodule.exports = { put };\n",
		"j/a/A.java":       "package a;\n\nimport b.B;\n\nclass A {\n  void f() { B.g(); String.format(\"\"); C.h(); }\n}\n",
		"j/b/B.java":       "package b;\n\npublic class B {\n  public static void g() {}\n}\n",
		"j/a/C.java":       "package a;\n\nclass C {\n  static void h() {}\n}\n",
		"rs/src/lib.rs":    "pub mod conn;\npub mod server;\n",
		"rs/src/conn.rs":   "pub struct Conn;\nimpl Conn {\n    pub fn open() -> Conn { Conn }\n}\n",
		"rs/src/server.rs": "use crate::conn::Conn;\nfn dial() { Conn::open(); }\n",
	})
	for _, tc := range []struct {
		path, name string
		want       map[int]string
	}{
		{"__init__.py", "scan", map[int]string{4: "import py:decoder "}},
		{"tool.py", "scan", map[int]string{5: "import py:decoder "}},
		{"sub/a.py", "g", map[int]string{5: "import py:sub/b "}},
		{"tool.py", "loads", map[int]string{6: "import py:. "}},
		{"web/app.js", "get", map[int]string{3: "import js:util/index "}},
		{"web/app.js", "put", map[int]string{3: "import js:web/store "}},
		{"j/a/A.java", "g", map[int]string{6: "import java:b B"}},
		{"j/a/A.java", "format", map[int]string{6: "receiver ext:java.lang String"}},
		{"j/a/A.java", "h", map[int]string{6: "receiver java:a C"}},
		{"rs/src/server.rs", "open", map[int]string{2: "import rs:rs/src/conn Conn"}},
	} {
		if d := cmp.Diff(tc.want, callTargets(ffs, sc, tc.path, tc.name)); d != "" {
			t.Errorf("%s %s (-want +got):\n%s", tc.path, tc.name, d)
		}
	}
}

// TestAPythonMethodCallResolvesToTheBaseClassThatDefinesIt: a call
// through self (or a parameter of a class's type) of a method the class
// does not define resolves to the base that does — a base of the same
// file, one imported by name, one reached through an imported module,
// two levels up, a nested class's base — and the class's own method wins
// over its base's; a base the tree does not define (object, an unknown
// name) leaves the call unresolved, as before.
func TestAPythonMethodCallResolvesToTheBaseClassThatDefinesIt(t *testing.T) {
	ffs, sc := scopedTree(t, "/lib/pkg", map[string]string{
		"base.py": "class Base:\n    def send(self, d):\n        return d\n\n    def close(self):\n        pass\n",
		"same.py": "class Local:\n    def send(self, d):\n        pass\n\n\n" +
			"class Child(Local):\n    def run(self):\n        self.send(1)\n\n\n" +
			"class Grand(Child):\n    def run(self):\n        self.send(2)\n",
		"named.py": "from .base import Base\n\n\n" +
			"class Child(Base):\n    def run(self):\n        self.send(1)\n        self.close()\n\n    def close(self):\n        pass\n\n\n" +
			"def top(c: Child):\n    c.send(2)\n",
		"qualified.py": "from . import base\nimport pkg.base as pb\n\n\n" +
			"class A(base.Base):\n    def run(self):\n        self.send(1)\n\n\n" +
			"class B(pb.Base, metaclass=type):\n    def run(self):\n        self.send(2)\n",
		"nested.py": "from .base import Base\n\n\nclass Outer:\n    class Inner(Base):\n        def m(self):\n            self.send(1)\n",
		"unknown.py": "class A(object):\n    def run(self):\n        self.send(1)\n\n\n" +
			"class B(Missing):\n    def run(self):\n        self.send(2)\n",
	})
	for _, tc := range []struct {
		path, name string
		want       map[int]string
	}{
		{"same.py", "send", map[int]string{8: "receiver py:same Local", 13: "receiver py:same Local"}},
		{"named.py", "send", map[int]string{6: "receiver py:base Base", 14: "receiver py:base Base"}},
		{"named.py", "close", map[int]string{7: "receiver py:named Child"}},
		{"qualified.py", "send", map[int]string{7: "receiver py:base Base", 12: "receiver py:base Base"}},
		{"nested.py", "send", map[int]string{7: "receiver py:base Base"}},
		{"unknown.py", "send", map[int]string{3: "  ", 8: "  "}},
	} {
		if d := cmp.Diff(tc.want, callTargets(ffs, sc, tc.path, tc.name)); d != "" {
			t.Errorf("%s %s (-want +got):\n%s", tc.path, tc.name, d)
		}
	}
}

// TestAnInheritedMethodResolvesToItsBaseInJavaAndJavaScript: the same for
// Java (a base imported, one of the same package in another file, an
// unqualified call and one through this), JavaScript (a base required
// from another module, one of the same file) and TypeScript (a base
// imported by name); a Java class's own method still wins, `new X()` (a
// RefClass reference too) makes X no base, a generic or package-qualified
// Java base (Local<String>, b.Base, b.Base<Integer>) is followed, and a
// JavaScript class imported
// by name keeps its name when its module is found (`Base.make()` is
// Base's, not the module's function make).
func TestAnInheritedMethodResolvesToItsBaseInJavaAndJavaScript(t *testing.T) {
	ffs, sc := scopedTree(t, "/src", map[string]string{
		"j/b/Base.java":  "package b;\n\npublic class Base {\n  public void send() {}\n  public void close() {}\n}\n",
		"j/a/Child.java": "package a;\n\nimport b.Base;\n\nclass Child extends Base {\n  void run() {\n    send();\n    this.send();\n    close();\n  }\n\n  void close() {}\n}\n",
		"j/a/Local.java": "package a;\n\nclass Local {\n  void shut() {}\n}\n",
		"j/a/Sub.java":   "package a;\n\nclass Sub extends Local {\n  void run() {\n    shut();\n    Object o = new X();\n    other();\n  }\n}\n",
		"j/a/X.java":     "package a;\n\nclass X {\n  void other() {}\n}\n",
		"j/a/Gen.java":   "package a;\n\nclass Gen extends Local<String> {\n  void run() {\n    shut();\n  }\n}\n",
		"j/c/Q.java":     "package c;\n\nclass Q extends b.Base {\n  void run() {\n    send();\n  }\n}\n",
		"j/c/R.java":     "package c;\n\nclass R extends b.Base<Integer> {\n  void run() {\n    send();\n  }\n}\n",
		"web/base.js":    "class Base {\n  send() {}\n  static make() {}\n}\nfunction make() {}\nmodule.exports = { Base, make };\n",
		"web/child.js":   "const { Base } = require('./base');\nclass Child extends Base {\n  run() {\n    this.send();\n    Base.make();\n  }\n}\n",
		"web/same.js":    "class A {\n  close() {}\n}\nclass B extends A {\n  run() {\n    this.close();\n  }\n}\n",
		"ts/base.ts":     "export class Base {\n  send(): void {}\n}\n",
		"ts/child.ts":    "import { Base } from './base';\nclass Child extends Base {\n  run(): void {\n    this.send();\n  }\n}\n",
	})
	for _, tc := range []struct {
		path, name string
		want       map[int]string
	}{
		{"j/a/Child.java", "send", map[int]string{7: "scope java:b Base", 8: "receiver java:b Base"}},
		{"j/a/Child.java", "close", map[int]string{9: "scope java:a Child"}},
		{"j/a/Sub.java", "shut", map[int]string{5: "scope java:a Local"}},
		{"j/a/Sub.java", "other", map[int]string{7: "  "}},
		{"j/a/Gen.java", "shut", map[int]string{5: "scope java:a Local"}},
		{"j/c/Q.java", "send", map[int]string{5: "scope java:b Base"}},
		{"j/c/R.java", "send", map[int]string{5: "scope java:b Base"}},
		{"web/child.js", "send", map[int]string{4: "receiver js:web/base Base"}},
		{"web/child.js", "make", map[int]string{5: "import js:web/base Base"}},
		{"web/same.js", "close", map[int]string{6: "receiver js:web/same A"}},
		{"ts/child.ts", "send", map[int]string{4: "receiver js:ts/base Base"}},
	} {
		if d := cmp.Diff(tc.want, callTargets(ffs, sc, tc.path, tc.name)); d != "" {
			t.Errorf("%s %s (-want +got):\n%s", tc.path, tc.name, d)
		}
	}
}

// TestACallOnSuperResolvesToTheBaseNotTheOverride: `super.f()` in Java,
// JavaScript and TypeScript and `super().f()` in Python call the base's
// f (or what the base inherits), not the override that makes the call; a
// nested class takes its own base, not its outer class's; a class with
// several bases (Python multiple inheritance) or a base the tree does not
// define leaves the call unresolved, to its name.
func TestACallOnSuperResolvesToTheBaseNotTheOverride(t *testing.T) {
	ffs, sc := scopedTree(t, "/lib/pkg", map[string]string{
		"base.py": "class Base:\n    def send(self, d):\n        return d\n",
		"child.py": "from .base import Base\n\n\n" +
			"class Child(Base):\n    def send(self, d):\n        return super().send(d)\n\n\n" +
			"class Grand(Child):\n    def send(self, d):\n        super( ).send(d)\n\n\n" +
			"class Two(Base, Child):\n    def send(self, d):\n        super().send(d)\n\n\n" +
			"class Ext(object):\n    def send(self, d):\n        super().send(d)\n\n\n" +
			"class Outer(Base):\n    class Inner(Child):\n        def send(self, d):\n            super().send(d)\n",
		"j/b/Base.java":  "package b;\n\npublic class Base {\n  public void send() {}\n}\n",
		"j/a/Child.java": "package a;\n\nimport b.Base;\n\nclass Child extends Base {\n  void send() {\n    super.send();\n  }\n}\n",
		"j/a/Sub.java":   "package a;\n\nclass Sub extends Child {\n  void send() {\n    super.send();\n  }\n}\n",
		"j/a/Nest.java":  "package a;\n\nclass Nest {\n  static class In extends Child {\n    void send() { super.send(); }\n  }\n}\n",
		"web/same.js":    "class A {\n  close() {}\n}\nclass B extends A {\n  close() {\n    super.close();\n  }\n}\n",
		"ts/base.ts":     "export class Base {\n  send(): void {}\n}\n",
		"ts/child.ts":    "import { Base } from './base';\nclass Child extends Base {\n  send(): void {\n    super.send();\n  }\n}\n",
	})
	for _, tc := range []struct {
		path, name string
		want       map[int]string
	}{
		{"child.py", "send", map[int]string{6: "import py:base Base", 11: "receiver py:child Child", 16: "  ", 21: "  ", 27: "receiver py:child Child"}},
		{"j/a/Child.java", "send", map[int]string{7: "import java:b Base"}},
		{"j/a/Sub.java", "send", map[int]string{5: "receiver java:a Child"}},
		{"j/a/Nest.java", "send", map[int]string{5: "receiver java:a Child"}},
		{"web/same.js", "close", map[int]string{6: "receiver js:web/same A"}},
		{"ts/child.ts", "send", map[int]string{4: "import js:ts/base Base"}},
	} {
		if d := cmp.Diff(tc.want, callTargets(ffs, sc, tc.path, tc.name)); d != "" {
			t.Errorf("%s %s (-want +got):\n%s", tc.path, tc.name, d)
		}
	}
}
