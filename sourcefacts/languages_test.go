package sourcefacts

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestExtractLanguages(t *testing.T) {
	e := newAllExtractor(t)
	for _, tt := range langCases {
		t.Run(tt.path, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(tt.path)))
			if err != nil {
				t.Fatal(err)
			}
			ff, err := e.Extract(context.Background(), tt.path, src)
			if err != nil {
				t.Fatal(err)
			}
			if tt.language != LangProlog {
				checkInvariants(t, ff, src)
			} else {
				checkPrologInvariants(t, ff, src)
			}
			if ff.Status != StatusCurrent || ff.Error != "" {
				t.Errorf("Status, Error = %q, %q; want current", ff.Status, ff.Error)
			}
			if ff.Language != tt.language || ff.Package != tt.pkg || ff.Test {
				t.Errorf("Language, Package, Test = %q, %q, %v; want %q, %q, false", ff.Language, ff.Package, ff.Test, tt.language, tt.pkg)
			}
			wantParser := "tree-sitter/0.25.0"
			if tt.language == LangProlog {
				wantParser = "ichiban-prolog/1.2.2"
			}
			wantProv := Provenance{Path: tt.path, Hash: HashBytes(src), Generation: 1, Parser: wantParser,
				Grammar: tt.grammar, GrammarVersion: tt.version, Extractor: ExtractorVersion,
				LanguageBy: "extension " + path.Ext(tt.path)}
			if diff := cmp.Diff(wantProv, ff.Provenance); diff != "" {
				t.Errorf("provenance (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.defs, defRows(ff)); diff != "" {
				t.Errorf("symbols (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.refs, langRefRows(ff)); diff != "" {
				t.Errorf("references (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.imports, importRows(ff)); diff != "" {
				t.Errorf("imports (-want +got):\n%s", diff)
			}
			byName := map[string]Symbol{}
			for _, s := range ff.Symbols {
				if _, dup := byName[fullName(s)]; !dup {
					byName[fullName(s)] = s
				}
			}
			for name, doc := range tt.docs {
				if s, ok := byName[name]; !ok || s.Doc != doc {
					t.Errorf("%s: Doc = %q, want %q", name, s.Doc, doc)
				}
			}
			for name, sig := range tt.sigs {
				if s, ok := byName[name]; !ok || s.Signature != sig {
					t.Errorf("%s: Signature = %q, want %q", name, s.Signature, sig)
				}
			}
		})
	}
}

// checkPrologInvariants is checkInvariants for Prolog facts, whose names
// are "name/arity" rather than the text they span.
func checkPrologInvariants(t *testing.T, ff *FileFacts, src []byte) {
	t.Helper()
	index := lineIndex(src)
	lineOf := func(off int) int { l, _ := index(off); return l }
	check := func(what string, r Range) {
		t.Helper()
		if r.StartByte < 0 || r.StartByte > r.EndByte || r.EndByte > len(src) {
			t.Errorf("%s: range %+v outside [0,%d]", what, r, len(src))
			return
		}
		if lineOf(r.StartByte) != r.StartLine || lineOf(r.EndByte) != r.EndLine {
			t.Errorf("%s: lines %d-%d, want %d-%d", what, r.StartLine, r.EndLine, lineOf(r.StartByte), lineOf(r.EndByte))
		}
	}
	indicator := regexp.MustCompile(`^.+/[0-9]+$`)
	for _, s := range ff.Symbols {
		check("symbol "+s.Name, s.Range)
		check("symbol name "+s.Name, s.NameRange)
		if !contains(s.Range, s.NameRange) || !indicator.MatchString(s.Name) || s.Kind != KindPredicate {
			t.Errorf("symbol %+v", s)
		}
		if name := s.Name[:strings.LastIndexByte(s.Name, '/')]; !strings.Contains(string(src[s.NameRange.StartByte:s.NameRange.EndByte]), strings.Trim(name, "'")) {
			t.Errorf("symbol %s: name range text %q", s.Name, src[s.NameRange.StartByte:s.NameRange.EndByte])
		}
	}
	for _, r := range ff.References {
		check("reference "+r.Name, r.Range)
		if !indicator.MatchString(r.Name) || r.Kind != RefCall {
			t.Errorf("reference %+v", r)
		}
		if r.Enclosing >= len(ff.Symbols) || r.Enclosing >= 0 && !contains(ff.Symbols[r.Enclosing].Range, r.Range) {
			t.Errorf("reference %s: Enclosing %d does not contain it", r.Name, r.Enclosing)
		}
	}
	for _, im := range ff.Imports {
		check("import "+im.Path, im.Range)
	}
}

func TestLanguageForPath(t *testing.T) {
	tests := []struct{ path, want string }{
		{"a.go", LangGo}, {"a/b.py", LangPython}, {"a.js", LangJavaScript}, {"a.mjs", LangJavaScript},
		{"a.cjs", LangJavaScript}, {"a.jsx", LangJavaScript}, {"a.ts", LangTypeScript}, {"a.tsx", LangTypeScript},
		{"a.rs", LangRust}, {"A.java", LangJava}, {"a.c", LangC}, {"a.h", LangC}, {"a.cc", LangCPP},
		{"a.cpp", LangCPP}, {"a.cxx", LangCPP}, {"a.hpp", LangCPP}, {"a.hh", LangCPP}, {"a.hxx", LangCPP},
		{"a.rb", LangRuby}, {"a.pl", LangProlog}, {"a.pro", LangProlog}, {"A.PY", LangPython},
		{"README.md", ""}, {"Makefile", ""}, {"a.go.txt", ""}, {".py", LangPython},
	}
	for _, tt := range tests {
		if got := LanguageForPath(tt.path); got != tt.want {
			t.Errorf("LanguageForPath(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
	if diff := cmp.Diff([]string{"c", "cpp", "go", "java", "javascript", "prolog", "python", "ruby", "rust", "typescript"}, Languages()); diff != "" {
		t.Errorf("Languages (-want +got):\n%s", diff)
	}
}

func TestIsTestFile(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"x_test.go", true}, {"x.go", false}, {"test.go", false},
		{"pkg/test_shapes.py", true}, {"shapes_test.py", true}, {"shapes.py", false}, {"testing.py", false},
		{"app.test.js", true}, {"app.spec.ts", true}, {"view.test.tsx", true}, {"app.js", false}, {"test.js", false},
		{"tests/it.rs", true}, {"crate/tests/a/b.rs", true}, {"src/lib.rs", false}, {"src/tests.rs", false},
		{"GreeterTest.java", true}, {"GreeterTests.java", true}, {"Greeter.java", false},
		{"util_test.c", true}, {"test_util.cpp", true}, {"util.c", false},
		{"greeter_spec.rb", true}, {"greeter_test.rb", true}, {"greeter.rb", false},
		{"rules_test.pl", true}, {"rules.pl", false},
		{"notes_test.md", false},
	}
	for _, tt := range tests {
		if got := IsTestFile(tt.path); got != tt.want {
			t.Errorf("IsTestFile(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
	// Test is set from the path.
	e := newAllExtractor(t)
	for _, p := range []string{"python/test_shapes.py", "javascript/app.test.js", "rust/tests/it.rs", "java/GreeterTest.java", "ruby/greeter_spec.rb"} {
		src, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		ff, err := e.Extract(context.Background(), p, src)
		if err != nil || !ff.Test || ff.Status != StatusCurrent {
			t.Errorf("%s: Test %v Status %q %v", p, ff.Test, ff.Status, err)
		}
	}
}

func TestNewExtractorLanguages(t *testing.T) {
	if _, err := NewExtractor("go", "klingon"); err == nil || !strings.Contains(err.Error(), "klingon") {
		t.Errorf("unknown language: %v", err)
	}
	e, err := NewExtractor(LangPython, LangProlog)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	tests := []struct {
		path     string
		language string
		status   string
		supports bool
	}{
		{"a.py", LangPython, StatusCurrent, true},
		{"a.pl", LangProlog, StatusCurrent, true},
		{"a.go", "", StatusError, false},
		{"README", "", StatusError, false},
	}
	for _, tt := range tests {
		ff, err := e.Extract(context.Background(), tt.path, []byte("x = 1\n"))
		if tt.language == LangProlog {
			ff, err = e.Extract(context.Background(), tt.path, []byte("x(1).\n"))
		}
		if err != nil {
			t.Fatal(err)
		}
		if ff.Language != tt.language || ff.Status != tt.status || e.Supports(tt.path) != tt.supports {
			t.Errorf("%s: Language %q Status %q %q Supports %v", tt.path, ff.Language, ff.Status, ff.Error, e.Supports(tt.path))
		}
		if tt.status == StatusError && (ff.Error != "unsupported language" || ff.Provenance.Grammar != "" || ff.Provenance.Hash != HashBytes([]byte("x = 1\n"))) {
			t.Errorf("%s: %+v", tt.path, ff)
		}
	}
	if v := e.GrammarVersionFor("python"); v != "v0.25.0" {
		t.Errorf("GrammarVersionFor(python) = %q", v)
	}
	if v := e.GrammarVersionFor("go"); v != "" {
		t.Errorf("GrammarVersionFor(go) = %q, want empty", v)
	}
	// NewGoExtractor reads every path as Go.
	g := newTestExtractor(t)
	ff, err := g.Extract(context.Background(), "x.py", []byte("package p\nfunc F() {}\n"))
	if err != nil || ff.Language != LangGo || ff.Status != StatusCurrent || len(ff.Symbols) != 1 {
		t.Errorf("NewGoExtractor on x.py: %v %+v", err, ff)
	}
	if err := LoadGrammars(); err != nil {
		t.Errorf("LoadGrammars: %v", err)
	}
}

// TestFallbackVersions keeps the grammar versions stamped when the binary
// carries no module information (as in tests) equal to go.mod's.
func TestFallbackVersions(t *testing.T) {
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	required := func(module string) string {
		m := regexp.MustCompile(`(?m)^\s*(?:require\s+)?` + regexp.QuoteMeta(module) + `\s+(\S+)`).FindSubmatch(gomod)
		if m == nil {
			t.Errorf("go.mod does not require %s", module)
			return ""
		}
		return string(m[1])
	}
	for name, spec := range grammarSpecs {
		if v := required(spec.module); v != spec.fallbackVersion {
			t.Errorf("%s: fallback version %s, go.mod has %s", name, spec.fallbackVersion, v)
		}
	}
	if v := required(treeSitterModule); v != "v"+fallbackParserVersion {
		t.Errorf("tree-sitter fallback %s, go.mod has %s", fallbackParserVersion, v)
	}
	if v := required(prologModule); v != fallbackPrologVersion {
		t.Errorf("prolog fallback %s, go.mod has %s", fallbackPrologVersion, v)
	}
}

// TestExtractHostile feeds every language inputs that must neither crash
// nor hang the extractor: each must come back within its bound with a
// status and facts that satisfy the invariants. The 10 MB lines are one
// statement with a 1 KB string repeated (some 10,000 facts on one line: a
// cost per fact linear in the line length would show), and for JavaScript
// also dense minified code (some 580,000 functions). Nested and unclosed
// inputs run under a 2 s parse budget, which they exhaust. The bounds are
// generous multiples of what this project's loaded 2-core machine measured:
// binary and invalid UTF-8 at most 0.16 s (bound 5 s), 10 MB lines at most
// 0.73 s (bound 10 s), the 2 s budget at most 2.5 s (bound 10 s), minified
// JavaScript 18 s (bound 90 s, or 30 times the first megabyte's time in
// the same run when the machine is loaded).
func TestExtractHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	e := newAllExtractor(t)
	tight := newAllExtractor(t)
	tight.SetParseTimeout(2 * time.Second)
	exts := map[string]string{
		LangGo: "go", LangPython: "py", LangJavaScript: "js", "tsx": "tsx", LangTypeScript: "ts", LangRust: "rs",
		LangJava: "java", LangC: "c", LangCPP: "cpp", LangRuby: "rb", LangProlog: "pl",
	}
	// Per-language text of one statement around a %s payload, repeated to
	// fill 10 MB on one line, and an opener/closer pair nested 50,000 deep.
	stmt := map[string]string{
		"go": `func f(){g("%s")};`, "py": `f(g("%s"));`, "js": `function f(){g("%s")};`, "tsx": `function f(){g("%s",<A/>)};`,
		"ts": `function f(x:T){g("%s")};`, "rs": `fn f(){g("%s")}`, "java": `class A{void f(){g("%s");}}`,
		"c": `int f(){g("%s");}`, "cpp": `int f(){g("%s");}`, "rb": `def f;g("%s");end;`, "pl": `f:-g('%s').`,
	}
	nest := map[string][2]string{
		"go": {"var x = f(", ")"}, "py": {"x = f(", ")"}, "js": {"x = f(", ")"}, "tsx": {"x = f(", ")"},
		"ts": {"x = f(", ")"}, "rs": {"fn f(){ g(", ")}"}, "java": {"class A{int x = f(", ")}"},
		"c": {"int x = f(", ")"}, "cpp": {"int x = f(", ")"}, "rb": {"x = f(", ")"}, "pl": {"a :- f(", ")"},
	}
	const deep = 50000
	oneLine := func(s string) []byte {
		b := make([]byte, 0, 10<<20+len(s))
		for len(b) < 10<<20 {
			b = append(b, s...)
		}
		return b
	}
	payload := strings.Repeat("x", 1000)
	for lang, ext := range exts {
		p := "hostile." + ext
		one := func(s string) string { return strings.Replace(s, "%s", payload, 1) }
		type input struct {
			name  string
			ex    *Extractor
			src   []byte
			bound time.Duration
		}
		inputs := []input{
			{"binary", e, []byte("\x7fELF\x02\x01\x01\x00\x00\x00" + strings.Repeat("\x00\xff", 1000)), 5 * time.Second},
			{"invalid UTF-8", e, []byte("\xff\xfe\xfd f(\xc3\x28) \xe2\x82 x = '\xff'\n" + one(stmt[ext]) + "\n\x80\n"), 5 * time.Second},
			{"10MB one line", e, oneLine(one(stmt[ext])), 10 * time.Second},
			{"50k deep", tight, []byte(nest[ext][0] + strings.Repeat("f(", deep) + "1" + strings.Repeat(")", deep) + nest[ext][1] + "\n"), 10 * time.Second},
			{"50k unclosed", tight, []byte(nest[ext][0] + strings.Repeat("(", deep) + "\n"), 10 * time.Second},
		}
		if ext == "js" {
			// The bound is relative to this run: 30 times what the first
			// megabyte of the same code takes (linear work is 10 times;
			// a cost quadratic in the line is 100), and at least 90 s.
			mini := oneLine("function f(){g()};")
			start := time.Now()
			if _, err := e.Extract(context.Background(), p, mini[:1<<20]); err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, input{"10MB minified", e, mini, max(90*time.Second, 30*time.Since(start))})
		}
		for _, in := range inputs {
			t.Run(lang+"/"+in.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 2*in.bound)
				defer cancel()
				start := time.Now()
				ff, err := in.ex.Extract(ctx, p, in.src)
				elapsed := time.Since(start)
				if err != nil {
					t.Fatalf("Extract: %v (after %v)", err, elapsed)
				}
				t.Logf("%v: %s %.60q, %d symbols, %d references", elapsed.Round(time.Millisecond), ff.Status, ff.Error, len(ff.Symbols), len(ff.References))
				if elapsed > in.bound {
					t.Errorf("took %v, over its bound of %v", elapsed.Round(time.Millisecond), in.bound)
				}
				if ff.Status == "" || ff.Status != StatusCurrent && ff.Error == "" {
					t.Errorf("Status %q Error %q", ff.Status, ff.Error)
				}
				if in.name == "binary" && (ff.Status != StatusError || ff.Error != "binary file") {
					t.Errorf("binary: %q %q", ff.Status, ff.Error)
				}
				if ff.Provenance.Hash != HashBytes(in.src) {
					t.Errorf("hash %v", ff.Provenance.Hash)
				}
				if ext == "pl" {
					checkPrologInvariants(t, ff, in.src)
				} else {
					checkInvariants(t, ff, in.src)
				}
			})
		}
	}
}

func TestExtractPrologStatus(t *testing.T) {
	e := newAllExtractor(t)
	read := func(p string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name, path string
		src        []byte
		status     string
		errPrefix  string
		defs       []defRow
		refs       []langRefRow
	}{
		{
			// The directives would halt the process or run main if run:
			// the test process survives, and their goals are references.
			name: "initialization(halt) is not run", path: "prolog/boot.pl", src: read("prolog/boot.pl"),
			status: StatusCurrent,
			defs:   []defRow{{KindPredicate, "", "", "main/0", [2]int{4, 6}, 4}},
			refs: []langRefRow{
				{RefCall, "", "initialization/1", 1, "-"},
				{RefCall, "", "halt/0", 1, "-"},
				{RefCall, "", "initialization/2", 2, "-"},
				{RefCall, "", "main/0", 2, "-"},
				{RefCall, "", "format/1", 5, "main/0"},
				{RefCall, "", "halt/1", 6, "main/0"},
			},
		},
		{
			name: "syntax error mid-file", path: "prolog/broken.pl", src: read("prolog/broken.pl"),
			status: StatusPartial, errPrefix: "syntax error at line 3 col 7: unexpected \":-\"",
			defs: []defRow{{KindPredicate, "", "", "ok/1", [2]int{1, 2}, 1}, {KindPredicate, "", "", "after/1", [2]int{4, 4}, 4}},
			refs: []langRefRow{{RefCall, "", "fine/0", 2, "ok/1"}},
		},
		{
			name: "syntax error first", path: "first.pl", src: []byte("bad(.\nok(1).\n"),
			status: StatusPartial, errPrefix: "syntax error at line 1 col 4: unbalanced \"(\"",
			defs: []defRow{{KindPredicate, "", "", "ok/1", [2]int{2, 2}, 2}},
		},
		{
			name: "nothing readable", path: "none.pl", src: []byte("bad(.\nworse(.\n"),
			status: StatusError, errPrefix: "syntax error at line 1 col 4: unbalanced \"(\"",
		},
		{
			name: "declarations written as SWI-Prolog writes them", path: "dyn.pl", src: []byte(":- dynamic counter/1.\ncounter(0).\n:- discontiguous step/1.\nstep(a).\n"),
			status: StatusCurrent, defs: []defRow{{KindPredicate, "", "", "counter/1", [2]int{2, 2}, 2}, {KindPredicate, "", "", "step/1", [2]int{4, 4}, 4}},
		},
		{
			name: "swipl script", path: "run.pl", src: []byte("#!/usr/bin/env swipl\nmain :- true.\n"),
			status: StatusCurrent, defs: []defRow{{KindPredicate, "", "", "main/0", [2]int{2, 2}, 2}},
			refs: []langRefRow{{RefCall, "", "true/0", 2, "main/0"}},
		},
		{
			name: "test file", path: "rules_test.pl", src: read("prolog/rules_test.pl"),
			status: StatusCurrent, defs: []defRow{{KindPredicate, "", "", "test/1", [2]int{1, 1}, 1}},
			refs: []langRefRow{{RefCall, "shapes", "area/2", 1, "test/1"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ff, err := e.Extract(context.Background(), tt.path, tt.src)
			if err != nil {
				t.Fatal(err)
			}
			checkPrologInvariants(t, ff, tt.src)
			if ff.Status != tt.status || !strings.HasPrefix(ff.Error, tt.errPrefix) {
				t.Errorf("Status, Error = %q, %q; want %q, %q...", ff.Status, ff.Error, tt.status, tt.errPrefix)
			}
			if diff := cmp.Diff(tt.defs, defRows(ff)); diff != "" {
				t.Errorf("symbols (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.refs, langRefRows(ff)); diff != "" {
				t.Errorf("references (-want +got):\n%s", diff)
			}
			if ff.Language != LangProlog || ff.Test != strings.HasSuffix(tt.path, "_test.pl") {
				t.Errorf("Language %q Test %v", ff.Language, ff.Test)
			}
		})
	}
}

// TestExtractConcurrentLanguages extracts every fixture from many
// goroutines through two Extractors (which share the compiled grammars)
// and expects the same facts as one at a time.
func TestExtractConcurrentLanguages(t *testing.T) {
	e1, e2 := newAllExtractor(t), newAllExtractor(t)
	type fixture struct {
		path string
		src  []byte
		want *FileFacts
	}
	var fixtures []fixture
	for _, tt := range langCases {
		src, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(tt.path)))
		if err != nil {
			t.Fatal(err)
		}
		want, err := e1.Extract(context.Background(), tt.path, src)
		if err != nil {
			t.Fatal(err)
		}
		fixtures = append(fixtures, fixture{tt.path, src, want})
	}
	errs := make(chan string, 64)
	done := make(chan struct{})
	for g := 0; g < 8; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			e := e1
			if g%2 == 1 {
				e = e2
			}
			for i := 0; i < 3; i++ {
				for j := range fixtures {
					f := fixtures[(j+g)%len(fixtures)]
					got, err := e.Extract(context.Background(), f.path, f.src)
					if err != nil {
						errs <- err.Error()
						return
					}
					if diff := cmp.Diff(f.want, got); diff != "" {
						errs <- f.path + ": " + diff
						return
					}
				}
			}
		}()
	}
	for g := 0; g < 8; g++ {
		<-done
	}
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
}
