// The kinds of definitions issue 11 found missing, each with a small
// handmade tree under testdata/kinds/: the definition's path, line range,
// qualified name and kind, and its callers.

package sourcefacts

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/testfixture"
)

// kindDef is a definition as the kind tests see it.
type kindDef struct {
	Path      string
	Lines     [2]int // Range start and end line
	Qualified string // Container-qualified name (fullName)
	Kind      string
	// Callers are the calls of its name anywhere in the tree, as
	// "path:line enclosing" (enclosing: the caller's full name, "-" at
	// file level).
	Callers []string
}

// walkTree walks testdata/kinds/<dir> (or an absolute dir) with opts.
func walkTree(t *testing.T, dir string, opts WalkOptions) []*FileFacts {
	t.Helper()
	if !filepath.IsAbs(dir) {
		dir = filepath.Join("testdata", "kinds", dir)
	}
	ffs, err := Walk(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ffs
}

// kindDefs returns every definition of ffs whose full name is among
// names, in path and line order, with its callers.
func kindDefs(ffs []*FileFacts, names ...string) []kindDef {
	var out []kindDef
	for _, ff := range ffs {
		for _, s := range ff.Symbols {
			if !slices.Contains(names, fullName(s)) {
				continue
			}
			d := kindDef{Path: ff.Provenance.Path, Lines: [2]int{s.Range.StartLine, s.Range.EndLine},
				Qualified: fullName(s), Kind: s.Kind}
			for _, caller := range ffs {
				for _, r := range caller.References {
					if r.Kind != RefCall || r.Name != s.Name {
						continue
					}
					enc := "-"
					if r.Enclosing >= 0 {
						enc = fullName(caller.Symbols[r.Enclosing])
					}
					d.Callers = append(d.Callers, fmt.Sprintf("%s:%d %s", caller.Provenance.Path, r.Range.StartLine, enc))
				}
			}
			out = append(out, d)
		}
	}
	return out
}

func checkKindDefs(t *testing.T, ffs []*FileFacts, want []kindDef) {
	t.Helper()
	var names []string
	for _, w := range want {
		names = append(names, w.Qualified)
	}
	if d := cmp.Diff(want, kindDefs(ffs, names...)); d != "" {
		t.Errorf("definitions (-want +got):\n%s", d)
	}
}

// fileStatus is a file's language decision and status.
type fileStatus struct {
	Path, Language, Grammar, By, Status, Error string
}

func fileStatuses(ffs []*FileFacts) []fileStatus {
	var out []fileStatus
	for _, ff := range ffs {
		out = append(out, fileStatus{ff.Provenance.Path, ff.Language, ff.Provenance.Grammar,
			ff.Provenance.LanguageBy, ff.Status, ff.Error})
	}
	return out
}

func TestCPPDefinitionsOutsideTheClassBodyAreClassMethodsWithTheBodysRangeAndCalls(t *testing.T) {
	ffs := walkTree(t, "cpp-out-of-class", WalkOptions{})
	checkKindDefs(t, ffs, []kindDef{
		// The in-class declarations are declarations; each definition,
		// with its body, is the method, and the calls in the body are
		// its own.
		{"geo.cpp", [2]int{3, 5}, "geo.Shape.area", KindMethod, []string{"geo.cpp:32 main"}},
		{"geo.cpp", [2]int{7, 9}, "geo.Shape.~Shape", KindMethod, nil},
		{"geo.cpp", [2]int{11, 13}, "geo.Shape.operator==", KindMethod, nil},
		{"geo.cpp", [2]int{15, 17}, "geo.Shape.operator bool", KindMethod, nil},
		{"geo.cpp", [2]int{20, 22}, "Box.put", KindMethod, nil},
		{"geo.cpp", [2]int{25, 27}, "net.Conn.send", KindMethod, nil},
		// Nested in outer and qualified by inner::Box.
		{"geo.cpp", [2]int{36, 38}, "outer.inner.Box.size", KindMethod, nil},
		{"geo.hpp", [2]int{4, 4}, "geo.Shape.area", KindPrototype, []string{"geo.cpp:32 main"}},
		{"geo.hpp", [2]int{5, 5}, "geo.Shape.~Shape", KindPrototype, nil},
		{"geo.hpp", [2]int{6, 6}, "geo.Shape.operator==", KindPrototype, nil},
		{"geo.hpp", [2]int{7, 7}, "geo.Shape.operator bool", KindPrototype, nil},
	})
	var refs []string
	for _, ff := range ffs {
		for _, r := range ff.References {
			refs = append(refs, fmt.Sprintf("%s %d %s", r.Name, r.Range.StartLine, fullName(ff.Symbols[r.Enclosing])))
		}
	}
	want := []string{"helper 4 geo.Shape.area", "release 8 geo.Shape.~Shape", "same 12 geo.Shape.operator==",
		"valid 16 geo.Shape.operator bool", "store 21 Box.put", "write 26 net.Conn.send", "area 32 main", "helper 32 main",
		"count 37 outer.inner.Box.size"}
	if d := cmp.Diff(want, refs); d != "" {
		t.Errorf("calls and their callers (-want +got):\n%s", d)
	}
}

func TestHeadersOfCPPAreReadAsCPPAndTheDecisionIsRecorded(t *testing.T) {
	ffs := walkTree(t, "cpp-headers", WalkOptions{})
	want := []fileStatus{
		{"clib.h", LangC, "c", "content: no C++ constructs", StatusPartial, "syntax error: missing #endif at line 10 col 19"},
		{"json.h", LangCPP, "cpp", "content: C++ constructs (namespace, line 4)", StatusCurrent, ""},
		{"modeline.h", LangCPP, "cpp", "mode line C++", StatusCurrent, ""},
	}
	if d := cmp.Diff(want, fileStatuses(ffs)); d != "" {
		t.Errorf("language decisions (-want +got):\n%s", d)
	}
	// Restricted to C++, the C header is skipped as not ours, not an error.
	cpp := fileStatuses(walkTree(t, "cpp-headers", WalkOptions{Languages: []string{LangCPP}}))
	if len(cpp) != 3 || cpp[0].Status != StatusSkipped || cpp[0].Error != "not ours: c, not among the languages read" {
		t.Errorf("C++-only walk: %+v", cpp)
	}
	checkKindDefs(t, ffs, []kindDef{
		{"clib.h", [2]int{8, 8}, "norm", KindFunction, nil},
		{"json.h", [2]int{4, 14}, "json", KindModule, nil},
		{"json.h", [2]int{7, 10}, "json.value", KindClass, nil},
		{"json.h", [2]int{9, 9}, "json.value.get", KindMethod, nil},
		{"json.h", [2]int{12, 12}, "json.parse", KindFunction, []string{"json.h:9 json.value.get"}},
	})
}

func TestDefinitionsAreTellableFromPrototypesAndForwardDeclarations(t *testing.T) {
	ffs := walkTree(t, "c-declarations", WalkOptions{})
	for _, ff := range ffs {
		for _, s := range ff.Symbols {
			if s.Name == "depth" {
				t.Errorf("%s: local variable depth is a definition: %+v", ff.Provenance.Path, s)
			}
		}
	}
	checkKindDefs(t, ffs, []kindDef{
		{"conn.cpp", [2]int{1, 1}, "Conn", KindDeclaration, nil},
		{"conn.cpp", [2]int{3, 6}, "Conn", KindClass, nil},
		{"conn.cpp", [2]int{5, 5}, "Conn.open", KindPrototype, nil},
		{"conn.cpp", [2]int{8, 10}, "Conn.open", KindMethod, nil},
		{"parse.c", [2]int{3, 3}, "parse_value", KindPrototype, []string{"parse.c:9 parse"}},
		{"parse.c", [2]int{5, 10}, "parse", KindFunction, nil},
		// A variable in an #ifdef block at file scope is a definition;
		// `depth`, in one inside parse, is a local and is not.
		{"parse.c", [2]int{13, 13}, "trace_level", KindVariable, nil},
		{"parse.c", [2]int{16, 18}, "parse_value", KindFunction, []string{"parse.c:9 parse"}},
		{"parse.h", [2]int{1, 1}, "parse", KindPrototype, nil},
		{"parse.h", [2]int{2, 2}, "verbose", KindDeclaration, nil},
		{"parse.h", [2]int{3, 3}, "parse_fn", KindType, nil},
	})
}

func TestScriptsWithoutAnExtensionAreReadByTheirShebangOrModeLine(t *testing.T) {
	ffs := walkTree(t, "scripts", WalkOptions{})
	// README has neither a #! line nor a mode line: not a source file.
	want := []fileStatus{
		{"deploy", "", "", "#! bash", StatusSkipped, "no language: a bash script"},
		{"release", LangPython, "python", "#! python3", StatusCurrent, ""},
		{"serve", LangRuby, "ruby", "#! ruby", StatusCurrent, ""},
		{"tasks", LangRuby, "ruby", "mode line ruby", StatusCurrent, ""},
		{"watch", LangJavaScript, "javascript", "#! node", StatusCurrent, ""},
	}
	if d := cmp.Diff(want, fileStatuses(ffs)); d != "" {
		t.Errorf("language decisions (-want +got):\n%s", d)
	}
	checkKindDefs(t, ffs, []kindDef{
		{"release", [2]int{5, 7}, "bump", KindFunction, []string{"release:15 current"}},
		{"release", [2]int{10, 11}, "tag", KindFunction, []string{"release:7 bump"}},
		// A variable of the script's main block; `parts`, local to
		// bump, is not a definition.
		{"release", [2]int{15, 15}, "current", KindVariable, nil},
		{"serve", [2]int{2, 4}, "serve", KindMethod, nil},
		{"tasks", [2]int{2, 4}, "task_list", KindMethod, nil},
		{"watch", [2]int{2, 4}, "watch", KindFunction, nil},
	})
	for _, s := range ffs[1].Symbols {
		if s.Name == "parts" {
			t.Errorf("local variable parts is a definition: %+v", s)
		}
	}
	// Restricted to Python, the walk reads only the Python script.
	py := walkTree(t, "scripts", WalkOptions{Languages: []string{LangPython}})
	if len(py) != 1 || py[0].Provenance.Path != "release" {
		t.Errorf("Python-only walk: %v", fileStatuses(py))
	}
}

func TestJSClassFieldsAndMemberAssignmentsAreDefinitionsNamedByTheirReceiver(t *testing.T) {
	ffs := walkTree(t, "js-members", WalkOptions{})
	checkKindDefs(t, ffs, []kindDef{
		{"counter.js", [2]int{3, 5}, "Counter.onIncrement", KindMethod, nil},
		{"counter.js", [2]int{6, 8}, "Counter.#reset", KindMethod, nil},
		{"response.js", [2]int{3, 5}, "res.send", KindMethod, []string{"response.js:8 json"}},
		{"response.js", [2]int{7, 9}, "json", KindFunction, nil},
		{"response.js", [2]int{11, 13}, "status", KindFunction, nil},
		{"response.js", [2]int{15, 17}, "View.render", KindMethod, nil},
		{"response.js", [2]int{19, 21}, "createApplication", KindFunction, nil},
		{"toggle.ts", [2]int{2, 4}, "Toggle.onToggle", KindMethod, nil},
	})
	// One definition per member assignment: `function send` is not a
	// second send, and module.exports defines no "exports"; the calls in
	// the bodies belong to the members, not the class or the file.
	var got []string
	for _, ff := range ffs {
		for _, s := range ff.Symbols {
			got = append(got, ff.Provenance.Path+" "+fullName(s))
		}
		for _, r := range ff.References {
			if r.Enclosing >= 0 {
				got = append(got, fmt.Sprintf("  %s in %s", r.Name, fullName(ff.Symbols[r.Enclosing])))
			}
		}
	}
	want := []string{
		"counter.js Counter", "counter.js Counter.onIncrement", "counter.js Counter.#reset",
		"  bump in Counter.onIncrement", "  zero in Counter.#reset",
		"response.js res", "response.js res.send", "response.js json", "response.js status",
		"response.js View.render", "response.js createApplication",
		"  create in res", "  write in res.send", "  send in json", "  stringify in json", "  setStatus in status",
		"  lookup in View.render", "  init in createApplication",
		"toggle.ts Toggle", "toggle.ts Toggle.onToggle", "  flip in Toggle.onToggle",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("definitions and calls (-want +got):\n%s", d)
	}
}

func TestNamesKeepTheirLanguagesLegalCharacters(t *testing.T) {
	ffs := walkTree(t, "names", WalkOptions{})
	checkKindDefs(t, ffs, []kindDef{
		{"atoms.pl", [2]int{1, 1}, "foo-bar/1", KindPredicate, []string{"atoms.pl:3 run/0"}},
		{"dollar.js", [2]int{1, 3}, "$find", KindFunction, []string{"dollar.js:5 $el"}},
		{"dollar.js", [2]int{5, 5}, "$el", KindConstant, nil},
		{"req.rb", [2]int{2, 4}, "Request.bad_request?", KindMethod, []string{"req.rb:15 Request.check"}},
		{"req.rb", [2]int{6, 8}, "Request.cache!", KindMethod, []string{"req.rb:15 Request.check"}},
		{"req.rb", [2]int{10, 12}, "Request.name=", KindMethod, []string{"req.rb:16 Request.check"}},
		// attr_accessor defines the reader and the setter; alias_method
		// the new name.
		{"req.rb", [2]int{20, 20}, "Request.timeout", KindMethod, nil},
		{"req.rb", [2]int{20, 20}, "Request.timeout=", KindMethod, []string{"req.rb:17 Request.check"}},
		{"req.rb", [2]int{21, 21}, "Request.bad?", KindMethod, nil},
	})
}

func TestPerlFilesAreSkippedAsNotOursNotErrors(t *testing.T) {
	ffs := walkTree(t, "perl", WalkOptions{})
	want := []fileStatus{
		{"helpers.pl", "", "", "content: Perl", StatusSkipped, "not ours: a Perl script"},
		{"mksyscall.pl", "", "", "content: Perl", StatusSkipped, "not ours: a Perl script"},
		{"rules.pl", LangProlog, "prolog", "extension .pl", StatusCurrent, ""},
	}
	if d := cmp.Diff(want, fileStatuses(ffs)); d != "" {
		t.Errorf("statuses (-want +got):\n%s", d)
	}
	for _, ff := range ffs[:2] {
		if len(ff.Symbols)+len(ff.References)+len(ff.Imports) != 0 {
			t.Errorf("%s: a skipped file has facts", ff.Provenance.Path)
		}
	}
	checkKindDefs(t, ffs, []kindDef{{"rules.pl", [2]int{3, 3}, "allowed/1", KindPredicate, nil}})
}

func TestProFilesThatAreNotPrologAreSkippedAsNotOursNotErrors(t *testing.T) {
	ffs := walkTree(t, "pro", WalkOptions{})
	want := []fileStatus{
		{"app.pro", "", "", "content: qmake", StatusSkipped, "not ours: a qmake project file"},
		{"family.pro", LangProlog, "prolog", "extension .pro", StatusCurrent, ""},
		{"notes.pro", "", "", "content: # comment", StatusSkipped, "not ours: starts with a # comment, not Prolog"},
		{"r8.pro", "", "", "content: ProGuard", StatusSkipped, "not ours: a ProGuard configuration"},
	}
	if d := cmp.Diff(want, fileStatuses(ffs)); d != "" {
		t.Errorf("statuses (-want +got):\n%s", d)
	}
	for _, ff := range ffs {
		if ff.Status == StatusSkipped && len(ff.Symbols)+len(ff.References)+len(ff.Imports) != 0 {
			t.Errorf("%s: a skipped file has facts", ff.Provenance.Path)
		}
	}
	checkKindDefs(t, ffs, []kindDef{{"family.pro", [2]int{3, 4}, "ancestor/2", KindPredicate, nil}})
}

func TestLineNumbersHoldForEveryLineEndingWithOrWithoutAByteOrderMark(t *testing.T) {
	// Each source has its definitions' lines and its call's line; the
	// variants rewrite its "\n" line endings.
	sources := []struct {
		path, src string
		want      []kindDef
	}{
		{"a.go", "package a\n\n// A calls B.\nfunc A() {\n\tB()\n}\n\nfunc B() {}\n", []kindDef{
			{"a.go", [2]int{4, 6}, "A", KindFunction, nil},
			{"a.go", [2]int{8, 8}, "B", KindFunction, []string{"a.go:5 A"}},
		}},
		{"b.py", "import os\n\n\ndef a():\n    b()\n\n\ndef b():\n    pass\n", []kindDef{
			{"b.py", [2]int{4, 5}, "a", KindFunction, nil},
			{"b.py", [2]int{8, 9}, "b", KindFunction, []string{"b.py:5 a"}},
		}},
		{"c.c", "#include <stdio.h>\n\nint c(void) {\n    return d();\n}\n\nint d(void) { return 1; }\n", []kindDef{
			{"c.c", [2]int{3, 5}, "c", KindFunction, nil},
			{"c.c", [2]int{7, 7}, "d", KindFunction, []string{"c.c:4 c"}},
		}},
		{"e.rb", "# e\ndef e\n  f\nend\n\ndef f\nend\n", []kindDef{
			{"e.rb", [2]int{2, 4}, "e", KindMethod, nil},
			{"e.rb", [2]int{6, 7}, "f", KindMethod, []string{"e.rb:3 e"}},
		}},
		{"g.pl", "% g\ng :-\n    h.\n\nh.\n", []kindDef{
			{"g.pl", [2]int{2, 3}, "g/0", KindPredicate, nil},
			{"g.pl", [2]int{5, 5}, "h/0", KindPredicate, []string{"g.pl:3 g/0"}},
		}},
	}
	// mixed: the line endings cycle through "\n", "\r" and "\r\n" (in
	// this order: "\r" then "\n" would be one "\r\n").
	mixed := func(s string) string {
		var out []byte
		i := 0
		for _, c := range []byte(s) {
			if c != '\n' {
				out = append(out, c)
				continue
			}
			out = append(out, [][]byte{[]byte("\n"), []byte("\r"), []byte("\r\n")}[i%3]...)
			i++
		}
		return string(out)
	}
	variants := []struct {
		name string
		conv func(string) string
	}{
		{"LF", func(s string) string { return s }},
		{"CRLF", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }},
		{"CR", func(s string) string { return strings.ReplaceAll(s, "\n", "\r") }},
		{"mixed", mixed},
	}
	for _, v := range variants {
		for _, bom := range []string{"", "\uFEFF"} {
			name := v.name
			if bom != "" {
				name += " with BOM"
			}
			t.Run(name, func(t *testing.T) {
				root := t.TempDir()
				files := map[string]string{}
				var want []kindDef
				for _, s := range sources {
					files[s.path] = bom + v.conv(s.src)
					want = append(want, s.want...)
				}
				testfixture.WriteFiles(t, root, files)
				ffs := walkTree(t, root, WalkOptions{})
				for _, ff := range ffs {
					if ff.Status != StatusCurrent {
						t.Errorf("%s: %s %s", ff.Provenance.Path, ff.Status, ff.Error)
					}
				}
				checkKindDefs(t, ffs, want)
			})
		}
	}
}

func TestDetectDecidesByExtensionShebangModeLineAndContent(t *testing.T) {
	tests := []struct {
		path, src string
		want      Detection
	}{
		{"a.go", "package a\n", Detection{LangGo, "go", "extension .go", ""}},
		{"A.PY", "x = 1\n", Detection{LangPython, "python", "extension .py", ""}},
		{"tool", "#!/usr/bin/env python3.11\n", Detection{LangPython, "python", "#! python3.11", ""}},
		{"tool", "#! /usr/local/bin/ruby -w\n", Detection{LangRuby, "ruby", "#! ruby", ""}},
		{"tool", "\uFEFF#!/usr/bin/env -S node --harmony\n", Detection{LangJavaScript, "javascript", "#! node", ""}},
		{"tool", "#!/usr/bin/env swipl\n", Detection{LangProlog, "prolog", "#! swipl", ""}},
		{"tool", "#!/bin/sh\n", Detection{"", "", "#! sh", "no language: a sh script"}},
		{"tool", "#!/usr/bin/perl\n", Detection{"", "", "#! perl", "no language: a perl script"}},
		{"tool", "# -*- mode: python; coding: utf-8 -*-\n", Detection{LangPython, "python", "mode line python", ""}},
		{"tool", "// -*- C++ -*-\n", Detection{LangCPP, "cpp", "mode line C++", ""}},
		{"tool", "\n\n# vim: set ft=ruby ts=2:\n", Detection{LangRuby, "ruby", "mode line ruby", ""}},
		{"tool", "# -*- mode: sh -*-\n", Detection{"", "", "mode line sh", "no language: mode line sh"}},
		{"README", "# -*- coding: utf-8 -*-\nplain text\n", Detection{}},
		{"Makefile", "all:\n\tgo build\n", Detection{}},
		{"notes.md", "#!/usr/bin/env python3\n", Detection{}},
		// .h: C++ constructs outside comments, strings and preprocessor
		// lines make it C++; extern "C" and C words do not.
		{"a.h", "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(int class, int new);\n", Detection{LangC, "c", "content: no C++ constructs", ""}},
		{"a.h", "/* class Foo { public: }; namespace x */\n// template <T>\nconst char *s = \"a::b\";\nint x;\n", Detection{LangC, "c", "content: no C++ constructs", ""}},
		{"a.h", "#define NS(x) namespace x {\\\n  class y\nint z;\n", Detection{LangC, "c", "content: no C++ constructs", ""}},
		{"a.h", "int x;\r\r\nclass Foo {\n", Detection{LangCPP, "cpp", "content: C++ constructs (class, line 3)", ""}},
		{"a.h", "struct S {\n public:\n};\n", Detection{LangCPP, "cpp", "content: C++ constructs (public, line 2)", ""}},
		{"a.h", "int f(void);\nstd::string g();\n", Detection{LangCPP, "cpp", "content: C++ constructs (::, line 2)", ""}},
		{"a.h", "template<typename T> T max(T a);\n", Detection{LangCPP, "cpp", "content: C++ constructs (template, line 1)", ""}},
		{"a.h", "/* -*- mode: c -*- */\nclass Foo {};\n", Detection{LangC, "c", "mode line c", ""}},
		// .pl: Perl is skipped as not ours; Prolog is read.
		{"x.pl", "#!/usr/bin/env perl\n", Detection{"", "", "content: Perl", "not ours: a Perl script"}},
		{"x.pl", "# comment\nmy $x = 1;\n", Detection{"", "", "content: Perl", "not ours: a Perl script"}},
		{"x.pl", "package Foo::Bar;\n", Detection{"", "", "content: Perl", "not ours: a Perl script"}},
		{"x.pl", ":- module(m, []).\nuse(strict).\nmy(X) :- X.\n", Detection{LangProlog, "prolog", "extension .pl", ""}},
		// .pro: ProGuard, qmake and #-commented files are skipped as not
		// ours; Prolog, #! line included, is read.
		{"x.pro", "-keep class a.B { *; }\n", Detection{"", "", "content: ProGuard", "not ours: a ProGuard configuration"}},
		{"x.PRO", "\uFEFF  -dontwarn a.**\n", Detection{"", "", "content: ProGuard", "not ours: a ProGuard configuration"}},
		{"x.pro", "%% qmake\nQT += core\n", Detection{"", "", "content: qmake", "not ours: a qmake project file"}},
		{"x.pro", "\n\n#\nfoo\n", Detection{"", "", "content: # comment", "not ours: starts with a # comment, not Prolog"}},
		{"x.pro", "#!/usr/bin/env swipl\n:- initialization(main).\nmain.\n", Detection{LangProlog, "prolog", "extension .pro", ""}},
		{"x.pro", "p(X) :-\n    X #= 1,\n    - X < 0,\n    keep(X).\nqt(QT) :- QT = 1.\n", Detection{LangProlog, "prolog", "extension .pro", ""}},
		{"x.pl", "-keep class a.B\n", Detection{LangProlog, "prolog", "extension .pl", ""}},
	}
	for _, tt := range tests {
		if got := Detect(tt.path, []byte(tt.src)); got != tt.want {
			t.Errorf("Detect(%q, %q) = %+v, want %+v", tt.path, tt.src, got, tt.want)
		}
	}
}
