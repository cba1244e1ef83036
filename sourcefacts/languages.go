package sourcefacts

import (
	"path"
	"slices"
	"strings"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsrb "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrs "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// Languages: the values of FileFacts.Language, and the names
// NewExtractor and WalkOptions.Languages accept.
const (
	LangGo         = "go"
	LangPython     = "python"
	LangJavaScript = "javascript" // .js .mjs .cjs .jsx
	LangTypeScript = "typescript" // .ts, and .tsx (Provenance.Grammar "tsx")
	LangRust       = "rust"
	LangJava       = "java"
	LangC          = "c"   // .c .h
	LangCPP        = "cpp" // .cc .cpp .cxx .hpp .hh .hxx
	LangRuby       = "ruby"
	LangProlog     = "prolog" // .pl .pro, read by package prologsrc
)

// extGrammar maps a file extension (lower case) to its grammar name.
var extGrammar = map[string]string{
	".go":   "go",
	".py":   "python",
	".js":   "javascript",
	".mjs":  "javascript",
	".cjs":  "javascript",
	".jsx":  "javascript",
	".ts":   "typescript",
	".mts":  "typescript",
	".cts":  "typescript",
	".tsx":  "tsx",
	".rs":   "rust",
	".java": "java",
	".c":    "c",
	".h":    "c",
	".cc":   "cpp",
	".cpp":  "cpp",
	".cxx":  "cpp",
	".hpp":  "cpp",
	".hh":   "cpp",
	".hxx":  "cpp",
	".rb":   "ruby",
	".pl":   "prolog",
	".pro":  "prolog",
}

// grammarLanguage maps a grammar name to its language.
var grammarLanguage = map[string]string{
	"go": LangGo, "python": LangPython, "javascript": LangJavaScript,
	"typescript": LangTypeScript, "tsx": LangTypeScript, "rust": LangRust,
	"java": LangJava, "c": LangC, "cpp": LangCPP, "ruby": LangRuby,
	"prolog": LangProlog,
}

// Languages returns the supported languages (the Lang* constants), sorted.
func Languages() []string {
	out := []string{LangC, LangCPP, LangGo, LangJava, LangJavaScript, LangProlog,
		LangPython, LangRuby, LangRust, LangTypeScript}
	slices.Sort(out)
	return out
}

// LanguageForPath returns the language of the file at p by its extension
// (case-insensitive; see the Lang* constants), or "" if it is not one this
// package reads.
func LanguageForPath(p string) string { return grammarLanguage[grammarForPath(p)] }

// grammarForPath is the grammar name for p's extension, or "".
func grammarForPath(p string) string {
	ext := path.Ext(p)
	if g, ok := extGrammar[ext]; ok {
		return g
	}
	return extGrammar[strings.ToLower(ext)]
}

// grammarSpec describes one tree-sitter grammar and how its captures become
// facts.
type grammarSpec struct {
	name     string // Provenance.Grammar
	language string // FileFacts.Language
	module   string // Go module of the grammar, for its version
	// fallbackVersion is GrammarVersion when the binary carries no module
	// information (test binaries): the version go.mod requires.
	fallbackVersion string
	ptr             func() unsafe.Pointer
	queries         []string // query files, compiled together in this order
	// roles overrides the capture roles of parseCaptureName.
	roles map[string]captureRole
	// ownerKinds are the symbol kinds whose directly nested functions are
	// methods, with the owner's name as Receiver. nil keeps Go's rules
	// (receivers come from the method declaration).
	ownerKinds map[string]bool
	// demoteMethods makes a method whose innermost enclosing definition is
	// not an owner a function (Rust's tags.scm marks every fn in a
	// declaration_list a method, those of mod bodies included).
	demoteMethods bool
	// docstrings reads Python docstrings (the first statement of a body,
	// a string) as Doc instead of comments.
	docstrings bool
	// docStrip is the default #strip! regex for line comments.
	docStrip string
	// sigTrim is cut from the end of signatures (Python's ":").
	sigTrim string
	// defKind refines a definition's kind from its node; keep false drops
	// it (e.g. C's `enum color c;`, which tags.scm matches like a
	// definition).
	defKind func(x *extraction, d *defCand) (kind string, keep bool)
	// refKind refines a reference's kind from its name node.
	refKind func(x *extraction, r *refCand) string
	// imports turns an import match into Import facts.
	imports func(x *extraction, im *importCand) []Import
	// prune drops definition candidates before they become symbols.
	prune func(x *extraction, defs []defCand) []defCand
	// refine adjusts a symbol from its candidate's node; false drops it.
	refine func(x *extraction, d *defCand, s *Symbol) bool
	// dropLocalVars drops variables whose innermost enclosing definition
	// is a function or method (C/C++ declarations in #if blocks inside a
	// function body, Python assignments in blocks, which the queries
	// cannot tell from file-scope ones).
	dropLocalVars bool
	// declarator finds the name a @declarator capture declares and the
	// kind of the definition, given the pattern's kind and the matched
	// definition node; false drops the match (C, C++).
	declarator func(x *extraction, kind string, def *ts.Node, decl ts.Node) (declared, string, bool)
	// calls resolves calls (Reference.Via, Module, Type; tsresolve.go);
	// nil leaves them by name.
	calls *callSpec
}

var grammarSpecs = map[string]*grammarSpec{
	"go": {
		name: "go", language: LangGo, module: "github.com/tree-sitter/tree-sitter-go",
		fallbackVersion: "v0.25.0", ptr: tsgo.Language,
		queries: []string{"go-tags.scm", "go-extra.scm"},
		imports: goImports,
		calls:   goCalls,
	},
	"python": {
		name: "python", language: LangPython, module: "github.com/tree-sitter/tree-sitter-python",
		fallbackVersion: "v0.25.0", ptr: tspy.Language,
		queries:       []string{"python-tags.scm", "python-extra.scm"},
		ownerKinds:    map[string]bool{KindClass: true},
		dropLocalVars: true,
		docstrings:    true, sigTrim: ":",
		imports: pythonImports,
		calls:   pythonCalls,
	},
	"javascript": {
		name: "javascript", language: LangJavaScript, module: "github.com/tree-sitter/tree-sitter-javascript",
		fallbackVersion: "v0.25.0", ptr: tsjs.Language,
		queries: []string{"javascript-tags.scm", "ecmascript-extra.scm", "javascript-extra.scm"},
		prune:   jsPrune, refine: jsRefine,
		ownerKinds: map[string]bool{KindClass: true},
		imports:    plainImports,
		calls:      jsCalls,
	},
	"typescript": {
		name: "typescript", language: LangTypeScript, module: "github.com/tree-sitter/tree-sitter-typescript",
		fallbackVersion: "v0.23.2", ptr: tsts.LanguageTypescript,
		queries: []string{"javascript-tags.scm", "typescript-tags.scm", "ecmascript-extra.scm", "typescript-extra.scm"},
		prune:   jsPrune, refine: jsRefine,
		ownerKinds: map[string]bool{KindClass: true, KindInterface: true},
		imports:    plainImports,
		calls:      jsCalls,
	},
	"tsx": {
		name: "tsx", language: LangTypeScript, module: "github.com/tree-sitter/tree-sitter-typescript",
		fallbackVersion: "v0.23.2", ptr: tsts.LanguageTSX,
		queries: []string{"javascript-tags.scm", "typescript-tags.scm", "ecmascript-extra.scm", "typescript-extra.scm", "tsx-extra.scm"},
		prune:   jsPrune, refine: jsRefine,
		ownerKinds: map[string]bool{KindClass: true, KindInterface: true},
		imports:    plainImports,
		calls:      jsCalls,
	},
	"rust": {
		name: "rust", language: LangRust, module: "github.com/tree-sitter/tree-sitter-rust",
		fallbackVersion: "v0.24.0", ptr: tsrs.Language,
		queries:       []string{"rust-tags.scm", "rust-extra.scm"},
		ownerKinds:    map[string]bool{KindInterface: true},
		demoteMethods: true,
		docStrip:      `^//[/!]?\s*`,
		defKind:       rustDefKind,
		imports:       rustImports,
		calls:         rustCalls,
	},
	"java": {
		name: "java", language: LangJava, module: "github.com/tree-sitter/tree-sitter-java",
		fallbackVersion: "v0.23.5", ptr: tsjava.Language,
		queries:    []string{"java-tags.scm", "java-extra.scm"},
		ownerKinds: map[string]bool{KindClass: true, KindInterface: true, KindEnum: true},
		imports:    javaImports,
		calls:      javaCalls,
	},
	"c": {
		name: "c", language: LangC, module: "github.com/tree-sitter/tree-sitter-c",
		fallbackVersion: "v0.24.1", ptr: tsc.Language,
		queries:       []string{"c-tags.scm", "cfamily-extra.scm", "c-extra.scm"},
		defKind:       cDefKind,
		imports:       plainImports,
		declarator:    cDeclared,
		dropLocalVars: true,
	},
	"cpp": {
		name: "cpp", language: LangCPP, module: "github.com/tree-sitter/tree-sitter-cpp",
		fallbackVersion: "v0.23.4", ptr: tscpp.Language,
		queries:       []string{"cpp-tags.scm", "cfamily-extra.scm", "cpp-extra.scm"},
		roles:         map[string]captureRole{"local.scope": capDefReceiver},
		ownerKinds:    map[string]bool{KindClass: true, KindStruct: true},
		defKind:       cDefKind,
		imports:       plainImports,
		declarator:    cDeclared,
		dropLocalVars: true,
		calls:         cppCalls,
	},
	"ruby": {
		name: "ruby", language: LangRuby, module: "github.com/tree-sitter/tree-sitter-ruby",
		fallbackVersion: "v0.23.1", ptr: tsrb.Language,
		queries:    []string{"ruby-locals.scm", "ruby-tags.scm", "ruby-extra.scm"},
		roles:      map[string]captureRole{"local.scope": capLocalScope, "local.definition": capLocalDef},
		ownerKinds: map[string]bool{KindClass: true, KindModule: true},
		docStrip:   `^#\s*`,
		refKind:    rubyRefKind,
		refine:     rubyRefine,
		imports:    rubyImports,
	},
}

// grammarNames lists the tree-sitter grammars of the given languages (all
// when langs is empty), and whether Prolog is among them.
func grammarNames(langs []string) (names []string, prolog bool) {
	all := len(langs) == 0
	for _, g := range []string{"go", "python", "javascript", "typescript", "tsx", "rust", "java", "c", "cpp", "ruby"} {
		if all || slices.Contains(langs, grammarSpecs[g].language) {
			names = append(names, g)
		}
	}
	return names, all || slices.Contains(langs, LangProlog)
}
