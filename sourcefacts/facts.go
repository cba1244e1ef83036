// Package sourcefacts turns source bytes into definition, reference and
// import facts, each bound to its provenance: the project, the file, the
// exact content hash of the bytes it came from, the generation, the parser
// and grammar versions and the extractor version.
//
// Go, Python, JavaScript, TypeScript (and TSX), Rust, Java, C, C++ and Ruby
// are parsed with tree-sitter. Symbols and references come from each
// grammar's own queries/tags.scm (the tree-sitter tags convention:
// @definition.*, @reference.*, @name), plus a small extra query per
// language only where tags.scm lacks something (imports above all). See
// queries/ for the query files and their licences. Prolog files are read
// with the interpreter's own term reader (package prologsrc), never
// consulted. LanguageForPath says which language a path's extension is;
// Detect decides a file's language where the extension does not settle it
// (scripts by their #! line or mode line, .h headers by C++ constructs,
// Perl .pl files skipped as not ours), and Provenance.LanguageBy records
// how.
//
// Which files make up a project is decided in one place, Lister: Walk uses
// it, and so does the store (package sourcefacts/store). Its documentation
// gives the skip policy (version-control and dependency directories,
// hidden files, build output, virtual environments, and what .gitignore,
// .ignore and .git/info/exclude exclude).
package sourcefacts

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/rlm-dev/rlm/internal/textclip"
)

// ExtractorVersion names the version of the extraction logic and the query
// files together. Bump it whenever either changes the facts produced for the
// same bytes, so that stored facts can be told apart.
const ExtractorVersion = "rlm-extract/10"

// ContentHash identifies exact file bytes: XXH64 (seed 0, as computed by
// github.com/cespare/xxhash/v2) plus the length in bytes. Exact bytes are
// authoritative; mtimes never stand in for it.
type ContentHash struct {
	XXH64 uint64
	Len   int64
}

// HashBytes returns the ContentHash of b.
func HashBytes(b []byte) ContentHash {
	return ContentHash{XXH64: xxhash.Sum64(b), Len: int64(len(b))}
}

// String formats the hash as "xxh64:<16 hex digits>:<length>" (the
// digits lower case, zero-padded; the length in decimal), without fmt:
// a refresh formats every file's hash.
func (h ContentHash) String() string {
	const hexDigits = "0123456789abcdef"
	b := make([]byte, 0, len("xxh64:")+16+1+20)
	b = append(b, "xxh64:"...)
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, hexDigits[h.XXH64>>uint(shift)&0xf])
	}
	b = append(b, ':')
	return string(strconv.AppendInt(b, h.Len, 10))
}

// ErrBadContentHash is matched (errors.Is) by ParseContentHash's errors.
var ErrBadContentHash = errors.New("sourcefacts: not a content hash")

// ParseContentHash reads the String form back: "xxh64:", exactly 16
// lower-case hex digits, ":", and the length in bytes (decimal, no sign,
// no leading zeros). Anything else is an error wrapping ErrBadContentHash.
func ParseContentHash(s string) (ContentHash, error) {
	bad := func() (ContentHash, error) {
		return ContentHash{}, fmt.Errorf("%w: %q (want xxh64:<16 hex digits>:<length>)", ErrBadContentHash, textclip.Clean(s, 60))
	}
	rest, ok := strings.CutPrefix(s, "xxh64:")
	if !ok {
		return bad()
	}
	hex, length, ok := strings.Cut(rest, ":")
	if !ok || len(hex) != 16 || strings.Trim(hex, "0123456789abcdef") != "" ||
		length == "" || len(length) > 19 || strings.Trim(length, "0123456789") != "" || len(length) > 1 && length[0] == '0' {
		return bad()
	}
	x, err := strconv.ParseUint(hex, 16, 64)
	if err != nil {
		return bad()
	}
	n, err := strconv.ParseInt(length, 10, 64)
	if err != nil {
		return bad()
	}
	return ContentHash{XXH64: x, Len: n}, nil
}

// Range is a span of source. Bytes are 0-based, end exclusive; lines are
// 1-based and inclusive; columns are 0-based byte offsets within the line.
type Range struct {
	StartByte int `json:"start_byte"`
	EndByte   int `json:"end_byte"`
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
	StartCol  int `json:"start_col"`
	EndCol    int `json:"end_col"`
}

// Provenance says where a file's facts came from. Every Symbol, Reference
// and Import of a FileFacts shares its file's Provenance.
type Provenance struct {
	Project        string      `json:"project"`         // project name or root
	Path           string      `json:"path"`            // slash-separated, relative to the project root
	Hash           ContentHash `json:"hash"`            // exact bytes the facts were extracted from
	Generation     int64       `json:"generation"`      // file generation: bumps when Hash changes
	Parser         string      `json:"parser"`          // e.g. "tree-sitter/0.25.0"
	Grammar        string      `json:"grammar"`         // e.g. "go", "tsx", "prolog"
	GrammarVersion string      `json:"grammar_version"` // e.g. "v0.25.0" (Go module version of the grammar or reader)
	Extractor      string      `json:"extractor"`       // ExtractorVersion
	// LanguageBy records how the file's language was decided (see
	// Detect): "extension .go", "#! python3", "mode line c++", "content:
	// C++ constructs (namespace, line 3)" for a .h header read as C++,
	// "content: no C++ constructs" for one read as C; "" when no
	// language was found.
	LanguageBy string `json:"language_by,omitempty"`
}

// Symbol kinds (the tags convention's definition.* suffixes, plus the extra
// kinds this package adds). A definition.<kind> capture this package does
// not know keeps <kind> as its Kind.
const (
	KindFunction  = "function"
	KindMethod    = "method"
	KindType      = "type"
	KindInterface = "interface" // also Rust traits, Java annotation types
	KindStruct    = "struct"    // also C/C++ structs and unions, Rust structs and unions
	KindConstant  = "constant"
	KindVariable  = "variable"
	KindField     = "field"
	KindClass     = "class"     // classes (Python, JavaScript, TypeScript, Java, C++, Ruby; Java records)
	KindModule    = "module"    // Rust mod, Ruby module, TypeScript namespace/module, C++ namespace
	KindMacro     = "macro"     // C/C++ #define, Rust macro_rules!
	KindEnum      = "enum"      // enumerations (Rust, Java, TypeScript, C/C++)
	KindPredicate = "predicate" // Prolog predicates, Name "name/arity"
	// KindPrototype is a function or method declared without a body: a
	// C/C++ prototype, or a C++ method declared in its class and defined
	// elsewhere. Its definition, when the tree has one, is a separate
	// function or method symbol.
	KindPrototype = "prototype"
	// KindDeclaration is a forward declaration of a type (C++ `class
	// Conn;`), not its definition.
	KindDeclaration = "declaration"
)

// Kinds lists every symbol kind above, in their order.
var Kinds = []string{KindFunction, KindMethod, KindType, KindInterface, KindStruct, KindConstant, KindVariable, KindField,
	KindClass, KindModule, KindMacro, KindEnum, KindPredicate, KindPrototype, KindDeclaration}

// Reference kinds (the tags convention's reference.* suffixes). A
// reference.<kind> capture this package does not know keeps <kind>.
const (
	RefCall = "call" // a call; Prolog: a body goal, Name "name/arity"
	RefType = "type" // a type named (Go, TypeScript annotations; Ruby constants)
	// RefClass is a class named by an instantiation (`new C()`) or as a
	// superclass (`extends C`, C++ base classes).
	RefClass = "class"
	// RefImplementation is an interface or trait implemented (`implements
	// I`, `impl Trait for T`).
	RefImplementation = "implementation"
)

// Symbol is a definition: a named thing declared at Range.
type Symbol struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`                // one of the Kind* constants
	Receiver  string `json:"receiver,omitempty"`  // methods: receiver base type name, e.g. "Server"
	Container string `json:"container,omitempty"` // enclosing definition's qualified name, if nested
	Signature string `json:"signature,omitempty"` // first line(s) of the declaration, trimmed
	Doc       string `json:"doc,omitempty"`       // doc comment with comment markers stripped
	// Type is the type the declaration writes, as written: a field's or
	// variable's type ("*Request", "http.Header"), the result types of a
	// function or method ("(*Response, error)"), the type an alias
	// stands for; "" if it writes none (Go only, for now). Scopes follows
	// it to resolve calls on values reached through fields and calls.
	Type      string `json:"type,omitempty"`
	Range     Range  `json:"range"`      // the whole definition
	NameRange Range  `json:"name_range"` // just the name
	// Role is the definition's own role (RoleTest, RoleExample) where its
	// syntax says it differs from its file's: a Go Example function in a
	// test file, an item under a Rust #[cfg(test)] or #[test] attribute.
	// "" means its file's role (FileFacts.SymbolRole).
	Role string `json:"role,omitempty"`
}

// Qualified returns "Receiver.Name" for methods and Name otherwise.
func (s Symbol) Qualified() string {
	if s.Receiver != "" {
		return s.Receiver + "." + s.Name
	}
	return s.Name
}

// Reference is a use of a name: a call or a type reference.
type Reference struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // RefCall or RefType
	// Receiver is the operand text of a selector call (`x` in `x.f()`), or
	// the package qualifier of a qualified type (`io` in `io.Reader`), when
	// present; it is syntax, not a resolved type.
	Receiver string `json:"receiver,omitempty"`
	// Enclosing is the index into FileFacts.Symbols of the innermost
	// function or method (else any definition) whose Range contains this
	// reference, or -1 at file level.
	Enclosing int   `json:"enclosing"`
	Range     Range `json:"range"`
	// Via says how a call's callee was resolved from the file's own
	// syntax (one of the Via* constants; ViaName, "", when it was not):
	// through an import, the declared type of its receiver, the file's
	// own top-level scope, or a local variable. Module and Type say
	// where the callee is; see CallTarget. Only calls are resolved.
	Via string `json:"via,omitempty"`
	// Module is the package or module the callee belongs to, spelled as
	// the file's import spells it (Import.Path, or Python's `from`
	// module): "encoding/json", "os.path", "./router", "java.util". ""
	// is the file's own package or module.
	Module string `json:"module,omitempty"`
	// Type is the type (class, struct, trait) whose method the callee
	// is, as declared in Module: "body" for `b.Read()` after `var b
	// *body`, "Request" for `r *http.Request` (Module "net/http"); for a
	// qualifier that is an import followed by more names (Python
	// `os.path.join`, `from m import C; C.f()`), those names, dotted.
	// "" for a top-level function.
	Type string `json:"type,omitempty"`
	// Path is how the receiver is reached from Module and Type when its
	// own declaration does not write its type: the names of the fields,
	// variables and calls to follow through the tree's declarations
	// (Symbol.Type), dot-separated, a call marked "()" (its first
	// result) or "()N" (its result N, from 0): "Header" for
	// `req.Header.Get()` after `req *Request`, "Do()" for `resp.Body`
	// after `resp, err := c.Do(r)`, "DefaultServeMux" for
	// `DefaultServeMux.Handle()`. "" when Type is the receiver's type.
	Path string `json:"path,omitempty"`
}

// How a call was resolved (Reference.Via). Resolution uses only what the
// file's syntax shows: import declarations and their aliases, the
// declared types of parameters, receivers and variables (and of the
// composite literal, `new(T)` or type assertion a variable is
// initialised with), `self`, `this` and the enclosing class. It never
// guesses a type.
const (
	// ViaName: not resolved; the call names Name and nothing more is
	// known (a method call on a value of unknown type, a builtin, a
	// name from a wildcard or dot import).
	ViaName = ""
	// ViaImport: the qualifier (`json` in `json.Unmarshal()`) or the
	// called name itself (Python `from m import f; f()`, a JavaScript
	// named import) is bound by an import; Module is what it imports.
	ViaImport = "import"
	// ViaReceiver: the receiver is a parameter, receiver or variable
	// whose declared type is Type (in Module), or self/this (the
	// enclosing class).
	ViaReceiver = "receiver"
	// ViaScope: an unqualified call of a name the file's own top-level
	// scope declares: Go's package scope (Module ""), a Python or
	// JavaScript module-level definition, a Java method of the enclosing
	// class (Type is that class).
	ViaScope = "scope"
	// ViaLocal: the called name is a local variable or parameter (a
	// function value), not a definition.
	ViaLocal = "local"
)

// Import is one thing a file imports, spelled as its language spells it:
//
//   - Go: the import path, e.g. "net/url"; Alias is the name, "." or "_".
//   - Python: the module or name, dotted and joined with its `from` module:
//     "os.path", "collections.OrderedDict", ".util.helper", "x.*"; Alias is
//     the `as` name.
//   - JavaScript/TypeScript: the module specifier of import, export-from,
//     require() or import(); Alias is the default, namespace or require()
//     binding.
//   - Rust: each path of a use tree, e.g. "std::io::Read", "crate::util::*";
//     Alias is the `as` name. extern crate: the crate.
//   - Java: the imported name, e.g. "java.util.List", "java.util.*".
//   - C/C++: the #include path without quotes or angle brackets.
//   - Ruby: the require'd feature; require_relative paths start with "./"
//     or "../".
//   - Prolog: the file spec of use_module/ensure_loaded/reexport/include/
//     consult/load_files, e.g. "library(lists)".
//
// Range is the whole import statement (for Python and Rust, shared by the
// names it imports).
type Import struct {
	Path  string `json:"path"`
	Alias string `json:"alias,omitempty"`
	Range Range  `json:"range"`
}

// Status of a file's extraction.
const (
	StatusCurrent = "current" // parsed cleanly
	// StatusPartial: parsed with tree-sitter ERROR/MISSING nodes, or a
	// Prolog text the reader stopped in (facts up to that clause); facts
	// may be incomplete and Error says where the first problem is.
	StatusPartial = "partial"
	StatusError   = "error" // could not be parsed at all (Error holds why)
	// StatusSkipped: deliberately not parsed, which is not an error: a
	// file of another language under a shared extension (a Perl .pl), a
	// script of a language this package does not read, or a file over
	// the size cap. Error holds the reason, starting with SkipNotOurs,
	// SkipNoLanguage or SkipTooLarge. There are no facts.
	StatusSkipped = "skipped"
)

// FileFacts holds everything extracted from one file's exact bytes.
type FileFacts struct {
	Provenance Provenance `json:"provenance"`
	Language   string     `json:"language"` // one of the Lang* constants; "" if unsupported
	// Role is the file's role by its language's conventions (FileRole):
	// RoleSource, RoleTest or RoleExample.
	Role   string `json:"role"`
	Test   bool   `json:"test"` // Role == RoleTest (kept for readers of the older field)
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Package is the Go package name, the Java package, or the Prolog
	// module name; empty for other languages.
	Package    string      `json:"package,omitempty"`
	Symbols    []Symbol    `json:"symbols"`
	References []Reference `json:"references"`
	Imports    []Import    `json:"imports"`
}
