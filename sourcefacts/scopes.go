package sourcefacts

import (
	"cmp"
	"maps"
	"path"
	"slices"
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
	root     string             // base name of the tree's root directory ("" if unknown)
	of       map[string]string  // file path -> scope key
	names    map[string]string  // scope key -> the name a qualifier uses for it
	defs     map[defKey]defInfo // every definition, by scope, type and name
	goDirs   map[string]string  // "/dir" ("" at the root) -> key of its importable package
	goOff    offset
	pyMods   map[string]string // "/module/path" ("" a root __init__.py) -> key
	pyOff    offset
	jsMods   map[string]string // path without extension -> key
	javaPkgs map[string]bool
	rsMods   map[string]string // path without .rs (mod.rs: its directory) -> key
	rsRoots  []string          // directories holding a lib.rs or main.rs
	fields   map[defKey][]embedded
	goVotes  map[string]int // "/dir\x00key" -> non-test files of the directory declaring that package
}

type defKey struct{ scope, typ, name string }

// defInfo is what following a path needs of a definition: its kind, the
// type its declaration writes (Symbol.Type) and its file (whose imports
// qualify that type).
type defInfo struct {
	kind, typ string
	file      *FileFacts
}

// embedded is a Go struct's embedded field: its type, in scope.
type embedded struct{ scope, typ string }

// offset maps an import path to a scope: "/" + path = add + rest and the
// key's path = strip + rest.
type offset struct{ strip, add string }

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

// NewScopes indexes files, every file of one tree; root is the tree's
// root directory (its base name places a Python package at the root),
// "" if unknown.
func NewScopes(root string, files []*FileFacts) *Scopes {
	s := &Scopes{of: map[string]string{}, names: map[string]string{}, defs: map[defKey]defInfo{}, goDirs: map[string]string{},
		pyMods: map[string]string{}, jsMods: map[string]string{}, javaPkgs: map[string]bool{}, rsMods: map[string]string{},
		fields: map[defKey][]embedded{}}
	if root != "" {
		s.root = path.Base(strings.ReplaceAll(root, "\\", "/"))
	}
	s.goVotes = map[string]int{}
	for _, f := range files {
		s.place(f)
	}
	// A directory's importable package is the one most of its non-test
	// files declare (not a `package main` tool beside it, say).
	best := map[string]int{}
	for _, dk := range slices.Sorted(maps.Keys(s.goVotes)) {
		dir, key, _ := strings.Cut(dk, "\x00")
		if n := s.goVotes[dk]; n > best[dir] {
			best[dir], s.goDirs[dir] = n, key
		}
	}
	for _, f := range files {
		key := s.of[f.Provenance.Path]
		for _, y := range f.Symbols {
			typ := y.Receiver
			if typ == "" {
				typ = y.Container
			}
			if k := (defKey{key, typ, y.Name}); s.defs[k].file == nil {
				s.defs[k] = defInfo{kind: y.Kind, typ: y.Type, file: f}
			}
			if f.Language == LangGo && y.Kind == KindField && y.Container != "" {
				if e, ok := s.goEmbedded(f, y); ok {
					k := defKey{key, "", y.Container}
					s.fields[k] = append(s.fields[k], e)
				}
			}
		}
	}
	s.goOff = s.learn(files, LangGo, s.goDirs)
	s.pyOff = s.learn(files, LangPython, s.pyMods)
	return s
}

// place records f's scope.
func (s *Scopes) place(f *FileFacts) {
	p := f.Provenance.Path
	dir := path.Dir(p)
	slashDir := "/" + dir
	if dir == "." {
		slashDir = ""
	}
	var key, name string
	switch f.Language {
	case LangGo:
		if f.Package == "" {
			return
		}
		key, name = "go:"+dir+":"+f.Package, f.Package
		if !strings.HasSuffix(f.Package, "_test") {
			s.goVotes[slashDir+"\x00"+key]++
		}
	case LangPython:
		mod := strings.TrimSuffix(p, path.Ext(p))
		if path.Base(mod) == "__init__" {
			mod = path.Dir(mod)
		}
		slashMod := "/" + mod
		if mod == "." {
			slashMod, mod = "", "."
		}
		key, name = "py:"+mod, path.Base(mod)
		if mod == "." {
			name = s.root
		}
		s.pyMods[slashMod] = key
	case LangJavaScript, LangTypeScript:
		mod := strings.TrimSuffix(p, path.Ext(p))
		key, name = "js:"+mod, path.Base(mod)
		if name == "index" && dir != "." {
			name = path.Base(dir)
		}
		s.jsMods[mod] = key
	case LangJava:
		pkg := f.Package
		if pkg == "" {
			pkg = "." + dir // the default package, per directory
		}
		key, name = "java:"+pkg, pkg[strings.LastIndexByte(pkg, '.')+1:]
		s.javaPkgs[pkg] = true
	case LangCPP:
		// Classes are looked up across the tree: #include binds no
		// name, and a namespace is no file.
		key = "cpp:"
	case LangRust:
		mod := strings.TrimSuffix(p, ".rs")
		switch path.Base(mod) {
		case "mod":
			mod = path.Dir(mod)
		case "lib", "main":
			s.rsRoots = append(s.rsRoots, dir)
			mod = dir
		}
		key, name = "rs:"+mod, path.Base(mod)
		s.rsMods[mod] = key
	default:
		return
	}
	s.of[p] = key
	s.names[key] = name
}

// Of is the scope key of the file at path p ("" if it has none).
func (s *Scopes) Of(p string) string { return s.of[p] }

// Name is the name a qualifier uses for scope key: a Go package's name,
// a module's or package's last name.
func (s *Scopes) Name(key string) string { return s.names[key] }

// learn finds the offset between the absolute imports of files of lang
// and the tree's scopes (see Scopes).
func (s *Scopes) learn(files []*FileFacts, lang string, scopes map[string]string) offset {
	votes := map[offset]int{}
	for _, f := range files {
		if f.Language != lang {
			continue
		}
		for _, im := range f.Imports {
			m := "/" + strings.ReplaceAll(im.Path, ".", "/")
			if lang == LangGo {
				m = "/" + im.Path
			} else if strings.HasPrefix(im.Path, ".") {
				continue // relative: resolved from the file
			}
			for k, key := range scopes {
				var o offset
				switch {
				case k == m:
				case strings.HasSuffix(k, m):
					o.strip = k[:len(k)-len(m)]
				case strings.HasSuffix(m, k): // also the root ("")
					o.add = m[:len(m)-len(k)]
				default:
					continue
				}
				if s.names[key] != lastName(im.Path, lang) {
					continue
				}
				votes[o]++
			}
		}
	}
	var best offset
	n := 0
	for o, v := range votes {
		if v > n || v == n && len(o.add)+len(o.strip) < len(best.add)+len(best.strip) ||
			v == n && len(o.add)+len(o.strip) == len(best.add)+len(best.strip) && cmp.Or(cmp.Compare(o.add, best.add), cmp.Compare(o.strip, best.strip)) < 0 {
			best, n = o, v
		}
	}
	return best
}

// lastName is the name an import path binds by default.
func lastName(p, lang string) string {
	if lang == LangGo {
		return GoPackageName(p)
	}
	return p[strings.LastIndexByte(p, '.')+1:]
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
	if r.Module == "" {
		// The file's own scope, then (Go) the packages it dot-imports.
		for _, sc := range s.ownScopes(f) {
			if t := s.resolve(r, sc, r.Type, false); t.Via != "" {
				return t
			}
		}
		if t := s.javaLang(f, r); t.Via != "" {
			return t
		}
		return CallTarget{}
	}
	scope, typ, ext := s.module(f, r.Module, r.Type)
	return s.resolve(r, scope, typ, ext)
}

// ownScopes are the scopes an unqualified name of f may be declared in:
// its own, and for Go those of the packages it imports with ".".
func (s *Scopes) ownScopes(f *FileFacts) []string {
	out := []string{s.of[f.Provenance.Path]}
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
func (s *Scopes) javaLang(f *FileFacts, r Reference) CallTarget {
	if f.Language != LangJava || r.Type == "" || r.Path != "" || strings.Contains(r.Type, ".") {
		return CallTarget{}
	}
	if _, ok := s.defs[defKey{s.of[f.Provenance.Path], "", r.Type}]; ok {
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
// the top of scope), or in a type a Go struct embeds or an alias stands
// for (depth-first, depth bounded).
func (s *Scopes) member(scope, typ, name string, depth int) (string, string, defInfo, bool) {
	if d, ok := s.defs[defKey{scope, typ, name}]; ok {
		return scope, typ, d, true
	}
	if typ == "" || depth >= 4 {
		return "", "", defInfo{}, false
	}
	if a, ok := s.defs[defKey{scope, "", typ}]; ok && a.kind == KindType && a.typ != "" {
		if sc, t, ok := s.typeOf(a, a.typ); ok && !strings.HasPrefix(sc, extScope) {
			return s.member(sc, t, name, depth+1) // an alias
		}
	}
	for _, e := range s.fields[defKey{scope, "", typ}] {
		if sc, t, d, ok := s.member(e.scope, e.typ, name, depth+1); ok {
			return sc, t, d, true
		}
	}
	return "", "", defInfo{}, false
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
	var at defInfo
	for _, step := range path {
		if strings.HasPrefix(scope, extScope) {
			return "", "", false
		}
		if step == elemStep {
			if text == "" {
				// A named slice, map or channel type: its definition.
				d, ok := s.defs[defKey{scope, "", typ}]
				if !ok || d.kind != KindType || d.typ == "" {
					return "", "", false
				}
				text, at = d.typ, d
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
		case call && result >= 0 && (d.kind == KindFunction || d.kind == KindMethod):
			next = goResult(d.typ, result)
		case call && result == 0 && t == "" && isTypeKind(d.kind):
			scope, typ = sc, name
			continue
		case !call && (d.kind == KindField || d.kind == KindVariable || d.kind == KindConstant):
			next = d.typ
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
func (s *Scopes) typeOf(d defInfo, text string) (string, string, bool) {
	if d.file == nil || d.file.Language != LangGo {
		return "", "", false
	}
	qual, name, ok := goTypeText(text)
	if !ok {
		return "", "", false
	}
	if qual == "" {
		// Declared in the file's own package, or one it dot-imports.
		own := s.ownScopes(d.file)
		for _, sc := range own {
			if t, ok := s.defs[defKey{sc, "", name}]; ok && isTypeKind(t.kind) {
				return sc, name, true
			}
		}
		return own[0], name, true
	}
	for _, im := range d.file.Imports {
		if im.Alias == qual || im.Alias == "" && GoPackageName(im.Path) == qual {
			sc, _, _ := s.module(d.file, im.Path, "")
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
func (s *Scopes) module(f *FileFacts, m, typ string) (scope, t string, ext bool) {
	names := []string{}
	if typ != "" {
		names = strings.Split(typ, ".")
	}
	sep := "."
	switch f.Language {
	case LangGo:
		if k := s.goOff.apply("/"+m, s.goDirs); k != "" {
			return k, typ, false
		}
		return extScope + m, typ, true
	case LangRust:
		sep = "::"
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

// apply maps the slash-led path m by o to a key of scopes, or "".
func (o offset) apply(m string, scopes map[string]string) string {
	rest, ok := strings.CutPrefix(m, o.add)
	if !ok || rest != "" && rest[0] != '/' {
		return ""
	}
	return scopes[o.strip+rest]
}

// inTree is the key of the module spec names (as file f spells it), or ""
// when the tree has none.
func (s *Scopes) inTree(f *FileFacts, spec string) string {
	dir := path.Dir(f.Provenance.Path)
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
				return s.pyMods[""]
			}
			return s.pyMods["/"+p]
		}
		return s.pyOff.apply("/"+strings.ReplaceAll(spec, ".", "/"), s.pyMods)
	case LangJavaScript, LangTypeScript:
		if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
			return ""
		}
		p := path.Join(dir, spec)
		if strings.HasPrefix(p, "../") {
			return ""
		}
		for _, c := range []string{strings.TrimSuffix(p, path.Ext(p)), p, p + "/index"} {
			if k, ok := s.jsMods[c]; ok {
				return k
			}
		}
	case LangJava:
		if s.javaPkgs[spec] {
			return "java:" + spec
		}
	case LangRust:
		return s.rustModule(f, spec)
	}
	return ""
}

// rustModule resolves crate::, self:: and super:: paths to a module
// file of the tree.
func (s *Scopes) rustModule(f *FileFacts, spec string) string {
	parts := strings.Split(spec, "::")
	var bases []string
	switch parts[0] {
	case "crate":
		bases = s.rsRoots
	case "self", "super":
		own := strings.TrimPrefix(s.of[f.Provenance.Path], "rs:")
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
	for _, b := range slices.Sorted(slices.Values(bases)) {
		p := b
		if rest != "" {
			p = path.Join(b, rest)
		}
		if k, ok := s.rsMods[p]; ok {
			return k
		}
	}
	return ""
}

// goEmbedded reads a Go struct field that embeds a type (its signature
// is the type alone: "T", "*T", "pkg.T", "*pkg.T") as the embedded type
// and its scope.
func (s *Scopes) goEmbedded(f *FileFacts, y Symbol) (embedded, bool) {
	sig := strings.TrimPrefix(strings.TrimSpace(y.Signature), "*")
	if sig == "" || strings.ContainsAny(sig, " \t[]()*{}") {
		return embedded{}, false
	}
	qual, name, ok := splitTypeName(sig, ".")
	if !ok || name != y.Name {
		return embedded{}, false
	}
	if qual == "" {
		return embedded{scope: s.of[f.Provenance.Path], typ: name}, true
	}
	for _, im := range f.Imports {
		if im.Alias == qual || im.Alias == "" && GoPackageName(im.Path) == qual {
			if k, _, ext := s.module(f, im.Path, ""); !ext {
				return embedded{scope: k, typ: name}, true
			}
		}
	}
	return embedded{}, false
}
