package sourcefacts

import (
	"path"
	"strconv"
	"strings"
)

// Scopes places one tree's files in scopes — Go packages, Python and
// JavaScript/TypeScript modules, Java packages, Rust modules — and
// resolves what a call's Module names to one of them, or to a module
// outside the tree, so that a call resolved in its own file (Reference.Via)
// names the definition it calls across the tree (Call).
//
// Scope keys are strings: "go:DIR:PKG" (DIR "." at the root), "py:MODULE"
// (the module's path without .py or /__init__), "js:PATH" (the path
// without its extension), "java:PACKAGE", "rs:PATH" (without .rs, a
// mod.rs by its directory), "cpp:" (every C++ file: classes are found by
// name across the tree); "" for a file of another language.
//
// Import paths are mapped to the tree without reading go.mod or any
// configuration: the tree's own imports say where it sits. Each
// absolute import path that names a directory (Go) or module (Python) of
// the tree by a common suffix votes for one offset between the two (the
// tree is "net/http" when its files import "net/http/internal/ascii"
// and it has internal/ascii); the offset with the most votes maps every
// import path. A Go vote counts only if the directory's package has the
// name the import path binds. Relative imports (Python's leading dots,
// JavaScript's ./ and ../) are resolved from the importing file.
type Scopes struct {
	root string     // base name of the tree's root directory ("" if unknown)
	t    ScopeTable // the tree's definitions, modules and imports
	rec  ScopeKeys  // when not nil, every lookup made in t (Recording)
}

// embedded is a Go struct's embedded field: its type, in scope.
type embedded struct{ scope, typ string }

// CallTarget is where a call's callee is, across the tree.
type CallTarget struct {
	// Via is the call's Reference.Via, or ViaName when what it resolved
	// to declares no such name in the tree (a builtin, a method promoted
	// from a type this resolution does not follow, an inherited one).
	Via string
	// Scope is the callee's scope (Scopes.Of's form), or "ext:" and the
	// module as the file imports it when it is outside the tree; "" by
	// name or for a local variable.
	Scope string
	// Type is the callee's type (class, struct) in Scope; "" for a
	// top-level function.
	Type string
}

// NewScopes indexes files, every file of one tree, in memory; root is
// the tree's root directory (its base name places a Python package at the
// root), "" if unknown. Where files declare the same name in one scope,
// the file whose path is least declares it.
func NewScopes(root string, files []*FileFacts) *Scopes {
	fss := make([]FileScope, len(files))
	for i, f := range files {
		fss[i] = FileScopeOf(f)
	}
	return NewScopesOf(root, fss)
}

// NewScopesOf is NewScopes from the files' contributions (FileScopeOf of
// every file of the tree), so that a caller need not hold every file's
// facts at once; files is not changed or kept, the FileScopes' slices
// are.
func NewScopesOf(root string, files []FileScope) *Scopes {
	return NewScopesOver(root, newMemTable(rootBase(root), files))
}

// NewScopesOver resolves calls over table t, the scopes of one tree
// rooted at root (see NewScopes) kept elsewhere.
func NewScopesOver(root string, t ScopeTable) *Scopes {
	return &Scopes{root: rootBase(root), t: t}
}

// RootBase is the name a tree's root directory gives a Python package at
// its root (the root's base name; "" if root is ""), as LearnOffset wants
// it.
func RootBase(root string) string { return rootBase(root) }

func rootBase(root string) string {
	if root == "" {
		return ""
	}
	return path.Base(strings.ReplaceAll(root, "\\", "/"))
}

// Recording is s recording in keys every lookup that resolution makes in
// the tree's table (see ScopeKey): the answer of a later resolution of the
// same file's calls is the same as long as ScopeValue of none of them
// changes. The Scopes returned must not be used concurrently.
func (s *Scopes) Recording(keys ScopeKeys) *Scopes {
	return &Scopes{root: s.root, t: s.t, rec: keys}
}

// Table is the table s resolves over.
func (s *Scopes) Table() ScopeTable { return s.t }

// Of is the scope key of the file at path p ("" if it has none).
func (s *Scopes) Of(p string) string {
	f, _ := s.t.File(p)
	return f.Scope
}

// ScopeOf is the scope key of f (what Scopes.Of says of its path).
func ScopeOf(f *FileFacts) string {
	key, _ := place(f)
	return key
}

// Name is the name a qualifier uses for scope key: a Go package's name,
// a module's or package's last name.
func (s *Scopes) Name(key string) string { return qualifierName(key, s.root) }

// The lookups resolution makes in the table, each recorded.

func (s *Scopes) look(k ScopeKey) {
	if s.rec != nil {
		s.rec[k] = struct{}{}
	}
}

func (s *Scopes) def(scope, typ, name string) (DefAt, bool) {
	s.look(ScopeKey{Kind: 'd', A: scope, B: typ, C: name})
	return s.t.Def(scope, typ, name)
}

func (s *Scopes) file(p string) (ScopeFile, bool) {
	s.look(ScopeKey{Kind: 'c', A: p})
	return s.t.File(p)
}

func (s *Scopes) goDir(dir string) string {
	s.look(ScopeKey{Kind: 'g', A: dir})
	return bestGoPackage(s.t.EntriesAt(entryGoPackage, dir))
}

// registered is the scope key of module a of entry kind, "" when the
// tree has none.
func (s *Scopes) registered(kind, a string) string {
	s.look(ScopeKey{Kind: 'm', A: kind, B: a})
	if len(s.t.EntriesAt(kind, a)) == 0 {
		return ""
	}
	return moduleKey(kind, a)
}

func (s *Scopes) offset(lang string) ImportOffset {
	s.look(ScopeKey{Kind: 'o', A: lang})
	return s.t.Offset(lang)
}

func (s *Scopes) rustRoots() []string {
	s.look(ScopeKey{Kind: 'R'})
	return rustRoots(s.t)
}

// embeddedOf are the types typ of scope inherits members from (a Go
// struct's embedded types, a class's bases), in scope: a qualified
// one through its file's imports, in the tree (others are not followed).
func (s *Scopes) embeddedOf(scope, typ string) []embedded {
	s.look(ScopeKey{Kind: 'e', A: scope, B: typ})
	var out []embedded
	for _, fa := range s.t.Fields(scope, typ) {
		if fa.Qual == "" {
			out = append(out, embedded{scope: scope, typ: fa.Name})
			continue
		}
		f, ok := s.file(fa.Path)
		if !ok {
			continue
		}
		if f.Language != LangGo {
			// A class's base: Qual is the module as the import spells it.
			if k, t, ext := s.module(f, fa.Qual, fa.Name); !ext && t != "" {
				out = append(out, embedded{scope: k, typ: t})
			}
			continue
		}
		for _, im := range f.Imports {
			if im.Alias == fa.Qual || im.Alias == "" && GoPackageName(im.Path) == fa.Qual {
				if k, _, ext := s.module(f, im.Path, ""); !ext {
					out = append(out, embedded{scope: k, typ: fa.Name})
					break
				}
			}
		}
	}
	return out
}

// Call resolves reference r of file f.
func (s *Scopes) Call(f *FileFacts, r Reference) CallTarget {
	switch r.Via {
	case ViaImport, ViaReceiver, ViaScope:
	case ViaLocal:
		return CallTarget{Via: ViaLocal}
	default:
		return CallTarget{}
	}
	c := scopeOf(f)
	if r.Module == "" {
		// The file's own scope, then (Go) the packages it dot-imports.
		for _, sc := range s.ownScopes(c) {
			if t := s.resolve(r, sc, r.Type, false); t.Via != "" {
				return t
			}
		}
		if t := s.javaLang(c, r); t.Via != "" {
			return t
		}
		return CallTarget{}
	}
	scope, typ, ext := s.module(c, r.Module, r.Type)
	return s.resolve(r, scope, typ, ext)
}

// ownScopes are the scopes an unqualified name of f may be declared in:
// its own, and for Go those of the packages it imports with ".".
func (s *Scopes) ownScopes(f ScopeFile) []string {
	out := []string{f.Scope}
	if f.Language == LangGo {
		for _, im := range f.Imports {
			if im.Alias == "." {
				if sc, _, ext := s.module(f, im.Path, ""); !ext {
					out = append(out, sc)
				}
			}
		}
	}
	return out
}

// javaLang places a Java call on a class its file neither declares,
// imports nor finds in its own package (String.format, Math.max) in
// java.lang, outside the tree — unless a wildcard import could hold the
// class.
func (s *Scopes) javaLang(f ScopeFile, r Reference) CallTarget {
	if f.Language != LangJava || r.Type == "" || r.Path != "" || strings.Contains(r.Type, ".") {
		return CallTarget{}
	}
	if _, ok := s.def(f.Scope, "", r.Type); ok {
		return CallTarget{} // declared in the package, but not the method: by name
	}
	for _, im := range f.Imports {
		if strings.HasSuffix(im.Path, ".*") {
			return CallTarget{}
		}
	}
	return CallTarget{Via: r.Via, Scope: extScope + "java.lang", Type: r.Type}
}

// resolve finishes Call from the scope and type r's Module names.
func (s *Scopes) resolve(r Reference, scope, typ string, ext bool) CallTarget {
	if scope == "" {
		return CallTarget{}
	}
	if r.Path != "" && !ext {
		var ok bool
		if scope, typ, ok = s.follow(scope, typ, strings.Split(r.Path, ".")); !ok {
			return CallTarget{}
		}
		ext = strings.HasPrefix(scope, extScope)
	}
	if ext {
		return CallTarget{Via: r.Via, Scope: scope, Type: typ}
	}
	if sc, t, _, ok := s.member(scope, typ, r.Name, 0); ok {
		return CallTarget{Via: r.Via, Scope: sc, Type: t}
	}
	return CallTarget{}
}

// extScope starts the scope of a module outside the tree.
const extScope = "ext:"

// member finds the definition of name in type typ of scope (typ "": at
// the top of scope), or in a type a Go struct embeds, a class inherits
// from or an alias stands for (depth-first, depth bounded by
// maxMemberDepth). It returns the scope and type that define name and the
// definition.
func (s *Scopes) member(scope, typ, name string, depth int) (string, string, DefAt, bool) {
	var failed map[scopeType]int // made at the first failure below the start
	return s.memberIn(scope, typ, name, depth, &failed)
}

// maxMemberDepth bounds the steps (bases, embedded types, aliases) member
// takes from the type it starts at.
const maxMemberDepth = 4

// scopeType is a type of a scope (typ "": the scope's top level).
type scopeType struct{ scope, typ string }

// memberIn is member with *failed: for each type already searched for
// name without finding it, the least depth it was searched from. A type
// met again at that depth or deeper can reach only what that search
// reached, so it is not searched again: the answer is the one the
// unmemoised depth-first search gives, in time linear in the bases and
// embedded types within reach rather than exponential in them (a class
// whose bases all inherit from each other).
func (s *Scopes) memberIn(scope, typ, name string, depth int, failed *map[scopeType]int) (string, string, DefAt, bool) {
	k := scopeType{scope, typ}
	if d, ok := (*failed)[k]; ok && depth >= d {
		return "", "", DefAt{}, false
	}
	if d, ok := s.def(scope, typ, name); ok {
		return scope, typ, d, true
	}
	if typ == "" || depth >= maxMemberDepth {
		return "", "", DefAt{}, false
	}
	if a, ok := s.def(scope, "", typ); ok && a.Kind == KindType && a.Decl != "" {
		if sc, t, ok := s.typeOf(a, a.Decl); ok && !strings.HasPrefix(sc, extScope) {
			return s.memberIn(sc, t, name, depth+1, failed) // an alias
		}
	}
	for _, e := range s.embeddedOf(scope, typ) {
		if sc, t, d, ok := s.memberIn(e.scope, e.typ, name, depth+1, failed); ok {
			return sc, t, d, true
		}
	}
	if depth > 0 { // the search from the start is over: nothing to remember
		if *failed == nil {
			*failed = map[scopeType]int{}
		}
		// Any entry for k is a deeper visit from within this one: this
		// depth is the least.
		(*failed)[k] = depth
	}
	return "", "", DefAt{}, false
}

// follow walks path (Reference.Path's steps) from type typ of scope
// (typ "": the scope's top level) through the declarations of the tree:
// a field or variable to its declared type, a call of a function or
// method to the type of its result, a call of a type (a conversion) to
// that type. It stops, false, at a step it cannot take, and at a module
// outside the tree with steps left.
func (s *Scopes) follow(scope, typ string, path []string) (string, string, bool) {
	// Between steps the value is a named type (scope, typ), or a type
	// written in place (text, as declaration at writes it: a slice, a
	// map, a channel) that only an element step can follow.
	var text string
	var at DefAt
	for _, step := range path {
		if strings.HasPrefix(scope, extScope) {
			return "", "", false
		}
		if step == elemStep {
			if text == "" {
				// A named slice, map or channel type: its definition.
				d, ok := s.def(scope, "", typ)
				if !ok || d.Kind != KindType || d.Decl == "" {
					return "", "", false
				}
				text, at = d.Decl, d
			}
			text = goElem(text)
			if text == "" {
				return "", "", false
			}
			if sc, t, ok := s.typeOf(at, text); ok {
				scope, typ, text = sc, t, ""
			}
			continue
		}
		if text != "" {
			return "", "", false
		}
		name, call, result := parseStep(step)
		sc, t, d, ok := s.member(scope, typ, name, 0)
		if !ok {
			return "", "", false
		}
		var next string
		switch {
		case call && result >= 0 && (d.Kind == KindFunction || d.Kind == KindMethod):
			next = goResult(d.Decl, result)
		case call && result == 0 && t == "" && isTypeKind(d.Kind):
			scope, typ = sc, name
			continue
		case !call && (d.Kind == KindField || d.Kind == KindVariable || d.Kind == KindConstant):
			next = d.Decl
		default:
			return "", "", false
		}
		if scope, typ, ok = s.typeOf(d, next); !ok {
			if strings.TrimSpace(next) == "" {
				return "", "", false
			}
			text, at = next, d // a slice, map or channel: elements may follow
		}
	}
	if text != "" {
		return "", "", false
	}
	return scope, typ, true
}

// elemStep is the Path step to an element: an index of a slice, array or
// map, a receive from a channel, a range's value.
const elemStep = "[]"

func isTypeKind(k string) bool {
	return k == KindType || k == KindStruct || k == KindInterface || k == KindClass || k == KindEnum
}

// parseStep reads a Path step: "name", "name()" (result 0), "name()N"
// (result -1 when N is not a number).
func parseStep(step string) (name string, call bool, result int) {
	i := strings.Index(step, "()")
	if i < 0 {
		return step, false, 0
	}
	if rest := step[i+2:]; rest != "" {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 {
			return step[:i], true, -1
		}
		result = n
	}
	return step[:i], true, result
}

// typeOf resolves a Go type as declaration d writes it to a scope and
// type: unqualified in d's own scope, qualified through d's file's
// imports (possibly outside the tree).
func (s *Scopes) typeOf(d DefAt, text string) (string, string, bool) {
	if d.Path == "" {
		return "", "", false
	}
	f, ok := s.file(d.Path)
	if !ok || f.Language != LangGo {
		return "", "", false
	}
	qual, name, ok := goTypeText(text)
	if !ok {
		return "", "", false
	}
	if qual == "" {
		// Declared in the file's own package, or one it dot-imports.
		own := s.ownScopes(f)
		for _, sc := range own {
			if t, ok := s.def(sc, "", name); ok && isTypeKind(t.Kind) {
				return sc, name, true
			}
		}
		return own[0], name, true
	}
	for _, im := range f.Imports {
		if im.Alias == qual || im.Alias == "" && GoPackageName(im.Path) == qual {
			sc, _, _ := s.module(f, im.Path, "")
			return sc, name, true
		}
	}
	return "", "", false
}

// module resolves module m (as f imports it) and the names after it
// (typ, dotted) to a scope of the tree and the type in it, or to "ext:"
// and m outside the tree (ext true). Names after a module may name a
// module inside it (Python `from json import decoder`): the longest
// module wins.
func (s *Scopes) module(f ScopeFile, m, typ string) (scope, t string, ext bool) {
	names := []string{}
	if typ != "" {
		names = strings.Split(typ, ".")
	}
	sep := "."
	switch f.Language {
	case LangGo:
		if k := s.imported(LangGo, "/"+m); k != "" {
			return k, typ, false
		}
		return extScope + m, typ, true
	case LangRust:
		sep = "::"
	case LangJavaScript, LangTypeScript:
		// A module is a file: the names after it are members, never
		// part of its path ("./base" + "Base" is not "./base.Base",
		// which would read as a file with the extension .Base).
		if k := s.inTree(f, m); k != "" {
			return k, typ, false
		}
		return extScope + m, typ, true
	}
	for i := len(names); i >= 0; i-- {
		spec := m
		if i > 0 {
			spec += sep + strings.Join(names[:i], sep)
		}
		if k := s.inTree(f, spec); k != "" {
			return k, strings.Join(names[i:], "."), false
		}
	}
	return extScope + m, typ, true
}

// imported maps the slash-led absolute import path m of lang by the
// tree's offset to the key of a Go directory's package or a Python
// module, or "".
func (s *Scopes) imported(lang, m string) string {
	o := s.offset(lang)
	rest, ok := strings.CutPrefix(m, o.Add)
	if !ok || rest != "" && rest[0] != '/' {
		return ""
	}
	if lang == LangGo {
		return s.goDir(o.Strip + rest)
	}
	return s.registered(entryPython, o.Strip+rest)
}

// inTree is the key of the module spec names (as file f spells it), or ""
// when the tree has none.
func (s *Scopes) inTree(f ScopeFile, spec string) string {
	dir := path.Dir(f.Path)
	switch f.Language {
	case LangPython:
		if strings.HasPrefix(spec, ".") {
			rest := strings.TrimLeft(spec, ".")
			d := dir
			for i := 1; i < len(spec)-len(rest); i++ {
				d = path.Dir(d)
			}
			p := d
			if rest != "" {
				p = path.Join(d, strings.ReplaceAll(rest, ".", "/"))
			}
			if p == "." {
				return s.registered(entryPython, "")
			}
			return s.registered(entryPython, "/"+p)
		}
		return s.imported(LangPython, "/"+strings.ReplaceAll(spec, ".", "/"))
	case LangJavaScript, LangTypeScript:
		if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
			return ""
		}
		p := path.Join(dir, spec)
		if strings.HasPrefix(p, "../") {
			return ""
		}
		for _, c := range []string{strings.TrimSuffix(p, path.Ext(p)), p, p + "/index"} {
			if k := s.registered(entryJS, c); k != "" {
				return k
			}
		}
	case LangJava:
		return s.registered(entryJava, spec)
	case LangRust:
		return s.rustModule(f, spec)
	}
	return ""
}

// rustModule resolves crate::, self:: and super:: paths to a module
// file of the tree.
func (s *Scopes) rustModule(f ScopeFile, spec string) string {
	parts := strings.Split(spec, "::")
	var bases []string
	switch parts[0] {
	case "crate":
		bases = s.rustRoots()
	case "self", "super":
		own := strings.TrimPrefix(f.Scope, "rs:")
		if own == "" {
			return ""
		}
		b := own
		if parts[0] == "super" {
			b = path.Dir(own)
		}
		bases = []string{b}
	default:
		return ""
	}
	rest := strings.Join(parts[1:], "/")
	for _, b := range bases {
		p := b
		if rest != "" {
			p = path.Join(b, rest)
		}
		if k := s.registered(entryRust, p); k != "" {
			return k
		}
	}
	return ""
}
