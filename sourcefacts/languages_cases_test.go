// The per-language fixtures under testdata/ and the facts each
// must yield.

package sourcefacts

import (
	"testing"
)

func newAllExtractor(t testing.TB) *Extractor {
	t.Helper()
	e, err := NewExtractor()
	if err != nil {
		t.Fatalf("NewExtractor: %v", err)
	}
	t.Cleanup(e.Close)
	return e
}

// defRow is the part of a Symbol the language tables compare.
type defRow struct {
	Kind, Receiver, Container, Name string
	Lines                           [2]int // Range start and end line
	NameLine                        int
}

// langRefRow is the part of a Reference the language tables compare;
// Enclosing is the enclosing symbol's full name, or "-".
type langRefRow struct {
	Kind, Receiver, Name string
	Line                 int
	Enclosing            string
}

type importRow struct {
	Path, Alias string
	Line        int
}

func defRows(ff *FileFacts) []defRow {
	var rows []defRow
	for _, s := range ff.Symbols {
		rows = append(rows, defRow{s.Kind, s.Receiver, s.Container, s.Name,
			[2]int{s.Range.StartLine, s.Range.EndLine}, s.NameRange.StartLine})
	}
	return rows
}

func langRefRows(ff *FileFacts) []langRefRow {
	var rows []langRefRow
	for _, r := range ff.References {
		enc := "-"
		if r.Enclosing >= 0 {
			enc = fullName(ff.Symbols[r.Enclosing])
		}
		rows = append(rows, langRefRow{r.Kind, r.Receiver, r.Name, r.Range.StartLine, enc})
	}
	return rows
}

func importRows(ff *FileFacts) []importRow {
	var rows []importRow
	for _, im := range ff.Imports {
		rows = append(rows, importRow{im.Path, im.Alias, im.Range.StartLine})
	}
	return rows
}

// langCase is one fixture under testdata/<lang>/ and the exact facts it
// must give.
type langCase struct {
	path     string // relative to testdata
	language string
	grammar  string
	version  string // Provenance.GrammarVersion
	pkg      string
	defs     []defRow
	refs     []langRefRow
	imports  []importRow
	docs     map[string]string // full name -> Doc
	sigs     map[string]string // full name -> Signature
}

var langCases = []langCase{
	{
		path: "python/shapes.py", language: LangPython, grammar: "python", version: "v0.25.0",
		defs: []defRow{
			{KindConstant, "", "", "LIMIT", [2]int{9, 9}, 9},
			{KindClass, "", "", "Shape", [2]int{13, 30}, 13},
			{KindField, "", "Shape", "sides", [2]int{16, 16}, 16}, // a class attribute
			{KindMethod, "Shape", "", "area", [2]int{18, 20}, 18},
			{KindMethod, "Shape", "", "make", [2]int{23, 26}, 23},
			{KindFunction, "", "Shape.make", "inner", [2]int{24, 25}, 24},
			{KindClass, "", "Shape", "Inner", [2]int{28, 30}, 28},
			{KindMethod, "Inner", "Shape", "deep", [2]int{29, 30}, 29},
			{KindFunction, "", "", "main", [2]int{33, 35}, 33},
		},
		refs: []langRefRow{
			{RefClass, "", "Base", 13, "Shape"},
			{RefCall, "", "helper", 20, "Shape.area"},
			{RefCall, "", "len", 20, "Shape.area"},
			{RefCall, "", "T", 25, "Shape.make.inner"},
			{RefCall, "", "inner", 26, "Shape.make"},
			{RefCall, "", "Shape", 34, "main"},
			{RefCall, "", "print", 35, "main"},
			{RefCall, "s", "area", 35, "main"},
			{RefCall, "osp", "join", 35, "main"},
		},
		imports: []importRow{
			{"os", "", 2},
			{"os.path", "osp", 3},
			{"sys", "", 3},
			{"collections.OrderedDict", "", 4},
			{".util.helper", "", 5},
			{".util.Tool", "T", 5},
			{"..parent", "", 6},
			{"x.*", "", 7},
		},
		docs: map[string]string{"Shape": "A shape.", "Shape.area": "Area of the shape.", "main": ""},
		sigs: map[string]string{"Shape": "class Shape(Base)", "Shape.area": "def area(self)", "LIMIT": "LIMIT = 10"},
	},
	{
		path: "javascript/app.js", language: LangJavaScript, grammar: "javascript", version: "v0.25.0",
		defs: []defRow{
			{KindConstant, "", "", "util", [2]int{5, 5}, 5}, // a module-level constant
			{KindClass, "", "", "Greeter", [2]int{9, 19}, 9},
			{KindMethod, "Greeter", "", "greet", [2]int{16, 18}, 16},
			{KindFunction, "", "", "main", [2]int{21, 24}, 21},
			{KindFunction, "", "", "arrow", [2]int{26, 26}, 26},
		},
		refs: []langRefRow{
			{RefCall, "require('dotenv')", "config", 6, "-"},
			{RefClass, "", "Base", 9, "Greeter"},
			{RefCall, "", "format", 17, "Greeter.greet"},
			{RefCall, "path", "join", 17, "Greeter.greet"},
			{RefClass, "", "Greeter", 22, "main"},
			{RefCall, "g", "greet", 23, "main"},
		},
		imports: []importRow{
			{"fs", "fs", 1},
			{"path", "path", 2},
			{"./lib.js", "", 3},
			{"./side-effect.js", "", 4},
			{"util", "util", 5},
			{"dotenv", "", 6},
		},
		docs: map[string]string{"Greeter": "Greeter says hello.", "Greeter.greet": "greet returns a greeting."},
		sigs: map[string]string{"Greeter": "class Greeter extends Base", "main": "function main()"},
	},
	{
		path: "typescript/service.ts", language: LangTypeScript, grammar: "typescript", version: "v0.23.2",
		defs: []defRow{
			{KindInterface, "", "", "Store", [2]int{4, 6}, 4},
			{KindMethod, "Store", "", "get", [2]int{5, 5}, 5},
			{KindClass, "", "", "Service", [2]int{8, 14}, 8},
			{KindMethod, "Service", "", "get", [2]int{11, 13}, 11},
			{KindFunction, "", "", "fetchValue", [2]int{16, 18}, 16},
			{KindModule, "", "", "Util", [2]int{20, 22}, 20},
			{KindFunction, "", "Util", "id", [2]int{21, 21}, 21},
			{KindType, "", "", "Alias", [2]int{24, 24}, 24},
		},
		refs: []langRefRow{
			{RefImplementation, "", "Store", 8, "Service"},
			{RefClass, "", "Map", 9, "Service"},
			{RefCall, "this.cache", "get", 12, "Service.get"},
			{RefCall, "", "fetchValue", 12, "Service.get"},
			{RefCall, "key", "toUpperCase", 17, "fetchValue"},
			{RefType, "", "T", 21, "Util.id"},
			{RefType, "", "T", 21, "Util.id"},
		},
		imports: []importRow{
			{"@angular/core", "", 1},
			{"./config", "", 2},
		},
		sigs: map[string]string{"Service.get": "get(key: string): string"},
	},
	{
		path: "typescript/view.tsx", language: LangTypeScript, grammar: "tsx", version: "v0.23.2",
		defs: []defRow{
			{KindInterface, "", "", "Props", [2]int{3, 5}, 3},
			{KindFunction, "", "", "View", [2]int{7, 9}, 7},
			{KindClass, "", "", "Panel", [2]int{11, 15}, 11},
			{KindMethod, "Panel", "", "render", [2]int{12, 14}, 12},
		},
		refs: []langRefRow{
			{RefType, "", "Props", 7, "View"},
			{RefCall, "", "format", 8, "View"},
			{RefClass, "React", "Component", 11, "Panel"},
			{RefCall, "", "View", 13, "Panel.render"}, // <View />
		},
		imports: []importRow{{"react", "React", 1}},
	},
	{
		path: "rust/lib.rs", language: LangRust, grammar: "rust", version: "v0.24.0",
		defs: []defRow{
			{KindInterface, "", "", "Shape", [2]int{7, 9}, 7},
			{KindMethod, "Shape", "", "area", [2]int{8, 8}, 8},
			{KindStruct, "", "", "Point", [2]int{13, 15}, 13},
			{KindField, "", "Point", "x", [2]int{14, 14}, 14},
			{KindEnum, "", "", "Kind", [2]int{17, 20}, 17},
			{KindConstant, "", "Kind", "A", [2]int{18, 18}, 18},
			{KindConstant, "", "Kind", "B", [2]int{19, 19}, 19},
			{KindMethod, "Point", "", "new", [2]int{24, 26}, 24},
			{KindMethod, "Point", "", "area", [2]int{30, 32}, 30},
			{KindModule, "", "", "inner", [2]int{35, 40}, 35},
			{KindFunction, "", "inner", "helper", [2]int{36, 39}, 36},
			{KindMacro, "", "", "square", [2]int{42, 46}, 42},
			{KindType, "", "", "Map", [2]int{48, 48}, 48},
			{KindConstant, "", "", "MAX", [2]int{50, 50}, 50},
		},
		refs: []langRefRow{
			{RefImplementation, "", "Point", 22, "-"},
			{RefCall, "", "helper", 25, "Point.new"},
			{RefImplementation, "", "Shape", 29, "-"},
			{RefCall, "self.x", "abs", 31, "Point.area"},
			{RefCall, "HashMap::<u8, u8>", "new", 31, "Point.area"},
			{RefCall, "HashMap::<u8, u8>::new()", "len", 31, "Point.area"},
			{RefCall, "", "println", 37, "inner.helper"},
		},
		imports: []importRow{
			{"std::collections::HashMap", "", 2},
			{"std::io", "", 3},
			{"std::io::Read", "R", 3},
			{"crate::util::*", "", 4},
		},
		docs: map[string]string{"Shape": "Shape is a trait.", "Point": "A point.", "Point.new": "new makes a point."},
		sigs: map[string]string{"Point.new": "pub fn new(x: f64) -> Self", "Shape.area": "fn area(&self) -> f64;"},
	},
	{
		path: "java/Greeter.java", language: LangJava, grammar: "java", version: "v0.23.5", pkg: "com.example.app",
		defs: []defRow{
			{KindClass, "", "", "Greeter", [2]int{10, 29}, 10},
			{KindField, "", "Greeter", "name", [2]int{11, 11}, 11},
			{KindMethod, "Greeter", "", "Greeter", [2]int{13, 15}, 13},
			{KindMethod, "Greeter", "", "run", [2]int{18, 22}, 19},
			{KindInterface, "", "Greeter", "Listener", [2]int{24, 26}, 24},
			{KindMethod, "Listener", "Greeter", "onGreet", [2]int{25, 25}, 25},
			{KindEnum, "", "Greeter", "Mood", [2]int{28, 28}, 28},
			{KindConstant, "", "Greeter.Mood", "HAPPY", [2]int{28, 28}, 28},
			{KindConstant, "", "Greeter.Mood", "SAD", [2]int{28, 28}, 28},
		},
		refs: []langRefRow{
			{RefClass, "", "Base", 10, "Greeter"},
			{RefImplementation, "", "Runnable", 10, "Greeter"},
			{RefCall, "System.out", "println", 20, "Greeter.run"},
			{RefCall, "", "format", 20, "Greeter.run"},
			{RefCall, "", "helper", 21, "Greeter.run"},
		},
		imports: []importRow{
			{"java.util.List", "", 3},
			{"java.util.*", "", 4},
			{"java.lang.Math.max", "", 5},
		},
		docs: map[string]string{"Greeter": "Greeter greets.", "Greeter.run": "Run greets."},
		sigs: map[string]string{"Greeter.run": "@Override public void run()"},
	},
	{
		path: "c/util.c", language: LangC, grammar: "c", version: "v0.24.1",
		defs: []defRow{
			{KindMacro, "", "", "MAX", [2]int{4, 4}, 4},
			{KindMacro, "", "", "LIMIT", [2]int{5, 5}, 5},
			{KindStruct, "", "", "point", [2]int{8, 10}, 8},
			{KindField, "", "point", "x", [2]int{9, 9}, 9},
			{KindType, "", "", "point_t", [2]int{12, 12}, 12},
			{KindEnum, "", "", "color", [2]int{14, 14}, 14},
			{KindConstant, "", "color", "RED", [2]int{14, 14}, 14},
			{KindConstant, "", "color", "GREEN", [2]int{14, 14}, 14},
			{KindPrototype, "", "", "helper", [2]int{16, 16}, 16}, // a declaration, not the definition
			{KindFunction, "", "", "area", [2]int{19, 22}, 19},
			{KindFunction, "", "", "make", [2]int{24, 27}, 24},
		},
		refs: []langRefRow{
			{RefCall, "", "helper", 21, "area"},
			{RefCall, "", "MAX", 21, "area"},
			{RefCall, "", "printf", 25, "make"},
			{RefCall, "", "area", 25, "make"},
		},
		imports: []importRow{{"stdio.h", "", 1}, {"util.h", "", 2}},
		docs:    map[string]string{"point": "A point.", "area": "area computes."},
		sigs:    map[string]string{"area": "static int area(const struct point *p)", "make": "int *make(void)"},
	},
	{
		path: "cpp/shape.cpp", language: LangCPP, grammar: "cpp", version: "v0.23.4",
		defs: []defRow{
			{KindModule, "", "", "geo", [2]int{4, 26}, 4},
			{KindClass, "", "geo", "Shape", [2]int{7, 11}, 7},
			{KindPrototype, "Shape", "geo", "area", [2]int{9, 9}, 9}, // pure virtual: declared only
			{KindMethod, "Shape", "geo", "sides", [2]int{10, 10}, 10},
			{KindStruct, "", "geo", "Square", [2]int{13, 15}, 13},
			{KindPrototype, "Square", "geo", "area", [2]int{14, 14}, 14}, // defined below
			{KindMethod, "Square", "geo", "area", [2]int{17, 19}, 17},    // Square::area
			{KindFunction, "", "geo", "twice", [2]int{22, 24}, 22},
			{KindFunction, "", "", "main", [2]int{28, 32}, 28},
		},
		refs: []langRefRow{
			{RefCall, "", "count", 10, "geo.Shape.sides"},
			{RefClass, "", "Shape", 13, "geo.Square"},
			{RefCall, "std", "max", 18, "geo.Square.area"},
			{RefCall, "", "helper", 18, "geo.Square.area"},
			{RefCall, "std", "make_unique", 30, "main"},
			{RefCall, "s", "area", 31, "main"},
			{RefCall, "", "twice", 31, "main"},
		},
		imports: []importRow{{"vector", "", 1}, {"shape.hpp", "", 2}},
		docs:    map[string]string{"geo.Shape": "Shape is abstract."},
	},
	{
		path: "ruby/greeter.rb", language: LangRuby, grammar: "ruby", version: "v0.23.1",
		defs: []defRow{
			{KindModule, "", "", "Outer", [2]int{5, 24}, 5},
			{KindClass, "", "Outer", "Greeter", [2]int{7, 23}, 7},
			{KindMethod, "Greeter", "Outer", "initialize", [2]int{8, 10}, 8},
			{KindMethod, "Greeter", "Outer", "greet", [2]int{13, 18}, 13},
			{KindMethod, "Greeter", "Outer", "build", [2]int{20, 22}, 20},
			{KindMethod, "", "", "top_level", [2]int{26, 28}, 26},
		},
		refs: []langRefRow{
			{RefCall, "", "require", 1, "-"},
			{RefCall, "", "require_relative", 2, "-"},
			{RefType, "", "Base", 7, "Outer.Greeter"},
			{RefCall, "", "puts", 15, "Outer.Greeter.greet"},
			{RefCall, "", "format", 15, "Outer.Greeter.greet"},
			// `count` and `other` are local variables, not calls.
			{RefCall, "", "helper_call", 16, "Outer.Greeter.greet"},
			{RefCall, "other", "size", 17, "Outer.Greeter.greet"},
			{RefCall, "", "new", 21, "Outer.Greeter.build"},
			{RefType, "", "Outer", 27, "top_level"},
			{RefType, "", "Greeter", 27, "top_level"},
			{RefCall, "Outer::Greeter", "build", 27, "top_level"},
			{RefCall, "Outer::Greeter.build", "greet", 27, "top_level"},
		},
		imports: []importRow{{"json", "", 1}, {"./lib/helper", "", 2}},
		docs:    map[string]string{"Outer": "Outer namespace.", "Outer.Greeter": "Greeter greets.", "Outer.Greeter.greet": "greet says hello."},
		sigs:    map[string]string{"Outer": "module Outer", "Outer.Greeter": "class Greeter < Base", "Outer.Greeter.greet": "def greet(other)"},
	},
	{
		path: "prolog/shapes.pl", language: LangProlog, grammar: "prolog", version: "v1.2.2", pkg: "shapes",
		defs: []defRow{
			{KindPredicate, "", "", "area/2", [2]int{10, 23}, 10},
			{KindPredicate, "", "", "describe/3", [2]int{27, 27}, 27},
			{KindPredicate, "", "", "name/3", [2]int{29, 29}, 29},
			{KindPredicate, "", "", "quoted name/3", [2]int{31, 31}, 31},
		},
		refs: []langRefRow{
			{RefCall, "", "is/2", 11, "area/2"},
			{RefCall, "", ">/2", 13, "area/2"},
			{RefCall, "", "log/1", 14, "area/2"},
			{RefCall, "", `\+/1`, 15, "area/2"},
			{RefCall, "", "small/1", 15, "area/2"},
			{RefCall, "", "true/0", 16, "area/2"},
			{RefCall, "", "findall/3", 18, "area/2"},
			{RefCall, "", "member/2", 18, "area/2"},
			{RefCall, "", "forall/2", 19, "area/2"},
			{RefCall, "", "member/2", 19, "area/2"},
			{RefCall, "", "check/1", 19, "area/2"},
			{RefCall, "lists", "append/3", 20, "area/2"},
			{RefCall, "", "maplist/3", 21, "area/2"},
			{RefCall, "", "double/2", 21, "area/2"},
			{RefCall, "", "catch/3", 22, "area/2"},
			{RefCall, "", "risky/1", 22, "area/2"},
			{RefCall, "", "recover/0", 22, "area/2"},
			{RefCall, "", "is/2", 23, "area/2"},
			{RefCall, "", "name/3", 27, "describe/3"},
			{RefCall, "", "atom/1", 27, "describe/3"},
			{RefCall, "", "halt_not_called/0", 31, "quoted name/3"},
		},
		imports: []importRow{
			{"library(lists)", "", 4},
			{"library(apply)", "", 5},
			{"util/helpers", "", 6},
		},
		docs: map[string]string{
			"area/2":     "area(+Shape, -Area) is det.\nArea of a shape.",
			"describe/3": "describe(+Shape)// is det.\nWords for a shape.",
		},
		sigs: map[string]string{"area/2": "area(square(S), A)", "quoted name/3": `'quoted name'(0'., 'it''s', "a.b")`},
	},
}
