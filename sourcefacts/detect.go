// Language detection: by extension, and for files the extension does not
// settle, by content — the #! line and editor mode lines of scripts without
// an extension, C++ constructs in .h headers, Perl in .pl files.

package sourcefacts

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
)

// SniffBytes is how much of a file's start content detection reads: the
// #! line and mode lines must lie within it.
const SniffBytes = 1024

// Reasons a file is skipped (FileFacts.Status StatusSkipped): FileFacts.Error
// starts with one of them, followed by ": " and the detail, e.g.
// "not ours: a Perl script".
const (
	// SkipNotOurs: the file has a supported language's extension but is
	// of another language (a Perl script named .pl).
	SkipNotOurs = "not ours"
	// SkipNoLanguage: a script whose #! line or mode line names a
	// language this package does not read (bash, perl, ...).
	SkipNoLanguage = "no language"
	// SkipTooLarge: the file is larger than the size cap
	// (WalkOptions.MaxFileBytes, store.Options.MaxFileBytes; 4 MiB by
	// default), so it was not parsed.
	SkipTooLarge = "too large"
)

// Detection is how the language of one file was decided.
type Detection struct {
	// Language is one of the Lang* constants, "" when the file is not of
	// a language this package reads.
	Language string
	// Grammar is the Provenance.Grammar the file is read with ("tsx" for
	// .tsx), "" with Language.
	Grammar string
	// By says how: "extension .go", "#! python3", "mode line c++",
	// "content: C++ constructs (namespace, line 3)", "content: no C++
	// constructs" (Provenance.LanguageBy).
	By string
	// Skip is why the file is skipped, "" if it is read: SkipNotOurs or
	// SkipNoLanguage, then ": " and the detail.
	Skip string
}

// Detect decides the language of the file at slash path p from its
// extension and, where the extension does not settle it, from src (its
// bytes; only the first SniffBytes are read, except for .h headers, which
// are scanned whole for C++ constructs):
//
//   - A file without an extension is a script of the language its #! line
//     names (`#!/usr/bin/env python3`, `#!/usr/bin/ruby`, `#!/usr/bin/env
//     node`, `#!/usr/bin/env -S swipl -q`) or, without one, its editor mode
//     line (`-*- mode: ruby -*-`, `-*- Python -*-`, `vim: set ft=python:`)
//     in its first five lines. A script of a language this package does
//     not read (bash, perl, ...) is skipped with SkipNoLanguage; a file
//     with neither is not a source file (Language "", Skip "").
//   - A .h header is C++ when a mode line says so or C++ constructs
//     (namespace, class or template declarations, access specifiers,
//     `::` qualified names, C++ keywords such as constexpr or nullptr)
//     occur outside comments, strings and preprocessor lines, else C.
//     `extern "C"` alone does not make a header C++: C headers wrap
//     themselves in it for C++ callers.
//   - A .pl file that is a Perl script (a #! line naming perl, or Perl
//     statements such as `use strict;`, `my $x`, `sub name {` starting a
//     line) is skipped with SkipNotOurs; other .pl files are Prolog.
//   - A .pro file that is a ProGuard/R8 configuration (a line starting
//     with an option such as `-keep` or `-dontwarn`), a qmake project
//     file (a line assigning TEMPLATE, QT, SOURCES, ...) or starts with a
//     `#` comment, which no Prolog text does, is skipped with SkipNotOurs;
//     other .pro files are Prolog.
//   - Every other file is of its extension's language (LanguageForPath).
func Detect(p string, src []byte) Detection {
	ext := path.Ext(path.Base(p))
	g := grammarForPath(p)
	head := src[:min(len(src), SniffBytes)]
	switch {
	case ext == "":
		return detectScript(head)
	case g == "c" && strings.EqualFold(ext, ".h"):
		if lang, mode := modeLine(head); lang == LangCPP || lang == LangC {
			return detected(grammarOfLanguage(lang), "mode line "+mode)
		}
		if what, line := cppConstruct(src); what != "" {
			return detected("cpp", fmt.Sprintf("content: C++ constructs (%s, line %d)", what, line))
		}
		return detected("c", "content: no C++ constructs")
	case g == LangProlog:
		if isPerlScript(head) {
			return Detection{By: "content: Perl", Skip: SkipNotOurs + ": a Perl script"}
		}
		if strings.EqualFold(ext, ".pro") {
			if by, what := notPrologPro(head); by != "" {
				return Detection{By: by, Skip: SkipNotOurs + ": " + what}
			}
		}
	}
	if g == "" {
		return Detection{}
	}
	return detected(g, "extension "+strings.ToLower(ext))
}

func detected(grammar, by string) Detection {
	return Detection{Language: grammarLanguage[grammar], Grammar: grammar, By: by}
}

// grammarOfLanguage is the grammar a script of lang is read with.
func grammarOfLanguage(lang string) string {
	if lang == LangCPP {
		return "cpp"
	}
	return lang // every other language's grammar has its name
}

// interpreters maps the program a #! line runs (without version digits)
// to the language it reads; "" for languages this package does not read.
var interpreters = map[string]string{
	"python": LangPython, "pypy": LangPython,
	"ruby": LangRuby, "jruby": LangRuby, "truffleruby": LangRuby,
	"node": LangJavaScript, "nodejs": LangJavaScript,
	"ts-node": LangTypeScript, "tsx": LangTypeScript,
	"swipl": LangProlog, "gprolog": LangProlog, "yap": LangProlog, "scryer-prolog": LangProlog,
}

// modeNames maps an editor mode or file type (lower case) to a language;
// "" for modes of languages this package does not read.
var modeNames = map[string]string{
	"python": LangPython, "ruby": LangRuby, "enh-ruby": LangRuby,
	"js": LangJavaScript, "javascript": LangJavaScript, "js2": LangJavaScript, "js-jsx": LangJavaScript, "rjsx": LangJavaScript,
	"typescript": LangTypeScript, "ts": LangTypeScript,
	"go": LangGo, "rust": LangRust, "java": LangJava,
	"c": LangC, "c++": LangCPP, "cpp": LangCPP,
	"prolog": LangProlog,
}

// detectScript decides a file without an extension by its #! line, else
// its mode line.
func detectScript(head []byte) Detection {
	if prog, ok := shebang(head); ok {
		name := strings.TrimRight(prog, "0123456789.")
		lang, known := interpreters[name]
		if known && lang != "" {
			return detected(grammarOfLanguage(lang), "#! "+prog)
		}
		return Detection{By: "#! " + prog, Skip: fmt.Sprintf("%s: a %s script", SkipNoLanguage, prog)}
	}
	if lang, mode := modeLine(head); mode != "" {
		if lang != "" {
			return detected(grammarOfLanguage(lang), "mode line "+mode)
		}
		return Detection{By: "mode line " + mode, Skip: fmt.Sprintf("%s: mode line %s", SkipNoLanguage, mode)}
	}
	return Detection{}
}

// shebang returns the program a #! line runs: the base name of the
// interpreter, or for `env` (with its -S and other options) the program
// env runs.
func shebang(head []byte) (string, bool) {
	head = bytes.TrimPrefix(head, []byte("\uFEFF"))
	if !bytes.HasPrefix(head, []byte("#!")) {
		return "", false
	}
	line := firstLine(head[2:])
	f := strings.Fields(string(line))
	if len(f) == 0 {
		return "", false
	}
	prog := path.Base(f[0])
	if prog == "env" {
		prog = ""
		for _, a := range f[1:] {
			if strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
				continue
			}
			prog = path.Base(a)
			break
		}
	}
	if prog == "" || prog == "." || prog == "/" {
		return "", false
	}
	return prog, true
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		return b[:i]
	}
	return b
}

var (
	// emacsMode: `-*- mode: ruby; coding: utf-8 -*-` or `-*- Python -*-`.
	emacsMode = regexp.MustCompile(`-\*-\s*(?:[^;]*?;\s*)*?(?:(?i:mode):\s*)?([A-Za-z0-9+_-]+)\s*(?:;[^\n]*?)?-\*-`)
	// vimMode: `vim: set ft=python:`, `vi: filetype=ruby`, `ex: syntax=c`.
	vimMode = regexp.MustCompile(`(?:^|\s)(?:vim?|ex):.*?\b(?:ft|filetype|syntax)=([A-Za-z0-9+_-]+)`)
)

// modeLine finds an Emacs or Vim mode line in the first five lines of head
// and returns the language it names ("" if none this package reads) and
// the mode as written ("" when there is no mode line).
func modeLine(head []byte) (lang, mode string) {
	lines := bytes.FieldsFunc(head, func(r rune) bool { return r == '\n' || r == '\r' })
	for i, l := range lines {
		if i == 5 {
			break
		}
		m := emacsMode.FindSubmatch(l)
		if m == nil {
			m = vimMode.FindSubmatch(l)
		}
		if m == nil {
			continue
		}
		mode = string(m[1])
		return modeNames[strings.ToLower(mode)], mode
	}
	return "", ""
}

// perlLine matches a line that only Perl starts that way.
var perlLine = regexp.MustCompile(`(?m)^\s*(?:use\s+(?:strict|warnings|vars|constant|lib)\b[^.\n]*;|my\s+[$@%]|our\s+[$@%]|sub\s+\w+\s*\{|package\s+[\w:]+\s*;|=(?:pod|head\d)\b)`)

// isPerlScript reports whether a .pl file's start is Perl: a #! line
// naming perl, or a statement only Perl starts a line with.
func isPerlScript(head []byte) bool {
	if prog, ok := shebang(head); ok {
		return strings.HasPrefix(prog, "perl")
	}
	return perlLine.Match(head)
}

var (
	// proGuardLine matches a line that starts with a ProGuard/R8 option.
	proGuardLine = regexp.MustCompile(`(?m)^[ \t]*-(?:keep[a-z]*|dont[a-z]+|include|injars|outjars|libraryjars|assume[a-z]+|optimizations|optimizationpasses|repackageclasses|flattenpackagehierarchy|allowaccessmodification|renamesourcefileattribute|adapt[a-z]+|printmapping|printseeds|printusage|printconfiguration|applymapping|ignorewarnings|verbose|target|basedirectory)\b`)
	// qmakeLine matches a line that assigns one of qmake's variables.
	qmakeLine = regexp.MustCompile(`(?m)^[ \t]*(?:TEMPLATE|QT|CONFIG|SOURCES|HEADERS|FORMS|TARGET|INCLUDEPATH|DEPENDPATH|LIBS|DEFINES|SUBDIRS|RESOURCES|DESTDIR|OTHER_FILES|DISTFILES|TRANSLATIONS)[ \t]*[-+*~]?=`)
	// hashComment matches a `#` comment as the first non-blank line: a
	// shell-style comment (`# ...`, `###`, a lone `#`), never a `#!` line.
	hashComment = regexp.MustCompile(`\A[ \t\r\n]*#(?:[ \t#]|\r|\n|\z)`)
)

// notPrologPro says how a .pro file's start shows it is not Prolog (its
// Detection.By and what it is), or "" when it may be Prolog.
func notPrologPro(head []byte) (by, what string) {
	head = bytes.TrimPrefix(head, []byte("\uFEFF"))
	switch {
	case proGuardLine.Match(head):
		return "content: ProGuard", "a ProGuard configuration"
	case qmakeLine.Match(head):
		return "content: qmake", "a qmake project file"
	case hashComment.Match(head):
		return "content: # comment", "starts with a # comment, not Prolog"
	}
	return "", ""
}

// cppWords are the C++ keywords that make a .h header C++ where C cannot
// use them as it would an identifier (see cppUse). nullptr, constexpr and
// static_assert are left out: C23 has them too.
var cppWords = map[string]bool{
	"namespace": true, "class": true, "template": true, "typename": true, "using": true,
	"public": true, "private": true, "protected": true, "virtual": true, "operator": true,
	"decltype": true, "noexcept": true, "explicit": true, "friend": true, "mutable": true,
	"consteval": true, "concept": true,
}

// maxCPPScan bounds how much of a header cppConstruct reads.
const maxCPPScan = 1 << 20

// cppConstruct returns the first C++ construct of a header (outside
// comments, string and character literals and preprocessor lines) and its
// 1-based line, or "" if there is none: a C++ keyword used as C++ uses it
// (see cppUse), or `::` between names.
func cppConstruct(src []byte) (string, int) {
	src = src[:min(len(src), maxCPPScan)]
	line := 1
	atLineStart := true
	newline := func(i int) bool { // src[i] ends a line
		return src[i] == '\n' || src[i] == '\r' && (i+1 == len(src) || src[i+1] != '\n')
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case newline(i):
			line++
			atLineStart = true
			continue
		case c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r':
			continue
		case c == '#' && atLineStart:
			// A preprocessor line: skip to its end, following backslash
			// continuations. The loop counts the newline that ends it.
			for i+1 < len(src) {
				if newline(i + 1) {
					if src[i] != '\\' && !(src[i] == '\r' && i > 0 && src[i-1] == '\\') {
						break
					}
					line++
				}
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i+1 < len(src) && !newline(i+1) {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return "", 0
			}
			body := src[i : i+2+end]
			line += bytes.Count(body, []byte("\n")) + loneCRs(body)
			i += 2 + end + 1
			continue
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			i = j
			atLineStart = false
			continue
		}
		atLineStart = false
		if c == ':' && i > 0 && i+2 < len(src) && src[i+1] == ':' && isIdentByte(src[i-1]) && (isIdentByte(src[i+2]) || src[i+2] == '~') {
			return "::", line
		}
		if !isIdentByte(c) {
			continue
		}
		j := i
		for j < len(src) && isIdentByte(src[j]) {
			j++
		}
		if word := string(src[i:j]); cppWords[word] && cppUse(word, src[j:]) {
			return word, line
		}
		i = j - 1
	}
	return "", 0
}

// cppUse reports whether the C++ keyword word, followed by rest, is used
// as C++ uses it, not as a C identifier (`int class;`, `f(private)`).
func cppUse(word string, rest []byte) bool {
	rest = bytes.TrimLeft(rest[:min(len(rest), 256)], " \t\r\n")
	if len(rest) == 0 {
		return false
	}
	next := rest[0]
	nameNext := isIdentByte(next) && !(next >= '0' && next <= '9')
	switch word {
	case "public", "private", "protected":
		return next == ':' && !bytes.HasPrefix(rest, []byte("::"))
	case "template":
		return next == '<'
	case "namespace":
		return nameNext || next == '{'
	case "operator":
		return strings.ContainsRune("=+-*/<>!()[]&|^%~,", rune(next)) || bytes.HasPrefix(rest, []byte("new")) || bytes.HasPrefix(rest, []byte("delete"))
	case "decltype", "noexcept":
		return next == '('
	}
	// class, typename, using, virtual, explicit, friend, mutable,
	// consteval, concept: followed by a name.
	return nameNext
}

// loneCRs counts the carriage returns in b not followed by a newline.
func loneCRs(b []byte) int {
	n := 0
	for i, c := range b {
		if c == '\r' && (i+1 == len(b) || b[i+1] != '\n') {
			n++
		}
	}
	return n
}
