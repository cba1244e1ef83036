// Calls: what the file's own syntax says about whose name a call calls
// (Reference.Via, Module, Type), from its imports, the declared types of
// its parameters and variables, and its own top-level definitions.

package sourcefacts

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// callSpec is how a grammar's calls are resolved; nil leaves every call
// ViaName.
type callSpec struct {
	// seps separate the names of a qualified receiver ("." everywhere,
	// "::" in Rust paths).
	seps []string
	// importBindings derives the import bindings from the Import facts
	// (Go, Java, Rust); nil reads the @binding.import captures. A dot or
	// wildcard import binds no name here: a name no other binding or
	// definition of the file explains stays by name (Go's are looked up
	// across files by Scopes).
	importBindings func(ims []Import) map[string]importBinding
	// operandType is the type node a receiver's own syntax shows (a Go
	// type assertion or composite literal, `new C()`), or nil.
	operandType func(op *ts.Node) *ts.Node
	// expr reads a receiver or initialiser expression as a type
	// reference (Go: identifiers, selectors, calls, conversions,
	// literals); nil reads receivers as dotted names (chain).
	expr func(env *callEnv, x *extraction, n *ts.Node, depth int) (typeRef, bool)
	// element is an element of the value t refers to (a range's value);
	// nil when expr is nil.
	element func(env *callEnv, x *extraction, t typeRef, depth int) (typeRef, bool)
	// typeName reads a declared type: its qualifier as written ("http"
	// in `*http.Request`, "" if none) and its base name; false for a
	// type that has no methods of its own to resolve (a slice, a map,
	// a function type).
	typeName func(x *extraction, t *ts.Node) (qual, name string, ok bool)
	// packageScope: an unqualified call that is no local variable is
	// of the package's own top-level scope, wherever in the package it
	// is declared (Go). Otherwise only of a top-level definition of
	// this file.
	packageScope bool
	// classScope: an unqualified call is a method of the enclosing
	// class (Java).
	classScope bool
	// qualifiedTypes: a dotted type or receiver names its package
	// ("java.util.List"); otherwise the qualifier must be an import.
	qualifiedTypes bool
	// typePath reports whether a receiver node is a type path whose last
	// name is the class (C++ `Conn::open()`, `ns::Conn::open()`);
	// Scopes checks that the class declares the method.
	typePath func(op *ts.Node) bool
}

// importBinding is what an imported name stands for: a module (as the
// import spells it) or one member of it.
type importBinding struct {
	module string
	member string
	start  int // the binding name's start, -1 if it has none
}

// typeRef is what a receiver is, as far as its file shows: a package
// (pkg: Module, through an import), or a value of type Type in Module
// ("" the file's own), or a value reached from Module/Type through Path
// (fields, variables and calls resolved across files, Reference.Path).
type typeRef struct {
	module string
	typ    string
	path   []string
	pkg    bool
	// node is a type written in place (a Go slice, array, map or channel
	// type), whose elements an index, a range or a receive reaches; typ
	// and path are empty then.
	node *ts.Node
}

// binding is a local name with its scope and, when known, its type: a
// written type, or one read from its initialiser on first use.
type binding struct {
	name   string
	start  int // the name's start
	from   int // visible from here: after the initialiser, if any
	scope  span
	file   bool // bound at file scope: visible before its declaration too
	ref    *typeRef
	init   *ts.Node
	result int
	elem   bool  // the binding is an element of init's value (a range)
	state  uint8 // 0: init not read yet, 1: being read, 2: read
}

// callEnv is what call resolution knows about one file.
type callEnv struct {
	spec    *callSpec
	binds   []binding
	byName  map[string][]int
	imports map[string]importBinding
	topDefs map[string]bool // names of this file's top-level functions and types
	types   map[string]bool // names of this file's top-level types and classes
	// bases holds the base references (resolved by resolveBase) of each
	// class of the file, by the class's qualified name (Container.Name).
	bases map[string][]Reference
}

// resolveCalls sets Via, Module and Type of every call reference of
// x.ff from captures c, ops holding the receiver operand of a call by its
// name's start byte. Symbols, references (with Enclosing) and imports
// must be final.
func (x *extraction) resolveCalls(c *captures, ops map[int]ts.Node) {
	spec := x.g.spec.calls
	if spec == nil {
		return
	}
	env := x.callEnv(c, spec)
	// Bases first: a call on super (see superCall) takes its class's base.
	for i := range x.ff.References {
		r := &x.ff.References[i]
		if r.Kind == RefClass && c.bases[uint(r.Range.StartByte)] {
			env.resolveBase(x, r, ops)
			if cls := x.classAt(r.Range.StartByte); cls != "" {
				env.bases[cls] = append(env.bases[cls], *r)
			}
		}
	}
	for i := range x.ff.References {
		r := &x.ff.References[i]
		if r.Kind != RefCall {
			continue
		}
		if op, ok := ops[r.Range.StartByte]; ok {
			env.qualified(x, r, &op)
		} else {
			env.unqualified(x, r)
		}
	}
}

func (x *extraction) callEnv(c *captures, spec *callSpec) *callEnv {
	env := &callEnv{spec: spec, byName: map[string][]int{}, imports: map[string]importBinding{},
		topDefs: map[string]bool{}, types: map[string]bool{}, bases: map[string][]Reference{}}
	if spec.importBindings != nil {
		env.imports = spec.importBindings(x.ff.Imports)
	} else {
		for _, ib := range c.ibinds {
			b := importBinding{module: dotted(x, ib.module), start: int(ib.name.StartByte())}
			if ib.member != nil {
				b.member = dotted(x, ib.member)
			}
			env.imports[x.text(ib.name, 256)] = b
		}
	}
	for _, s := range x.ff.Symbols {
		if s.Receiver != "" || s.Container != "" {
			continue
		}
		switch s.Kind {
		case KindFunction:
			env.topDefs[s.Name] = true
		case KindClass, KindStruct, KindType, KindInterface, KindEnum:
			env.topDefs[s.Name] = true
			env.types[s.Name] = true
		}
	}
	importAt := map[int]bool{}
	for _, b := range env.imports {
		importAt[b.start] = true
	}
	env.binds = x.bindings(c, env, importAt)
	for i, b := range env.binds {
		env.byName[b.name] = append(env.byName[b.name], i)
	}
	return env
}

// bindings places each binding candidate in its scope (the pattern's, or
// the innermost @binding.scope around it, or the file) and reads its
// type. Candidates for one name node keep the typed one; a name an import
// binds (`const x = require('m')`) is that import, not a local.
func (x *extraction) bindings(c *captures, env *callEnv, importAt map[int]bool) []binding {
	fileScope := span{start: 0, end: len(x.src) + 1}
	scopes := append([]span{fileScope}, c.bscopes...)
	slices.SortFunc(scopes, func(a, b span) int { return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end)) })
	cands := slices.Clone(c.bindings)
	slices.SortStableFunc(cands, func(a, b bindingCand) int { return cmp.Compare(a.start, b.start) })
	var out []binding
	seen := map[bindKey]int{}
	var stack []span
	next := 0
	for _, bc := range cands {
		if importAt[bc.start] {
			continue
		}
		for next < len(scopes) && scopes[next].start <= bc.start {
			for len(stack) > 0 && stack[len(stack)-1].end <= scopes[next].start {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, scopes[next])
			next++
		}
		for len(stack) > 0 && stack[len(stack)-1].end <= bc.start {
			stack = stack[:len(stack)-1]
		}
		b := binding{name: bc.name, start: bc.start, from: bc.start, scope: fileScope}
		if bc.scope != nil {
			b.scope = *bc.scope
		} else if len(stack) > 0 {
			b.scope = stack[len(stack)-1]
		}
		b.file = b.scope == fileScope
		if bc.typ != nil {
			if qual, name, ok := env.spec.typeName(x, bc.typ); !ok {
				b.ref = &typeRef{node: bc.typ}
			} else if m, t, ok := env.typeModule(qual, name); ok {
				b.ref = &typeRef{module: m, typ: t}
			}
			b.state = 2
		} else if bc.init != nil {
			b.init, b.result, b.elem = bc.init, bc.result, bc.elem
			b.from = int(bc.init.EndByte())
		} else {
			b.state = 2
		}
		// One name node matched by several patterns: what says most
		// wins (bindRank).
		k := bindKey{b.name, b.start, b.scope}
		if i, ok := seen[k]; ok {
			o := &out[i]
			switch {
			case bindRank(b) > bindRank(*o):
				b.from = max(b.from, o.from)
				*o = b
			case b.from > o.from:
				o.from = b.from // a name seen alone and with its initialiser: after it
			}
			continue
		}
		seen[k] = len(out)
		out = append(out, b)
	}
	return out
}

// bindRank orders what candidates for one name say: a named type (3), a
// type written in place (2), an initialiser (1), nothing (0).
func bindRank(b binding) int {
	switch {
	case b.ref != nil && b.ref.typ != "":
		return 3
	case b.ref != nil:
		return 2
	case b.init != nil:
		return 1
	}
	return 0
}

type bindKey struct {
	name  string
	start int
	scope span
}

// typeModule resolves a type's qualifier: none is the file's own module;
// an import's name is its module; a dotted package name is itself where
// the language writes types so (Java). Otherwise the type is unknown.
func (env *callEnv) typeModule(qual, name string) (module, typ string, ok bool) {
	if qual == "" {
		if ib, found := env.imports[name]; found && ib.member != "" {
			return ib.module, ib.member, true // an imported class: `from m import C`, `import a.b.C;`
		}
		return "", name, true
	}
	if ib, found := env.imports[qual]; found {
		if ib.member != "" {
			return ib.module, ib.member + "." + name, true
		}
		return ib.module, name, true
	}
	if env.spec.qualifiedTypes {
		return qual, name, true
	}
	return "", "", false
}

// lookup is the binding of name visible at pos: the one of the innermost
// scope holding pos, the latest declared before pos in it.
func (env *callEnv) lookup(name string, pos int) *binding {
	var best *binding
	for _, i := range env.byName[name] {
		b := &env.binds[i]
		if pos < b.scope.start || pos >= b.scope.end || !b.file && b.from > pos {
			continue
		}
		if best == nil || b.scope.start > best.scope.start || b.scope.start == best.scope.start && b.scope.end < best.scope.end ||
			b.scope == best.scope && b.start > best.start {
			best = b
		}
	}
	return best
}

// refOf is binding b's type reference, reading its initialiser the
// first time (nil: unknown).
func (env *callEnv) refOf(x *extraction, b *binding, depth int) *typeRef {
	if b.state != 0 {
		return b.ref // read, or being read (a cycle): as far as known
	}
	if env.spec.expr == nil || depth > maxExprDepth {
		return nil
	}
	b.state = 1
	if r, ok := env.spec.expr(env, x, b.init, depth+1); ok && !r.pkg {
		if b.result > 0 {
			n := len(r.path)
			if n == 0 || !strings.HasSuffix(r.path[n-1], "()") {
				r = typeRef{}
				ok = false
			} else {
				r.path = append(slices.Clone(r.path[:n-1]), r.path[n-1]+strconv.Itoa(b.result))
			}
		}
		if ok && b.elem {
			if env.spec.element == nil {
				ok = false
			} else {
				r, ok = env.spec.element(env, x, r, depth+1)
			}
		}
		if ok {
			b.ref = &r
		}
	}
	b.state = 2
	return b.ref
}

// maxExprDepth bounds the expressions and initialisers read for one
// receiver.
const maxExprDepth = 24

// unqualified resolves a call of a bare name.
func (env *callEnv) unqualified(x *extraction, r *Reference) {
	pos := r.Range.StartByte
	if b := env.lookup(r.Name, pos); b != nil {
		r.Via = ViaLocal
		return
	}
	if ib, ok := env.imports[r.Name]; ok {
		r.Via, r.Module = ViaImport, ib.module
		return
	}
	switch {
	case env.spec.classScope:
		if cls := x.enclosingClass(r); cls != "" {
			r.Via, r.Type = ViaScope, cls
		}
	case env.spec.packageScope:
		r.Via = ViaScope // with a dot import, Scopes also looks there
	case env.topDefs[r.Name]:
		r.Via = ViaScope // a definition of this file hides a wildcard import's
	}
}

// resolveBase resolves r, a base a class names (a reference a
// `#set! reference.base` pattern captured): a name the file's imports
// bind to a member of a module (`from m import Base`, `import {Base} from
// './m'`, `import b.Base;`: ViaImport, Module as the import spells it,
// Type "Base"), a qualifier an import binds (`mod.Base`, `pkg.mod.Base`:
// ViaImport, Module, Type the rest), or a class of the file's own scope
// (ViaScope, Type the name): one defined at the top of this file, or, in
// a language whose unqualified names are the package's (Java), any. Anything
// else (a builtin such as object, a local, an expression) stays
// unresolved.
func (env *callEnv) resolveBase(x *extraction, r *Reference, ops map[int]ts.Node) {
	if env.lookup(r.Name, r.Range.StartByte) != nil {
		return
	}
	op, qualified := ops[r.Range.StartByte]
	if !qualified {
		if ib, ok := env.imports[r.Name]; ok {
			if ib.member != "" {
				r.Via, r.Module, r.Type = ViaImport, ib.module, ib.member
			}
			return
		}
		if env.types[r.Name] || env.spec.classScope || env.spec.packageScope {
			r.Via, r.Type = ViaScope, r.Name
		}
		return
	}
	parts := env.chain(x, &op)
	if len(parts) == 0 || env.lookup(parts[0], r.Range.StartByte) != nil {
		return
	}
	ib, ok := env.imports[parts[0]]
	if !ok {
		if env.spec.qualifiedTypes {
			// A package-qualified type (Java `extends a.b.Base`).
			r.Via, r.Module, r.Type = ViaImport, strings.Join(parts, "."), r.Name
		}
		return
	}
	names := slices.Clone(parts[1:])
	if ib.member != "" {
		names = append([]string{ib.member}, names...)
	}
	r.Via, r.Module, r.Type = ViaImport, ib.module, strings.Join(append(names, r.Name), ".")
}

// enclosingClass is the class whose method holds r, or "".
func (x *extraction) enclosingClass(r *Reference) string {
	if r.Enclosing < 0 {
		return ""
	}
	s := x.ff.Symbols[r.Enclosing]
	if s.Receiver != "" {
		return s.Receiver
	}
	return s.Container
}

// classAt is the qualified name (Container.Name) of the innermost class
// of the file whose range holds byte pos, or "".
func (x *extraction) classAt(pos int) string {
	i := innermostClass(x.ff.Symbols, pos)
	if i < 0 {
		return ""
	}
	if c := x.ff.Symbols[i]; c.Container != "" {
		return c.Container + "." + c.Name
	}
	return x.ff.Symbols[i].Name
}

// innermostClass is the index in syms of the innermost class whose range
// holds byte pos (the shortest such range), or -1. A base a class names
// lies in its header, inside its range and outside any class nested in
// it: this is the class it is a base of.
func innermostClass(syms []Symbol, pos int) int {
	best := -1
	for i, s := range syms {
		if s.Kind != KindClass || pos < s.Range.StartByte || pos >= s.Range.EndByte {
			continue
		}
		if best < 0 || s.Range.EndByte-s.Range.StartByte < syms[best].Range.EndByte-syms[best].Range.StartByte {
			best = i
		}
	}
	return best
}

// superCall resolves a call on super — `super.f()` (Java, JavaScript,
// TypeScript) or `super().f()` (Python) — to f as the enclosing class's
// base has it, found like `Base.f()`: only when the class names exactly
// one base and that base resolved (several bases, as Java's extends and
// implements or Python's multiple inheritance, leave the call to its
// name). It reports whether op is super at all.
func (env *callEnv) superCall(x *extraction, r *Reference, op *ts.Node) bool {
	if t := strings.Join(strings.Fields(x.text(op, 64)), ""); t != "super" && t != "super()" {
		return false
	}
	if r.Enclosing < 0 {
		return true
	}
	// A method's Receiver is its class's name, its Container the class's
	// container: Outer.Inner for a method of a nested class Inner.
	m := x.ff.Symbols[r.Enclosing]
	cls := m.Receiver
	if cls != "" && m.Container != "" {
		cls = m.Container + "." + cls
	}
	bases := env.bases[cls]
	if len(bases) != 1 {
		return true
	}
	switch b := bases[0]; b.Via {
	case ViaImport:
		r.Via, r.Module, r.Type = ViaImport, b.Module, b.Type
	case ViaScope:
		r.Via, r.Type = ViaReceiver, b.Type
	}
	return true
}

// qualified resolves a call `op.Name()`.
func (env *callEnv) qualified(x *extraction, r *Reference, op *ts.Node) {
	spec := env.spec
	if spec.expr == nil && env.superCall(x, r, op) {
		return
	}
	if spec.expr != nil {
		t, ok := spec.expr(env, x, op, 0)
		switch {
		case !ok:
		case t.pkg:
			r.Via, r.Module = ViaImport, t.module
		case t.typ != "" || len(t.path) > 0:
			r.Via, r.Module, r.Type, r.Path = ViaReceiver, t.module, t.typ, strings.Join(t.path, ".")
		}
		return
	}
	if spec.operandType != nil {
		if t := spec.operandType(op); t != nil {
			if qual, name, ok := spec.typeName(x, t); ok {
				if m, typ, ok := env.typeModule(qual, name); ok {
					r.Via, r.Module, r.Type = ViaReceiver, m, typ
				}
			}
			return
		}
	}
	parts := env.chain(x, op)
	if len(parts) == 0 {
		return
	}
	head, rest := parts[0], parts[1:]
	pos := r.Range.StartByte
	if b := env.lookup(head, pos); b != nil {
		if t := env.refOf(x, b, 0); t != nil && len(rest) == 0 && len(t.path) == 0 && t.typ != "" {
			r.Via, r.Module, r.Type = ViaReceiver, t.module, t.typ
		}
		return
	}
	if ib, ok := env.imports[head]; ok {
		if spec.packageScope && len(rest) > 0 {
			return // pkg.Var.M(): the variable's type is not in this file
		}
		r.Via, r.Module = ViaImport, ib.module
		names := rest
		if ib.member != "" {
			names = append([]string{ib.member}, rest...)
		}
		r.Type = strings.Join(names, ".")
		return
	}
	if (head == "this" || head == "self") && len(rest) == 0 {
		if cls := x.enclosingClass(r); cls != "" {
			r.Via, r.Type = ViaReceiver, cls // this->f() in an out-of-class method definition
		}
		return
	}
	if spec.typePath != nil && spec.typePath(op) {
		r.Via, r.Type = ViaReceiver, parts[len(parts)-1]
		return
	}
	if len(rest) == 0 && !spec.packageScope && (env.types[head] || spec.qualifiedTypes && head[0] >= 'A' && head[0] <= 'Z') {
		// C.f(): a class (static) method of this file's class C, or in
		// Java of a class C of the file's package (Scopes checks that
		// it declares f).
		r.Via, r.Type = ViaReceiver, head
		return
	}
	if last := parts[len(parts)-1]; spec.qualifiedTypes && len(rest) > 0 && last[0] >= 'A' && last[0] <= 'Z' && isLowerDotted(parts[:len(parts)-1]) {
		// java.util.Collections.sort(): a fully qualified class.
		r.Via, r.Module, r.Type = ViaReceiver, strings.Join(parts[:len(parts)-1], "."), last
	}
}

// isLowerDotted reports whether names look like a Java package path
// (every name starting with a lower-case letter), so that the name after
// them is a class.
func isLowerDotted(names []string) bool {
	if len(names) == 0 {
		return false
	}
	for _, n := range names {
		if n == "" || n[0] < 'a' || n[0] > 'z' {
			return false
		}
	}
	return true
}

// chain splits a receiver into its names, `a.b.c` into [a b c]; nil if
// it is anything but names joined by the grammar's separators (a call, an
// index, a literal).
func (env *callEnv) chain(x *extraction, op *ts.Node) []string {
	t := strings.Join(strings.Fields(x.text(op, 256)), "")
	for _, sep := range env.spec.seps[1:] {
		t = strings.ReplaceAll(t, sep, env.spec.seps[0])
	}
	parts := strings.Split(t, env.spec.seps[0])
	for _, p := range parts {
		if !isIdentifier(p) {
			return nil
		}
	}
	return parts
}

// isIdentifier: a letter, '_' or '$', then letters, digits, '_' or '$'.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f:
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}
