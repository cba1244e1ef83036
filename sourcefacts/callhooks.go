package sourcefacts

import (
	"cmp"
	"slices"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// Per-language pieces of call resolution (tsresolve.go). Like the other
// hooks they look only at nodes and their children.

var goCalls = &callSpec{
	seps:           []string{"."},
	importBindings: goImportBindings,
	typeName:       goTypeName,
	expr:           goExpr,
	element:        goElement,
	packageScope:   true,
}

var pythonCalls = &callSpec{seps: []string{"."}, typeName: plainTypeName}

var jsCalls = &callSpec{seps: []string{"."}, operandType: newOperandType("new_expression", "constructor"), typeName: plainTypeName}

var javaCalls = &callSpec{
	seps:           []string{"."},
	importBindings: javaImportBindings,
	operandType:    newOperandType("object_creation_expression", "type"),
	typeName:       javaTypeName,
	classScope:     true,
	qualifiedTypes: true,
}

var rustCalls = &callSpec{seps: []string{"::", "."}, importBindings: rustImportBindings, typeName: rustTypeName}

// cppCalls: #include binds no name, so only receivers resolve: declared
// types of parameters, locals and fields, this, and Class::f().
var cppCalls = &callSpec{seps: []string{"::", "->", "."}, importBindings: noImportBindings, typeName: cppTypeName,
	typePath: cppTypePath}

// cppTypePath: the scope of a qualified call names a class or namespace.
func cppTypePath(op *ts.Node) bool {
	switch op.Kind() {
	case "namespace_identifier", "type_identifier", "template_type", "qualified_identifier":
		return true
	}
	return false
}

func noImportBindings([]Import) map[string]importBinding { return map[string]importBinding{} }

// cppTypeName reads a C++ type by its last name (`ns::Conn` is Conn,
// `Box<T>` Box): C++ classes are looked up across the tree, not by
// namespace. auto names no type; neither do the wrappers whose members
// calls reach through (unique_ptr, shared_ptr, ...).
func cppTypeName(x *extraction, t *ts.Node) (qual, name string, ok bool) {
	s := strings.TrimSpace(x.text(t, 256))
	if i := strings.IndexByte(s, '<'); i > 0 && strings.HasSuffix(s, ">") {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	if !isIdentifier(s) || s == "auto" || cppWrappers[s] {
		return "", "", false
	}
	return "", s, true
}

var cppWrappers = map[string]bool{"unique_ptr": true, "shared_ptr": true, "weak_ptr": true, "optional": true,
	"reference_wrapper": true, "vector": true}

// goImportBindings: an import binds its alias, or the package's default
// name (GoPackageName); "." and "_" bind no name.
func goImportBindings(ims []Import) map[string]importBinding {
	out := map[string]importBinding{}
	for _, im := range ims {
		switch im.Alias {
		case ".", "_":
		case "":
			out[GoPackageName(im.Path)] = importBinding{module: im.Path, start: -1}
		default:
			out[im.Alias] = importBinding{module: im.Path, start: -1}
		}
	}
	return out
}

// GoPackageName is the name a Go import path binds without an alias, by
// the conventions of import paths (the real name is the imported
// package's own clause): the last element, less a major-version element
// ("math/rand/v2": rand), a ".vN" suffix ("gopkg.in/yaml.v3": yaml) and
// a "go-" prefix or anything up to a last "-" ("go-sqlite3": sqlite3).
func GoPackageName(path string) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && isMajorVersion(last) {
		last = elems[len(elems)-2]
	}
	if i := strings.Index(last, ".v"); i > 0 && isMajorVersion(last[i+1:]) {
		last = last[:i]
	}
	if i := strings.LastIndexByte(last, '-'); i >= 0 && i+1 < len(last) {
		last = last[i+1:]
	}
	return last
}

func isMajorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	for _, r := range s[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// goExpr reads a Go expression as a type reference: an identifier (a
// local binding's type, an import's package, else a name of the
// package's own scope), a selector (a package's member, or a field or
// method of a value), a call (its first result; new(T) and conversions
// (*T)(x) and T(x) of a local type to T), a type assertion, a composite
// literal, & and * of one, an index or a receive (an element), a slice
// expression, parenthesised. Anything else (an operator, a function
// literal) is not read.
func goExpr(env *callEnv, x *extraction, n *ts.Node, depth int) (typeRef, bool) {
	if n == nil || depth > maxExprDepth {
		return typeRef{}, false
	}
	switch n.Kind() {
	case "identifier":
		name := x.text(n, 256)
		if b := env.lookup(name, int(n.StartByte())); b != nil {
			if t := env.refOf(x, b, depth+1); t != nil {
				return *t, true
			}
			return typeRef{}, false
		}
		if ib, ok := env.imports[name]; ok {
			return typeRef{module: ib.module, pkg: true}, true
		}
		return typeRef{path: []string{name}}, true
	case "selector_expression":
		base, ok := goExpr(env, x, n.ChildByFieldName("operand"), depth+1)
		f := n.ChildByFieldName("field")
		if !ok || f == nil {
			return typeRef{}, false
		}
		if base.node != nil {
			// A field of a struct type written in place (a test table's
			// row).
			if t := goStructField(x, base.node, x.text(f, 256)); t != nil {
				return goTypeRef(env, x, t)
			}
			return typeRef{}, false
		}
		if base.pkg {
			return typeRef{module: base.module, path: []string{x.text(f, 256)}}, true
		}
		base.path = append(slices.Clone(base.path), x.text(f, 256))
		return base, true
	case "call_expression":
		fn := n.ChildByFieldName("function")
		if fn == nil {
			return typeRef{}, false
		}
		if t := goConversion(x, fn, n.ChildByFieldName("arguments")); t != nil {
			return goTypeRef(env, x, t)
		}
		base, ok := goExpr(env, x, fn, depth+1)
		if !ok || base.pkg || base.node != nil || len(base.path) == 0 {
			return typeRef{}, false
		}
		base.path = slices.Clone(base.path)
		base.path[len(base.path)-1] += "()"
		return base, true
	case "type_assertion_expression", "composite_literal":
		return goTypeRef(env, x, n.ChildByFieldName("type"))
	case "index_expression":
		t, ok := goExpr(env, x, n.ChildByFieldName("operand"), depth+1)
		if !ok {
			return typeRef{}, false
		}
		return goElement(env, x, t, depth+1)
	case "slice_expression":
		return goExpr(env, x, n.ChildByFieldName("operand"), depth+1)
	case "unary_expression":
		switch op := n.ChildByFieldName("operator"); {
		case op == nil:
		case op.Kind() == "&" || op.Kind() == "*":
			return goExpr(env, x, n.ChildByFieldName("operand"), depth+1)
		case op.Kind() == "<-":
			t, ok := goExpr(env, x, n.ChildByFieldName("operand"), depth+1)
			if !ok {
				return typeRef{}, false
			}
			return goElement(env, x, t, depth+1)
		}
	case "parenthesized_expression":
		return goExpr(env, x, n.NamedChild(0), depth+1)
	}
	return typeRef{}, false
}

// goElement is an element of the value t refers to: of a type written in
// place, its element type; otherwise the Path step "[]", followed across
// files.
func goElement(env *callEnv, x *extraction, t typeRef, depth int) (typeRef, bool) {
	switch {
	case t.pkg || depth > maxExprDepth:
		return typeRef{}, false
	case t.node != nil:
		e := goElemNode(t.node)
		if e == nil {
			return typeRef{}, false
		}
		return goTypeRef(env, x, e)
	}
	t.path = append(slices.Clone(t.path), elemStep)
	return t, true
}

// maxStructFields bounds the fields goStructField reads.
const maxStructFields = 256

// goStructField is the type node of the field name of a struct type node
// (through a pointer to one), or nil.
func goStructField(x *extraction, t *ts.Node, name string) *ts.Node {
	if t.Kind() == "pointer_type" {
		t = t.NamedChild(0)
	}
	if t == nil || t.Kind() != "struct_type" {
		return nil
	}
	var list *ts.Node
	for i := uint(0); i < t.NamedChildCount(); i++ {
		if c := t.NamedChild(i); c != nil && c.Kind() == "field_declaration_list" {
			list = c
		}
	}
	if list == nil {
		return nil
	}
	for i := uint(0); i < list.NamedChildCount() && i < maxStructFields; i++ {
		fd := list.NamedChild(i)
		if fd == nil || fd.Kind() != "field_declaration" {
			continue
		}
		cur := fd.Walk()
		names := fd.ChildrenByFieldName("name", cur)
		cur.Close()
		for _, nm := range names {
			if x.text(&nm, 256) == name {
				return fd.ChildByFieldName("type")
			}
		}
	}
	return nil
}

// goElemNode is the element type node of a slice, array, map (its values)
// or channel type node, or nil.
func goElemNode(t *ts.Node) *ts.Node {
	for depth := 0; depth < 8 && t != nil; depth++ {
		switch t.Kind() {
		case "slice_type", "array_type", "implicit_length_array_type":
			return t.ChildByFieldName("element")
		case "map_type", "channel_type":
			return t.ChildByFieldName("value")
		case "parenthesized_type":
			t = t.NamedChild(0)
		default:
			return nil
		}
	}
	return nil
}

// goConversion is the type of a call that converts or allocates:
// new(T), make(T, ...), (*T)(x); nil for anything else (T(x) of a named type reads as
// a call of T and is told from one across files, where T is a type).
func goConversion(x *extraction, fn, args *ts.Node) *ts.Node {
	switch fn.Kind() {
	case "identifier":
		switch x.text(fn, 8) {
		case "new":
			if args != nil && args.NamedChildCount() == 1 {
				return args.NamedChild(0)
			}
		case "make":
			if args != nil && args.NamedChildCount() >= 1 {
				return args.NamedChild(0)
			}
		}
	case "parenthesized_expression":
		if in := fn.NamedChild(0); in != nil && (in.Kind() == "pointer_type" || in.Kind() == "unary_expression") {
			if in.Kind() == "unary_expression" {
				if op := in.ChildByFieldName("operator"); op == nil || op.Kind() != "*" {
					return nil
				}
				return in.ChildByFieldName("operand")
			}
			return in
		}
	}
	return nil
}

// goTypeRef reads a type node (or an identifier or selector standing for
// one) as a type reference.
func goTypeRef(env *callEnv, x *extraction, t *ts.Node) (typeRef, bool) {
	if t == nil {
		return typeRef{}, false
	}
	var qual, name string
	switch t.Kind() {
	case "identifier":
		name = x.text(t, 256)
	case "selector_expression":
		o, f := t.ChildByFieldName("operand"), t.ChildByFieldName("field")
		if o == nil || f == nil || o.Kind() != "identifier" {
			return typeRef{}, false
		}
		qual, name = x.text(o, 256), x.text(f, 256)
	default:
		var ok bool
		if qual, name, ok = goTypeName(x, t); !ok {
			return typeRef{node: t}, true
		}
	}
	m, typ, ok := env.typeModule(qual, name)
	return typeRef{module: m, typ: typ}, ok
}

// goTypeName reads T, *T, pkg.T, T[K] (and their parenthesised forms);
// slices, maps, channels, functions, interfaces and structs written in
// place have no methods to resolve.
func goTypeName(x *extraction, t *ts.Node) (qual, name string, ok bool) {
	for depth := 0; depth < 8 && t != nil; depth++ {
		switch t.Kind() {
		case "type_identifier":
			return "", x.text(t, 256), true
		case "qualified_type":
			p, n := t.ChildByFieldName("package"), t.ChildByFieldName("name")
			if p == nil || n == nil {
				return "", "", false
			}
			return x.text(p, 256), x.text(n, 256), true
		case "pointer_type", "parenthesized_type":
			t = t.NamedChild(0)
		case "generic_type":
			t = t.ChildByFieldName("type")
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// newOperandType: the class of `new C(...)` (JavaScript's constructor
// field, Java's type field).
func newOperandType(kind, field string) func(op *ts.Node) *ts.Node {
	return func(op *ts.Node) *ts.Node {
		if op.Kind() == "parenthesized_expression" && op.NamedChildCount() == 1 {
			op = op.NamedChild(0)
		}
		if op == nil || op.Kind() != kind {
			return nil
		}
		return op.ChildByFieldName(field)
	}
}

// plainTypeName reads a type written as a name, a dotted name or a
// generic instance of one (`Foo`, `mod.Foo`, `List<String>`; a
// TypeScript annotation's leading colon dropped). Anything else (unions,
// optionals, arrays, literals, Python's subscripted types) is not read.
func plainTypeName(x *extraction, t *ts.Node) (qual, name string, ok bool) {
	s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(x.text(t, 256)), ":"))
	if i := strings.IndexByte(s, '<'); i > 0 && strings.HasSuffix(s, ">") {
		s = s[:i]
	}
	return splitTypeName(s, ".")
}

// javaTypeName is plainTypeName, except that `var` names no type.
func javaTypeName(x *extraction, t *ts.Node) (qual, name string, ok bool) {
	if qual, name, ok = plainTypeName(x, t); name == "var" && qual == "" {
		return "", "", false
	}
	return qual, name, ok
}

// rustTypeName reads `Foo`, `a::Foo`, `&Foo`, `&mut Foo`, `Foo<T>`; not
// the smart pointers and wrappers whose methods calls reach through
// (Box, Rc, Arc, RefCell, ...).
func rustTypeName(x *extraction, t *ts.Node) (qual, name string, ok bool) {
	s := strings.TrimSpace(x.text(t, 256))
	s = strings.TrimSpace(strings.TrimPrefix(s, "&"))
	s = strings.TrimSpace(strings.TrimPrefix(s, "mut "))
	if i := strings.IndexByte(s, '<'); i > 0 && strings.HasSuffix(s, ">") {
		s = s[:i]
	}
	if qual, name, ok = splitTypeName(s, "::"); ok && rustWrappers[name] {
		return "", "", false
	}
	return qual, name, ok
}

// rustWrappers are the standard types whose values forward method calls
// to what they hold (Deref), or hold something whose type matters more.
var rustWrappers = map[string]bool{"Box": true, "Rc": true, "Arc": true, "RefCell": true, "Cell": true, "Mutex": true,
	"RwLock": true, "Option": true, "Result": true, "Vec": true, "Cow": true, "Pin": true}

// splitTypeName splits "a.b.Foo" at its last separator into ("a.b",
// "Foo"); false unless every part is an identifier.
func splitTypeName(s, sep string) (qual, name string, ok bool) {
	parts := strings.Split(s, sep)
	for _, p := range parts {
		if !isIdentifier(p) {
			return "", "", false
		}
	}
	return strings.Join(parts[:len(parts)-1], sep), parts[len(parts)-1], true
}

// javaImportBindings: `import a.b.C;` binds C to member C of package
// a.b.
func javaImportBindings(ims []Import) map[string]importBinding {
	return memberBindings(ims, ".")
}

// rustImportBindings: `use a::b::c;` binds c (or its `as` name) to
// member c of a::b.
func rustImportBindings(ims []Import) map[string]importBinding {
	return memberBindings(ims, "::")
}

// memberBindings binds the last part of each import path (or its alias)
// to that member of the path before it; a wildcard ("*") binds no name.
func memberBindings(ims []Import, sep string) map[string]importBinding {
	out := map[string]importBinding{}
	for _, im := range ims {
		i := strings.LastIndex(im.Path, sep)
		if i < 0 {
			if name := cmp.Or(im.Alias, im.Path); name != "" && name != "*" {
				out[name] = importBinding{module: im.Path, start: -1}
			}
			continue
		}
		mod, member := im.Path[:i], im.Path[i+len(sep):]
		if member == "*" || member == "" {
			continue
		}
		out[cmp.Or(im.Alias, member)] = importBinding{module: mod, member: member, start: -1}
	}
	return out
}
