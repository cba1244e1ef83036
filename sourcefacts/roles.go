package sourcefacts

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Roles: what a file or a definition is for. Every FileFacts has one
// (FileFacts.Role); a Symbol has its own only where its syntax says it
// differs from its file's (Symbol.Role; see FileFacts.SymbolRole).
const (
	RoleSource  = "source"  // the code itself
	RoleTest    = "test"    // tests, specs, their fixtures and helpers
	RoleExample = "example" // examples of use: examples/ trees, Go Example functions
)

// Roles returns the roles, in the order above.
func Roles() []string { return []string{RoleSource, RoleTest, RoleExample} }

// RoleConvention is one row of the table that decides a file's role from
// its path: a file of Language ("" any language) whose path matches Dir
// and Base (each "" for any) has Role.
//
// Dir is one directory name ("tests") or a run of them ("src/test") that
// must appear among the path's directories, anywhere below the root. Base
// is a path.Match pattern on the file's name ("*_test.go"). Rows are tried
// in order and the first match decides; a file no row matches is
// RoleSource. Test rows come before example rows, so that a test under
// examples/ is a test.
type RoleConvention struct {
	Language string
	Dir      string
	Base     string
	Role     string
}

// roleConventions is the convention table, as data: each language's
// community conventions for test files and the examples directories.
// The table lives here, not in the rules, because roles are facts
// extracted with the rest (stored with the file, versioned by
// ExtractorVersion) and this package is below the rule engine; what a
// search does with roles (exclude, demote) is decided by the rules.
var roleConventions = []RoleConvention{
	{Language: LangGo, Base: "*_test.go", Role: RoleTest},

	{Language: LangPython, Base: "test_*.py", Role: RoleTest},
	{Language: LangPython, Base: "*_test.py", Role: RoleTest},
	{Language: LangPython, Base: "conftest.py", Role: RoleTest},
	{Language: LangPython, Dir: "tests", Role: RoleTest},
	{Language: LangPython, Dir: "test", Role: RoleTest},

	{Language: LangJavaScript, Base: "*.test.*", Role: RoleTest},
	{Language: LangJavaScript, Base: "*.spec.*", Role: RoleTest},
	{Language: LangJavaScript, Dir: "__tests__", Role: RoleTest},
	{Language: LangJavaScript, Dir: "test", Role: RoleTest},
	{Language: LangJavaScript, Dir: "tests", Role: RoleTest},
	{Language: LangTypeScript, Base: "*.test.*", Role: RoleTest},
	{Language: LangTypeScript, Base: "*.spec.*", Role: RoleTest},
	{Language: LangTypeScript, Dir: "__tests__", Role: RoleTest},
	{Language: LangTypeScript, Dir: "test", Role: RoleTest},
	{Language: LangTypeScript, Dir: "tests", Role: RoleTest},

	{Language: LangRuby, Base: "*_spec.rb", Role: RoleTest},
	{Language: LangRuby, Base: "*_test.rb", Role: RoleTest},
	{Language: LangRuby, Base: "test_*.rb", Role: RoleTest},
	{Language: LangRuby, Dir: "spec", Role: RoleTest},
	{Language: LangRuby, Dir: "test", Role: RoleTest},

	{Language: LangJava, Base: "*Test.java", Role: RoleTest},
	{Language: LangJava, Base: "*Tests.java", Role: RoleTest},
	{Language: LangJava, Dir: "src/test", Role: RoleTest},

	{Language: LangRust, Dir: "tests", Role: RoleTest},

	{Language: LangC, Base: "*_test.*", Role: RoleTest},
	{Language: LangC, Base: "test_*.*", Role: RoleTest},
	{Language: LangC, Dir: "test", Role: RoleTest},
	{Language: LangC, Dir: "tests", Role: RoleTest},
	{Language: LangCPP, Base: "*_test.*", Role: RoleTest},
	{Language: LangCPP, Base: "test_*.*", Role: RoleTest},
	{Language: LangCPP, Dir: "test", Role: RoleTest},
	{Language: LangCPP, Dir: "tests", Role: RoleTest},

	{Language: LangProlog, Base: "*_test.pl", Role: RoleTest},

	{Dir: "examples", Role: RoleExample},
	{Dir: "example", Role: RoleExample},
}

// RoleConventions returns a copy of the convention table FileRole reads,
// in the order it is tried.
func RoleConventions() []RoleConvention {
	return append([]RoleConvention(nil), roleConventions...)
}

// FileRole is the role of the file at the slash-separated path p (relative
// to the project root) read as language (a Lang* constant; "" for none):
// the Role of the first RoleConventions row that matches, else RoleSource.
func FileRole(language, p string) string {
	dir, base := path.Split(p)
	dirs := "/" + dir // "/a/b/": a run of names is found as "/NAME/"
	for _, c := range roleConventions {
		if c.Language != "" && c.Language != language {
			continue
		}
		if c.Dir != "" && !strings.Contains(dirs, "/"+c.Dir+"/") {
			continue
		}
		if c.Base != "" {
			if ok, _ := path.Match(c.Base, base); !ok {
				continue
			}
		}
		return c.Role
	}
	return RoleSource
}

// IsTestFile reports whether the slash-separated path p, read in the
// language its extension names (LanguageForPath), is a test file:
// FileRole(LanguageForPath(p), p) == RoleTest. The conventions, per
// language (RoleConventions):
//
//   - Go: *_test.go
//   - Python: test_*.py, *_test.py, conftest.py, anything under tests/ or
//     test/
//   - JavaScript/TypeScript: *.test.* and *.spec.* (app.test.js,
//     view.spec.tsx), anything under __tests__/, test/ or tests/
//   - Ruby: *_spec.rb, *_test.rb, test_*.rb, anything under spec/ or test/
//   - Java: *Test.java, *Tests.java, anything under src/test/
//   - Rust: anything under tests/
//   - C/C++: *_test.* and test_*.* (util_test.c), anything under test/
//     or tests/
//   - Prolog: *_test.pl (rlm's rule-test convention)
//
// Paths of other languages are not test files.
func IsTestFile(p string) bool {
	return FileRole(LanguageForPath(p), p) == RoleTest
}

// SymbolRole is the role of ff.Symbols[i]: its own Role if set, else its
// file's (RoleSource for a file without one).
func (ff *FileFacts) SymbolRole(i int) string {
	if r := ff.Symbols[i].Role; r != "" {
		return r
	}
	if ff.Role != "" {
		return ff.Role
	}
	return RoleSource
}

// setSymbolRoles gives the symbols whose syntax says they differ from
// their file a Role of their own: in a Go test file, the Example
// functions (the testing package's naming: Example, ExampleF, ExampleT_M,
// Example_suffix) are examples; a definition inside one of tests (the
// spans of items under a Rust #[cfg(test)] or #[test] attribute) is a
// test.
func setSymbolRoles(ff *FileFacts, tests []span) {
	for i := range ff.Symbols {
		s := &ff.Symbols[i]
		role := ""
		switch {
		case ff.Language == LangGo && ff.Role == RoleTest && s.Kind == KindFunction && isGoExample(s.Name):
			role = RoleExample
		case inSpans(tests, s.Range):
			role = RoleTest
		}
		if role != "" && role != ff.Role {
			s.Role = role
		}
	}
}

// isGoExample reports whether name is an example function's name by the
// testing package's rule: "Example", or "Example" followed by a character
// that is not a lower-case letter.
func isGoExample(name string) bool {
	rest, ok := strings.CutPrefix(name, "Example")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// inSpans reports whether r lies within one of spans.
func inSpans(spans []span, r Range) bool {
	for _, s := range spans {
		if r.StartByte >= s.start && r.EndByte <= s.end {
			return true
		}
	}
	return false
}

// InternalPath reports whether the file at the slash-separated path p
// (relative to the project root), read as language, lies in an internal
// package by that language's convention: for Go, a directory named
// "internal" on its path (the go command's rule: only the tree rooted at
// internal's parent may import it). Other languages have none here.
func InternalPath(language, p string) bool {
	if language != LangGo {
		return false
	}
	dir, _ := path.Split(p)
	return strings.Contains("/"+dir, "/internal/")
}
