package sourcefacts

import (
	"cmp"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// Call resolution reads two things: the facts of the file whose calls it
// resolves, and a tree-wide state — every file's definitions, modules and
// imports — that it reads only through a ScopeTable, one lookup (a
// ScopeKey) at a time. Each file contributes its FileScope to the table.
// A resolution of a file is a function of the file's facts and of the
// values (ScopeValue) of the keys it looked up (recorded with
// Scopes.Recording): as long as none of those values changes, resolving
// the file again gives the same targets. So a caller that keeps the
// table and each file's keys across versions of a tree (package project)
// resolves again only the changed files and the files that looked up a
// key whose value the change moved (ScopeChanges names the keys a change
// of a file's contribution can move).

// FileScope is what one file contributes to its tree's scopes: its place
// (ScopeFile), its definitions, its Go embedded fields and its entries
// in the tree's registries (packages, modules, imports).
type FileScope struct {
	ScopeFile
	// Defs are the file's definitions as resolution finds them, the
	// first of each (Type, Name) in the file, in symbol order.
	Defs []ScopeDef
	// Fields are the file's Go embedded struct fields, in symbol order,
	// and its classes' bases, in the order written (ScopeField).
	Fields []ScopeField
	// Entries are what the file registers, one per occurrence (a Go
	// import made twice counts twice).
	Entries []ScopeEntry
}

// ScopeFile is what resolution reads of a file other than the one it
// resolves: where it is and what it imports (Path and Alias only).
type ScopeFile struct {
	Path     string
	Language string
	Scope    string // its scope key (Scopes.Of); "" if it has none
	Imports  []Import
}

// ScopeDef is a definition: Name declared in Type (a method's receiver,
// a member's container; "" at the top of its file's scope), of Kind, its
// declaration writing the type Decl (Symbol.Type); Index is its index in
// FileFacts.Symbols.
type ScopeDef struct {
	Index                  int
	Type, Name, Kind, Decl string
}

// ScopeField is a type that type Container inherits members from: a Go
// struct field that embeds a type (Name the type's name, qualified by
// Qual as written, "" for a type of the file's own package; Index the
// field's index in FileFacts.Symbols), or a base a class names (Python,
// Java, JavaScript, TypeScript: Name the base's type path in module Qual,
// spelled as the file's import spells it, "" for a class of the file's
// own scope; Index the base's index in FileFacts.References).
type ScopeField struct {
	Index                 int
	Container, Qual, Name string
}

// ScopeEntry is one registration of a file in its tree: Kind one of the
// entry kinds below, A and B what it registers.
type ScopeEntry struct{ Kind, A, B string }

// Entry kinds.
const (
	entryGoPackage = "go"     // A "/dir" ("" the root), B the scope key of a package a non-test Go file of dir declares
	entryImport    = "import" // A the language (Go, Python), B an absolute import path a file of it makes
	entryPython    = "py"     // A "/module" ("" a root __init__.py)
	entryJS        = "js"     // A a module path without its extension
	entryJava      = "java"   // A a package
	entryRust      = "rs"     // A a module path without .rs (a mod.rs: its directory)
	entryRustRoot  = "rsroot" // A a directory holding a lib.rs or main.rs
)

// EntryCount is an entry and how many registrations it has.
type EntryCount struct {
	ScopeEntry
	N int
}

// DefAt is the definition a lookup found: its file's path, kind and
// declared type (ScopeDef).
type DefAt struct{ Path, Kind, Decl string }

// FieldAt is an embedded field a lookup found: its file's path and its
// type (ScopeField).
type FieldAt struct{ Path, Qual, Name string }

// ImportOffset maps the absolute imports of a language to the tree's
// scopes: "/" + import path = Add + rest, and the scope's path is Strip +
// rest (see Scopes).
type ImportOffset struct{ Strip, Add string }

// ScopeTable is the tree-wide state call resolution reads: the
// FileScopes of every file of one tree, aggregated. Implementations:
// NewScopes' in memory; package project's in the search index file. The
// answers must be exactly those of the in-memory table for the same
// files (the lists sorted as documented), or resolution differs.
type ScopeTable interface {
	// Def is the definition of name in type typ of scope: of the
	// FileScope.Defs with that key, the one whose file's path is least,
	// then whose Index is least. false if there is none.
	Def(scope, typ, name string) (DefAt, bool)
	// File is the file at path; false if the tree has none.
	File(path string) (ScopeFile, bool)
	// Fields are the embedded fields of struct typ of scope (the
	// FileScope.Fields of files of scope with Container typ), by path,
	// then Index.
	Fields(scope, typ string) []FieldAt
	// Entries are the entries of kind with their counts, by A, then B;
	// EntriesAt those whose A is a, by B.
	Entries(kind string) []EntryCount
	EntriesAt(kind, a string) []EntryCount
	// Offset is LearnOffset's answer for lang (LangGo, LangPython) over
	// this table.
	Offset(lang string) ImportOffset
}

// ScopeKey is one lookup resolution made in a ScopeTable: a definition
// ('d': A scope, B type, C name), a file ('c': A path), the embedded
// fields of a type ('e': A scope, B type), a directory's Go package
// ('g': A "/dir"), a module's registration ('m': A entry kind, B
// module), the Rust crate roots ('R'), an import offset ('o': A
// language).
type ScopeKey struct {
	Kind    byte
	A, B, C string
}

// Hash is a 64-bit hash of k (XXH64 of its parts).
func (k ScopeKey) Hash() uint64 {
	h := xxhash.New()
	h.Write([]byte{k.Kind})
	for _, s := range []string{k.A, k.B, k.C} {
		h.WriteString(s)
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// ScopeKeys is a set of lookups (Scopes.Recording).
type ScopeKeys map[ScopeKey]struct{}

// ScopeValue is the answer t gives to lookup k, as a string: two tables
// give equal values for k exactly when a resolution reading k gets the
// same answer from both.
func ScopeValue(t ScopeTable, k ScopeKey) string {
	var b strings.Builder
	put := func(ss ...string) {
		for _, s := range ss {
			b.WriteString(strconv.Quote(s))
		}
	}
	switch k.Kind {
	case 'd':
		if d, ok := t.Def(k.A, k.B, k.C); ok {
			put(d.Path, d.Kind, d.Decl)
		}
	case 'c':
		if f, ok := t.File(k.A); ok {
			put(f.Path, f.Language, f.Scope)
			for _, im := range f.Imports {
				put(im.Path, im.Alias)
			}
		}
	case 'e':
		for _, f := range t.Fields(k.A, k.B) {
			put(f.Path, f.Qual, f.Name)
		}
	case 'g':
		put(bestGoPackage(t.EntriesAt(entryGoPackage, k.A)))
	case 'm':
		put(strconv.FormatBool(len(t.EntriesAt(k.A, k.B)) > 0))
	case 'R':
		put(rustRoots(t)...)
	case 'o':
		o := t.Offset(k.A)
		put(o.Strip, o.Add)
	}
	return b.String()
}

// ScopeChanges are the lookups whose answers can differ because a file's
// contribution to a table changed from was to now (nil: the file was
// absent, or is gone), sorted: the lookups to which the two contribute
// differently. Every lookup's answer is a function of what each file
// contributes to it, so no other lookup's answer changes.
func ScopeChanges(was, now *FileScope) []ScopeKey {
	a, b := contributions(was), contributions(now)
	var out []ScopeKey
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, compareKeys)
	return out
}

// contributions is what f contributes to the answer of each lookup, as a
// string: its place and imports (the file's lookup), its definitions (by
// key), its embedded fields (by struct), its registrations (by what they
// register) and, for the import offsets, its imports and the packages and
// modules it places.
func contributions(f *FileScope) map[ScopeKey]string {
	if f == nil {
		return nil
	}
	out := map[ScopeKey]string{}
	add := func(k ScopeKey, ss ...string) {
		var b strings.Builder
		b.WriteString(out[k])
		for _, s := range ss {
			b.WriteString(strconv.Quote(s))
		}
		out[k] = b.String()
	}
	add(ScopeKey{Kind: 'c', A: f.Path}, f.Language, f.Scope)
	for _, im := range f.Imports {
		add(ScopeKey{Kind: 'c', A: f.Path}, im.Path, im.Alias)
	}
	for _, d := range f.Defs {
		add(ScopeKey{Kind: 'd', A: f.Scope, B: d.Type, C: d.Name}, d.Kind, d.Decl)
	}
	for _, e := range f.Fields {
		add(ScopeKey{Kind: 'e', A: f.Scope, B: e.Container}, strconv.Itoa(e.Index), e.Qual, e.Name)
	}
	for _, e := range f.Entries {
		switch e.Kind {
		case entryGoPackage:
			add(ScopeKey{Kind: 'g', A: e.A}, e.B)
			add(ScopeKey{Kind: 'o', A: LangGo}, e.Kind, e.A, e.B)
		case entryImport:
			add(ScopeKey{Kind: 'o', A: e.A}, e.Kind, e.B)
		case entryPython:
			add(ScopeKey{Kind: 'm', A: e.Kind, B: e.A})
			add(ScopeKey{Kind: 'o', A: LangPython}, e.Kind, e.A)
		case entryRustRoot:
			add(ScopeKey{Kind: 'R'}, e.A)
		default:
			add(ScopeKey{Kind: 'm', A: e.Kind, B: e.A})
		}
	}
	return out
}

func compareKeys(a, b ScopeKey) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B), cmp.Compare(a.C, b.C))
}

// FileScopeOf is the contribution of f to its tree's scopes.
func FileScopeOf(f *FileFacts) FileScope {
	key, entries := place(f)
	fs := FileScope{ScopeFile: ScopeFile{Path: f.Provenance.Path, Language: f.Language, Scope: key}, Entries: entries}
	for _, im := range f.Imports {
		fs.Imports = append(fs.Imports, Import{Path: im.Path, Alias: im.Alias})
		switch {
		case f.Language == LangGo:
		case f.Language == LangPython && !strings.HasPrefix(im.Path, "."):
		default:
			continue // relative, or a language whose imports place nothing
		}
		fs.Entries = append(fs.Entries, ScopeEntry{Kind: entryImport, A: f.Language, B: im.Path})
	}
	seen := map[[2]string]bool{}
	for i, y := range f.Symbols {
		typ := y.Receiver
		if typ == "" {
			typ = y.Container
		}
		if k := [2]string{typ, y.Name}; !seen[k] {
			seen[k] = true
			fs.Defs = append(fs.Defs, ScopeDef{Index: i, Type: typ, Name: y.Name, Kind: y.Kind, Decl: y.Type})
		}
		if f.Language == LangGo && y.Kind == KindField && y.Container != "" {
			if qual, name, ok := goEmbeddedType(y); ok {
				fs.Fields = append(fs.Fields, ScopeField{Index: i, Container: y.Container, Qual: qual, Name: name})
			}
		}
	}
	if f.Language != LangGo {
		fs.Fields = append(fs.Fields, classBases(f)...)
	}
	return fs
}

// classBases are the resolved bases of f's classes (the RefClass
// references call resolution resolved, resolveBase), in the order the
// file names them: each a ScopeField of the class the base is written in
// (innermostClass), Index the reference's index in f.References.
func classBases(f *FileFacts) []ScopeField {
	var out []ScopeField
	for i, r := range f.References {
		if r.Kind != RefClass || r.Via != ViaImport && r.Via != ViaScope || r.Type == "" {
			continue
		}
		if cls := innermostClass(f.Symbols, r.Range.StartByte); cls >= 0 {
			out = append(out, ScopeField{Index: i, Container: f.Symbols[cls].Name, Qual: r.Module, Name: r.Type})
		}
	}
	return out
}

// scopeOf is where resolution places f: its path, language, scope key
// and imports (as they are).
func scopeOf(f *FileFacts) ScopeFile {
	key, _ := place(f)
	return ScopeFile{Path: f.Provenance.Path, Language: f.Language, Scope: key, Imports: f.Imports}
}

// place is f's scope key and its entries in the tree's registries of
// packages and modules.
func place(f *FileFacts) (string, []ScopeEntry) {
	p := f.Provenance.Path
	dir := path.Dir(p)
	slashDir := "/" + dir
	if dir == "." {
		slashDir = ""
	}
	switch f.Language {
	case LangGo:
		if f.Package == "" {
			return "", nil
		}
		key := "go:" + dir + ":" + f.Package
		if strings.HasSuffix(f.Package, "_test") {
			return key, nil
		}
		return key, []ScopeEntry{{Kind: entryGoPackage, A: slashDir, B: key}}
	case LangPython:
		mod := strings.TrimSuffix(p, path.Ext(p))
		if path.Base(mod) == "__init__" {
			mod = path.Dir(mod)
		}
		slashMod := "/" + mod
		if mod == "." {
			slashMod = ""
		}
		return "py:" + mod, []ScopeEntry{{Kind: entryPython, A: slashMod}}
	case LangJavaScript, LangTypeScript:
		mod := strings.TrimSuffix(p, path.Ext(p))
		return "js:" + mod, []ScopeEntry{{Kind: entryJS, A: mod}}
	case LangJava:
		pkg := f.Package
		if pkg == "" {
			pkg = "." + dir // the default package, per directory
		}
		return "java:" + pkg, []ScopeEntry{{Kind: entryJava, A: pkg}}
	case LangCPP:
		// Classes are looked up across the tree: #include binds no
		// name, and a namespace is no file.
		return "cpp:", nil
	case LangRust:
		mod := strings.TrimSuffix(p, ".rs")
		var roots []ScopeEntry
		switch path.Base(mod) {
		case "mod":
			mod = path.Dir(mod)
		case "lib", "main":
			roots = []ScopeEntry{{Kind: entryRustRoot, A: dir}}
			mod = dir
		}
		return "rs:" + mod, append(roots, ScopeEntry{Kind: entryRust, A: mod})
	}
	return "", nil
}

// qualifierName is the name a qualifier uses for scope key: a Go package's
// name, a module's or package's last name (a Python package at the root:
// root, the base name of the tree's root directory).
func qualifierName(key, root string) string {
	kind, rest, _ := strings.Cut(key, ":")
	switch kind {
	case "go":
		return rest[strings.LastIndexByte(rest, ':')+1:]
	case "py":
		if rest == "." {
			return root
		}
		return path.Base(rest)
	case "js":
		if n := path.Base(rest); n != "index" || path.Dir(rest) == "." {
			return n
		}
		return path.Base(path.Dir(rest))
	case "java":
		return rest[strings.LastIndexByte(rest, '.')+1:]
	case "rs":
		return path.Base(rest)
	}
	return ""
}

// moduleKey is the scope key of a registered module (entry kind, A).
func moduleKey(kind, a string) string {
	switch kind {
	case entryPython:
		if a == "" {
			return "py:."
		}
		return "py:" + a[1:]
	case entryJS:
		return "js:" + a
	case entryJava:
		return "java:" + a
	case entryRust:
		return "rs:" + a
	}
	return ""
}

// goEmbeddedType reads a Go struct field that embeds a type (its
// signature is the type alone: "T", "*T", "pkg.T", "*pkg.T") as the
// type's qualifier and name.
func goEmbeddedType(y Symbol) (qual, name string, ok bool) {
	sig := strings.TrimPrefix(strings.TrimSpace(y.Signature), "*")
	if sig == "" || strings.ContainsAny(sig, " \t[]()*{}") {
		return "", "", false
	}
	qual, name, ok = splitTypeName(sig, ".")
	return qual, name, ok && name == y.Name
}

// bestGoPackage is a directory's importable package among the packages
// its non-test files declare (entries of one directory, by B): the one
// most declare, the least key of equals (not a `package main` tool
// beside it, say); "" for none.
func bestGoPackage(es []EntryCount) string {
	best, n := "", 0
	for _, e := range es {
		if e.N > n {
			best, n = e.B, e.N
		}
	}
	return best
}

// rustRoots are the directories holding a crate root, sorted, once each.
func rustRoots(t ScopeTable) []string {
	var out []string
	for _, e := range t.Entries(entryRustRoot) {
		out = append(out, e.A)
	}
	return slices.Compact(out)
}

// LearnOffset finds the offset between the absolute imports of lang
// (LangGo or LangPython) and the tree's scopes in t (see Scopes): each
// import path that names a scope by a common suffix, whose name is the
// name the import binds, votes for an offset; the most votes win (then
// the shortest, then the least). root is the base name of the tree's
// root directory.
func LearnOffset(root, lang string, t ScopeTable) ImportOffset {
	scopes := map[string]string{} // "/path" of a Go directory or Python module -> its scope key
	switch lang {
	case LangGo:
		es := t.Entries(entryGoPackage) // by directory
		for i := 0; i < len(es); {
			j := i + 1
			for j < len(es) && es[j].A == es[i].A {
				j++
			}
			if k := bestGoPackage(es[i:j]); k != "" {
				scopes[es[i].A] = k
			}
			i = j
		}
	case LangPython:
		for _, e := range t.Entries(entryPython) {
			scopes[e.A] = moduleKey(entryPython, e.A)
		}
	default:
		return ImportOffset{}
	}
	// A scope path and an import path one of which ends with the other
	// (both start with "/") have the same last element, or the scope is
	// the root ("").
	byLast := map[string][]string{}
	for _, k := range slices.Sorted(maps.Keys(scopes)) {
		l := k[strings.LastIndexByte(k, '/')+1:]
		byLast[l] = append(byLast[l], k)
	}
	_, rootScope := scopes[""]
	votes := map[ImportOffset]int{}
	for _, im := range t.EntriesAt(entryImport, lang) {
		m := "/" + im.B
		if lang == LangPython {
			m = "/" + strings.ReplaceAll(im.B, ".", "/")
		}
		l := m[strings.LastIndexByte(m, '/')+1:]
		cands := byLast[l]
		if rootScope && l != "" {
			cands = append(slices.Clip(cands), "")
		}
		for _, k := range cands {
			if o, ok := vote(root, lang, im.B, m, k, scopes[k]); ok {
				votes[o] += im.N
			}
		}
	}
	return bestOffset(votes)
}

// vote is the offset an import of path p (slash-led: m) of lang votes
// for with the scope at slash-led path k (key its scope key), if it votes:
// one path ends with the other, and the scope has the name the import
// binds.
func vote(root, lang, p, m, k, key string) (ImportOffset, bool) {
	var o ImportOffset
	switch {
	case k == m:
	case strings.HasSuffix(k, m):
		o.Strip = k[:len(k)-len(m)]
	case strings.HasSuffix(m, k):
		o.Add = m[:len(m)-len(k)]
	default:
		return o, false
	}
	return o, qualifierName(key, root) == lastName(p, lang)
}

// bestOffset is the offset of the most votes, the shortest of equals, the
// least of those.
func bestOffset(votes map[ImportOffset]int) ImportOffset {
	var best ImportOffset
	n := 0
	for o, v := range votes {
		if v > n || v == n && len(o.Add)+len(o.Strip) < len(best.Add)+len(best.Strip) ||
			v == n && len(o.Add)+len(o.Strip) == len(best.Add)+len(best.Strip) && cmp.Or(cmp.Compare(o.Add, best.Add), cmp.Compare(o.Strip, best.Strip)) < 0 {
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

// memTable is the ScopeTable of a set of files in memory (NewScopes).
type memTable struct {
	files   map[string]ScopeFile
	defs    map[defKey]DefAt
	fields  map[[2]string][]FieldAt
	entries map[string][]EntryCount            // kind -> by A, B
	at      map[string]map[string][]EntryCount // kind -> A -> by B
	offsets map[string]ImportOffset
}

type defKey struct{ scope, typ, name string }

// newMemTable aggregates the FileScopes files, in path order.
func newMemTable(root string, files []FileScope) *memTable {
	t := &memTable{files: map[string]ScopeFile{}, defs: map[defKey]DefAt{}, fields: map[[2]string][]FieldAt{},
		entries: map[string][]EntryCount{}, at: map[string]map[string][]EntryCount{}, offsets: map[string]ImportOffset{}}
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(files[a].Path, files[b].Path) })
	counts := map[ScopeEntry]int{}
	for _, i := range order {
		fs := &files[i]
		t.files[fs.Path] = fs.ScopeFile
		for _, d := range fs.Defs {
			if k := (defKey{fs.Scope, d.Type, d.Name}); t.defs[k].Path == "" {
				t.defs[k] = DefAt{Path: fs.Path, Kind: d.Kind, Decl: d.Decl}
			}
		}
		for _, e := range fs.Fields {
			k := [2]string{fs.Scope, e.Container}
			t.fields[k] = append(t.fields[k], FieldAt{Path: fs.Path, Qual: e.Qual, Name: e.Name})
		}
		for _, e := range fs.Entries {
			counts[e]++
		}
	}
	for _, e := range slices.SortedFunc(maps.Keys(counts), func(a, b ScopeEntry) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B))
	}) {
		ec := EntryCount{e, counts[e]}
		t.entries[e.Kind] = append(t.entries[e.Kind], ec)
		if t.at[e.Kind] == nil {
			t.at[e.Kind] = map[string][]EntryCount{}
		}
		t.at[e.Kind][e.A] = append(t.at[e.Kind][e.A], ec)
	}
	for _, lang := range []string{LangGo, LangPython} {
		t.offsets[lang] = LearnOffset(root, lang, t)
	}
	return t
}

func (t *memTable) Def(scope, typ, name string) (DefAt, bool) {
	d, ok := t.defs[defKey{scope, typ, name}]
	return d, ok
}

func (t *memTable) File(path string) (ScopeFile, bool) {
	f, ok := t.files[path]
	return f, ok
}

func (t *memTable) Fields(scope, typ string) []FieldAt { return t.fields[[2]string{scope, typ}] }

func (t *memTable) Entries(kind string) []EntryCount { return t.entries[kind] }

func (t *memTable) EntriesAt(kind, a string) []EntryCount { return t.at[kind][a] }

func (t *memTable) Offset(lang string) ImportOffset { return t.offsets[lang] }
