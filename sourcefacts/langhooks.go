package sourcefacts

import (
	"strconv"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// Per-language pieces of the tree-sitter extraction: how import matches
// become Import facts and how some definitions and references are
// refined. They look only at the matched nodes and their children (never
// their parents, whose lookup in tree-sitter 0.25 costs time linear in the
// number of earlier siblings).

const (
	maxImportPathBytes = 4096
	// maxUseTreeImports bounds the imports one Rust use declaration
	// expands to, and maxUseTreeDepth its nesting.
	maxUseTreeImports = 1024
	maxUseTreeDepth   = 32
)

// goImports: the quoted path and the optional alias.
func goImports(x *extraction, im *importCand) []Import {
	if im.path == nil {
		return nil
	}
	raw := x.text(im.path, maxImportPathBytes)
	p, err := strconv.Unquote(raw)
	if err != nil {
		p = strings.Trim(raw, "\"`")
	}
	out := Import{Path: strings.ToValidUTF8(p, "\uFFFD"), Range: x.rangeOf(&im.node)}
	if im.alias != nil {
		out.Alias = x.text(im.alias, 1024)
	}
	return []Import{out}
}

// plainImports: the path's text without its quotes or angle brackets
// (JavaScript/TypeScript specifiers, C/C++ #include), and the alias.
func plainImports(x *extraction, im *importCand) []Import {
	if im.path == nil {
		return nil
	}
	out := Import{Path: strings.ToValidUTF8(unquote(strings.TrimSpace(x.text(im.path, maxImportPathBytes))), "\uFFFD"),
		Range: x.rangeOf(&im.node)}
	if im.alias != nil {
		out.Alias = x.text(im.alias, 1024)
	}
	if out.Path == "" {
		return nil
	}
	return []Import{out}
}

// dotted is the text of a dotted or scoped name without white space.
func dotted(x *extraction, n *ts.Node) string {
	return strings.Join(strings.Fields(x.text(n, maxImportPathBytes)), "")
}

// pythonImports: `import a.b as c` gives "a.b" (alias c); `from m import
// n` gives "m.n", `from . import n` ".n", `from m import *` "m.*".
func pythonImports(x *extraction, im *importCand) []Import {
	if im.path == nil {
		return nil
	}
	name := dotted(x, im.path)
	if im.path.Kind() == "wildcard_import" {
		name = "*"
	}
	if im.module != nil {
		if mod := dotted(x, im.module); strings.HasSuffix(mod, ".") {
			name = mod + name
		} else {
			name = mod + "." + name
		}
	}
	out := Import{Path: name, Range: x.rangeOf(&im.node)}
	if im.alias != nil {
		out.Alias = x.text(im.alias, 1024)
	}
	return []Import{out}
}

// javaImports: the imported name, with ".*" for on-demand imports.
func javaImports(x *extraction, im *importCand) []Import {
	if im.path == nil {
		return nil
	}
	p := dotted(x, im.path)
	for i := uint(0); i < im.node.ChildCount() && i < 16; i++ {
		if c := im.node.Child(i); c != nil && c.Kind() == "asterisk" {
			p += ".*"
			break
		}
	}
	return []Import{{Path: p, Range: x.rangeOf(&im.node)}}
}

// rubyImports: require and load give the feature as written;
// require_relative gives it relative to the file ("./" prepended unless
// it starts with "." or "/").
func rubyImports(x *extraction, im *importCand) []Import {
	if im.path == nil {
		return nil
	}
	p := x.text(im.path, maxImportPathBytes)
	if im.kind != nil && x.text(im.kind, 64) == "require_relative" &&
		!strings.HasPrefix(p, ".") && !strings.HasPrefix(p, "/") {
		p = "./" + p
	}
	return []Import{{Path: p, Range: x.rangeOf(&im.node)}}
}

// rustImports expands a use tree: `use a::{b, c::d as e, f::*};` gives
// "a::b", "a::c::d" (alias e) and "a::f::*". `extern crate c as d;` gives
// "c" (alias d).
func rustImports(x *extraction, im *importCand) []Import {
	if im.path == nil {
		return nil
	}
	r := x.rangeOf(&im.node)
	if im.node.Kind() == "extern_crate_declaration" {
		out := Import{Path: x.text(im.path, maxImportPathBytes), Range: r}
		if im.alias != nil {
			out.Alias = x.text(im.alias, 1024)
		}
		return []Import{out}
	}
	var out []Import
	var walk func(n *ts.Node, prefix string, depth int)
	join := func(prefix, s string) string {
		if prefix == "" {
			return s
		}
		if s == "" {
			return prefix
		}
		return prefix + "::" + s
	}
	walk = func(n *ts.Node, prefix string, depth int) {
		if n == nil || depth > maxUseTreeDepth || len(out) >= maxUseTreeImports {
			return
		}
		switch n.Kind() {
		case "use_list":
			for i := uint(0); i < n.NamedChildCount() && len(out) < maxUseTreeImports; i++ {
				c := n.NamedChild(i)
				if c == nil || strings.HasSuffix(c.Kind(), "comment") {
					continue
				}
				walk(c, prefix, depth+1)
			}
		case "scoped_use_list":
			p := prefix
			if path := n.ChildByFieldName("path"); path != nil {
				p = join(prefix, dotted(x, path))
			}
			walk(n.ChildByFieldName("list"), p, depth+1)
		case "use_as_clause":
			path := n.ChildByFieldName("path")
			if path == nil {
				return
			}
			imp := Import{Path: join(prefix, dotted(x, path)), Range: r}
			if a := n.ChildByFieldName("alias"); a != nil {
				imp.Alias = x.text(a, 1024)
			}
			out = append(out, imp)
		case "use_wildcard":
			p := prefix
			if c := n.NamedChild(0); c != nil {
				p = join(prefix, dotted(x, c))
			}
			out = append(out, Import{Path: join(p, "*"), Range: r})
		case "self":
			// `use a::{self}` imports a itself.
			out = append(out, Import{Path: join(prefix, ""), Range: r})
		default:
			out = append(out, Import{Path: join(prefix, dotted(x, n)), Range: r})
		}
	}
	walk(im.path, "", 0)
	return out
}

// ownerName reduces a type's text to its base name: "Foo" for "Foo<T>",
// "a::b::Foo", "&'a mut Foo" or "ns::Foo".
func ownerName(s string) string {
	if i := strings.IndexAny(s, "<("); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	f := strings.Fields(strings.NewReplacer("&", " ", "*", " ").Replace(s))
	for len(f) > 1 && (f[0] == "mut" || f[0] == "dyn" || f[0] == "const" || strings.HasPrefix(f[0], "'")) {
		f = f[1:]
	}
	return strings.Join(f, " ")
}

// rustDefKind: tags.scm calls every ADT a class; structs, enums, unions
// and type aliases get their own kinds.
func rustDefKind(_ *extraction, d *defCand) (string, bool) {
	switch d.node.Kind() {
	case "struct_item", "union_item":
		return KindStruct, true
	case "enum_item":
		return KindEnum, true
	case "type_item":
		return KindType, true
	}
	return defKindOf(d.kind), true
}

// cDefKind (C and C++): structs and unions are structs, enums enums; a
// tags match on an enum, struct or union without a body (`enum color c;`)
// is a use, not a definition, and is dropped; a C++ class without a body
// (`class Conn;`) is a forward declaration (KindDeclaration).
func cDefKind(_ *extraction, d *defCand) (string, bool) {
	n := &d.node
	if d.kind == "prototype" {
		return KindPrototype, true
	}
	switch n.Kind() {
	case "struct_specifier", "union_specifier":
		return KindStruct, true
	case "class_specifier":
		if n.ChildByFieldName("body") == nil {
			return KindDeclaration, true
		}
		return KindClass, true
	case "enum_specifier":
		return KindEnum, n.ChildByFieldName("body") != nil
	case "declaration":
		if t := n.ChildByFieldName("type"); t != nil && t.Kind() == "union_specifier" {
			return KindStruct, t.ChildByFieldName("body") != nil
		}
	}
	return defKindOf(d.kind), true
}

// rubyRefine names an attribute accessor (`attr_reader :name`) by its
// symbol without the colon.
func rubyRefine(_ *extraction, d *defCand, s *Symbol) bool {
	if d.name.Kind() == "simple_symbol" {
		s.Name = strings.TrimPrefix(s.Name, ":")
	}
	return s.Name != ""
}

// rubyRefKind: tags.scm tags every bare constant a call; a constant names
// a class, module or constant, so it is a type reference.
func rubyRefKind(_ *extraction, r *refCand) string {
	if r.name.Kind() == "constant" {
		return RefType
	}
	return refKindOf(r.kind)
}

// cDeclared (C and C++) decides what a declarator captured by the extra
// queries defines, by the pattern's kind:
//
//   - "function" (a function_definition): a function; a definition whose
//     declarator is no function declarator (a macro's doing) is dropped.
//   - "prototype" (any declaration): a prototype when it declares a
//     function, else dropped.
//   - "variable" (a declaration at file or namespace scope): a variable
//     (KindVariable), or with `extern` a declaration (KindDeclaration);
//     dropped when it declares a function (the prototype pattern has it).
//   - "field" (a field_declaration): a field, or a prototype (an in-class
//     method declaration) when it declares a function.
//   - any other kind ("type" for a typedef): that kind, whatever the
//     declarator.
func cDeclared(x *extraction, kind string, def *ts.Node, decl ts.Node) (declared, string, bool) {
	d, ok := cDeclarator(x, decl)
	if !ok {
		return d, "", false
	}
	switch kind {
	case "function":
		return d, kind, d.function
	case "prototype":
		return d, kind, d.function
	case "variable":
		if d.function {
			return d, "", false
		}
		if hasStorageClass(x, def, "extern") {
			return d, KindDeclaration, true
		}
		return d, KindVariable, true
	case "field":
		if d.function {
			return d, "prototype", true
		}
		return d, KindField, true
	}
	return d, kind, true
}

// hasStorageClass reports whether declaration n carries the storage class
// specifier word (`extern`, `static`).
func hasStorageClass(x *extraction, n *ts.Node, word string) bool {
	for i := uint(0); i < n.NamedChildCount() && i < 16; i++ {
		if c := n.NamedChild(i); c != nil && c.Kind() == "storage_class_specifier" && x.text(c, 16) == word {
			return true
		}
	}
	return false
}

// maxDeclaratorDepth bounds the nesting cDeclarator follows.
const maxDeclaratorDepth = 32

// declared is what a C/C++ declarator declares.
type declared struct {
	name      ts.Node
	nameText  string   // the name when it is not name's text (a conversion function)
	qualifier []string // the scopes of a qualified name, outermost first
	function  bool     // a function declarator (or a conversion function)
}

// cDeclarator (C and C++) finds the name a declarator declares by
// descending through pointer, reference, parenthesized, attributed, array
// and init declarators and qualified names: `f` in `int *f(void)`,
// `area` with qualifier [geo Shape] in `int geo::Shape::area()`, `put`
// with [Box] in `Box<T>::put`, `~Conn`, `operator==`, and `operator bool`
// (a conversion function, whose node also holds its parameters). It
// returns false when the declarator names nothing (an abstract or
// macro-mangled declarator).
func cDeclarator(x *extraction, n ts.Node) (declared, bool) {
	var out declared
	for depth := 0; depth < maxDeclaratorDepth; depth++ {
		switch n.Kind() {
		case "identifier", "field_identifier", "destructor_name", "operator_name", "type_identifier":
			out.name = n
			return out, true
		case "operator_cast":
			out.name, out.function = n, true
			if t := n.ChildByFieldName("type"); t != nil {
				out.nameText = "operator " + strings.Join(strings.Fields(x.text(t, 256)), " ")
			}
			return out, true
		case "function_declarator":
			out.function = true
		case "qualified_identifier":
			if s := n.ChildByFieldName("scope"); s != nil {
				out.qualifier = append(out.qualifier, scopeName(x, s))
			}
			if nm := n.ChildByFieldName("name"); nm != nil && nm.Kind() == "qualified_identifier" {
				n = *nm
				continue
			}
		case "template_function", "template_method":
			if nm := n.ChildByFieldName("name"); nm != nil {
				n = *nm
				continue
			}
			return out, false
		}
		next := n.ChildByFieldName("declarator")
		if n.Kind() == "qualified_identifier" {
			next = n.ChildByFieldName("name")
		}
		if next == nil {
			// reference_declarator and a few others name no field.
			switch n.Kind() {
			case "reference_declarator", "parenthesized_declarator", "attributed_declarator":
				if c := n.NamedChildCount(); c > 0 {
					next = n.NamedChild(c - 1)
				}
			}
		}
		if next == nil {
			return out, false
		}
		n = *next
	}
	return out, false
}

// scopeName is the name a scope of a qualified name gives: "Box" for
// `Box<T>`, the text otherwise.
func scopeName(x *extraction, s *ts.Node) string {
	if s.Kind() == "template_type" {
		if nm := s.ChildByFieldName("name"); nm != nil {
			s = nm
		}
	}
	return ownerName(x.text(s, 256))
}

// jsValueNodes are the definitions (JavaScript, TypeScript) whose value
// is a function: an assignment (`right`), a declarator, a pair, a class
// field (`value`).
var jsValueField = map[string]string{
	"assignment_expression": "right", "variable_declarator": "value", "pair": "value",
	"field_definition": "value", "public_field_definition": "value",
}

// jsPrune drops the name of a function expression that is the value of
// another definition: `res.send = function send() {}` is one definition,
// send with receiver res, not also a function send inside it.
func jsPrune(x *extraction, defs []defCand) []defCand {
	values := map[[2]uint]bool{}
	for i := range defs {
		if isModuleExports(x, &defs[i].node) {
			continue // no definition of its own: the function keeps its name
		}
		if f, ok := jsValueField[defs[i].node.Kind()]; ok {
			if v := defs[i].node.ChildByFieldName(f); v != nil {
				values[[2]uint{v.StartByte(), v.EndByte()}] = true
			}
		}
	}
	if len(values) == 0 {
		return defs
	}
	out := defs[:0]
	for _, d := range defs {
		switch d.node.Kind() {
		case "function_expression", "function", "generator_function", "arrow_function":
			if values[[2]uint{d.node.StartByte(), d.node.EndByte()}] {
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

// jsRefine names a function assigned to a member by its receiver:
// `res.send = function () {}` is method send of res, `Foo.prototype.bar
// = ...` method bar of Foo; `exports.y = ...`, `module.exports.x = ...`
// and `this.z = ...` are functions without a receiver. `module.exports =
// function f() {}` defines no "exports" (f keeps its own name).
func jsRefine(x *extraction, d *defCand, s *Symbol) bool {
	if d.node.Kind() != "assignment_expression" {
		return true
	}
	left := d.node.ChildByFieldName("left")
	if left == nil || left.Kind() != "member_expression" {
		return true
	}
	obj := left.ChildByFieldName("object")
	if obj == nil {
		return true
	}
	if isModuleExports(x, &d.node) {
		return false
	}
	recv := strings.TrimSuffix(collapse(x.src[obj.StartByte():obj.EndByte()], MaxReceiverBytes), ".prototype")
	switch recv {
	case "exports", "module.exports", "this", "":
		return true
	}
	s.Receiver = recv
	if s.Kind == KindFunction {
		s.Kind = KindMethod
	}
	return true
}

// isModuleExports reports whether n is an assignment to module.exports.
func isModuleExports(x *extraction, n *ts.Node) bool {
	if n.Kind() != "assignment_expression" {
		return false
	}
	left := n.ChildByFieldName("left")
	return left != nil && left.Kind() == "member_expression" &&
		collapse(x.src[left.StartByte():left.EndByte()], 32) == "module.exports"
}
