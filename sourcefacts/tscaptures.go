package sourcefacts

import (
	"context"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// owner is a region whose functions are methods of name (Rust's impl).
type owner struct {
	span
	name string
}

type defCand struct {
	kind     string
	node     ts.Node
	name     ts.Node
	receiver *ts.Node // C++: the class of an out-of-class method definition
	pattern  uint
	// nameText, when set, is the name instead of name's text (a C++
	// conversion function, `operator bool`).
	nameText string
	// qualifier are the scopes of a qualified name, outermost first (C++
	// `geo::Shape::area`: geo, Shape): the last is the receiver, the
	// others the container.
	qualifier []string
	// setter: the definition is the setter name= of its name (Ruby
	// attr_writer and attr_accessor), a second definition from one name.
	setter bool
}

type refCand struct {
	kind     string
	name     ts.Node
	notLocal bool // drop if the name is a local variable (#is-not? local)
	setter   bool // a call of the setter name= (Ruby `x.name = v`)
}

type importCand struct {
	node   ts.Node
	path   *ts.Node
	alias  *ts.Node
	module *ts.Node // Python: the `from` module
	kind   *ts.Node // Ruby: require, require_relative or load
}

// bindingCand is a name a declaration binds inside a function or block
// (@binding.name), with the node of the type its declaration shows
// (@binding.type, nil if none) and, when the pattern names it, the scope
// it is bound in (@binding.scope; otherwise the innermost one around it).
type bindingCand struct {
	name  string
	start int // the name's start: visible from there to its scope's end
	typ   *ts.Node
	scope *span
	// init is the expression a binding without a written type is
	// initialised with (@binding.init), result which result of it.
	init   *ts.Node
	result int
	elem   bool // an element of init's value (#set! binding.element)
}

// importBindCand is a name an import binds (@binding.import), to the
// module (@binding.module) or one of its members (@binding.member).
type importBindCand struct {
	name, module, member *ts.Node
}

// localScope and localDef are locals.scm's @local.scope and
// @local.definition.
type localScope struct {
	span
	inherits bool
}

type localDef struct {
	name  string
	start int
}

// captures is what one pass of the grammar's query over a tree found,
// before it becomes facts.
type captures struct {
	defs      []defCand
	defSeen   map[uint]int // name start byte -> index in defs
	refs      []refCand
	receivers map[uint]ts.Node // selected name start byte -> operand
	imports   []importCand
	pkg       *ts.Node
	scopes    []localScope
	locals    []localDef
	roleTests []ts.Node // @role.test attributes: the items they precede are tests
	bindings  []bindingCand
	bscopes   []span // @binding.scope regions
	ibinds    []importBindCand
	bases     map[uint]bool    // name start bytes of references a #set! reference.base pattern captured
	symTypes  map[uint]ts.Node // a definition's name start -> the type its declaration writes
	start     time.Time        // when the query started
}

// collect runs the grammar's query over root and sorts its captures into
// candidates; comments and owners go straight to x. It returns ctx's error
// if ctx is done during or after the walk.
func (x *extraction) collect(ctx context.Context, qc *ts.QueryCursor, root *ts.Node, budget time.Duration) (*captures, error) {
	cq := x.g.query
	c := &captures{defSeen: map[uint]int{}, receivers: map[uint]ts.Node{}, symTypes: map[uint]ts.Node{}, bases: map[uint]bool{}}
	count := 0
	qc.SetTimeoutMicros(uint64(budget / time.Microsecond))
	c.start = time.Now()
	matches := qc.Matches(cq.q, root, x.src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		if count++; count%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		var (
			name, def, ref, imp, impPath, impAlias, impModule, impKind *ts.Node
			recv, recvName, defRecv, own, ownName, decl                *ts.Node
			bName, bType, bScope, bImport, bModule, bMember, bInit     *ts.Node
			typeOf, typeIs                                             *ts.Node
			defKind, refKind                                           string
			setter                                                     bool
		)
		for i := range m.Captures {
			cp := &m.Captures[i]
			n := cp.Node // copy: the match's memory is reused by Next
			switch ci := cq.captures[cp.Index]; ci.role {
			case capName:
				name = &n
			case capDefinition:
				def, defKind = &n, ci.kind
			case capReference:
				ref, refKind = &n, ci.kind
			case capPackageName:
				if c.pkg == nil {
					c.pkg = &n
				}
			case capImport:
				imp = &n
			case capImportPath:
				impPath = &n
			case capImportAlias:
				impAlias = &n
			case capImportModule:
				impModule = &n
			case capImportKind:
				impKind = &n
			case capReceiver:
				recv = &n
			case capReceiverName:
				recvName = &n
			case capDefReceiver:
				defRecv = &n
			case capOwner:
				own = &n
			case capOwnerName:
				ownName = &n
			case capDeclarator:
				decl = &n
			case capSetter:
				setter = true
			case capRoleTest:
				c.roleTests = append(c.roleTests, n)
			case capBindingName:
				bName = &n
			case capBindingType:
				bType = &n
			case capBindingScope:
				bScope = &n
			case capBindingImport:
				bImport = &n
			case capBindingModule:
				bModule = &n
			case capBindingMember:
				bMember = &n
			case capBindingInit:
				bInit = &n
			case capTypeOf:
				typeOf = &n
			case capTypeIs:
				typeIs = &n
			case capComment:
				x.comments = append(x.comments, commentSpan{span: commentOf(&n, x.src)})
			case capCommentSkip:
				x.comments = append(x.comments, commentSpan{span: commentOf(&n, x.src), skip: true})
			case capLocalScope:
				c.scopes = append(c.scopes, localScope{span: spanOf(&n), inherits: !cq.patterns[m.PatternIndex].noInherit})
			case capLocalDef:
				c.locals = append(c.locals, localDef{name: string(x.src[n.StartByte():n.EndByte()]), start: int(n.StartByte())})
			}
		}
		pat := &cq.patterns[m.PatternIndex]
		c.addBinding(x, pat, bName, bType, bScope, bInit)
		if typeOf != nil && typeIs != nil {
			c.symTypes[typeOf.StartByte()] = *typeIs
		}
		if bModule != nil && bImport != nil {
			c.ibinds = append(c.ibinds, importBindCand{name: bImport, module: bModule, member: bMember})
		}
		switch {
		case def != nil && name != nil:
			c.addDef(defCand{kind: defKind, node: *def, name: *name, receiver: defRecv, pattern: m.PatternIndex, setter: setter})
		case def != nil && decl != nil && x.g.spec.declarator != nil:
			if d, kind, ok := x.g.spec.declarator(x, defKind, def, *decl); ok {
				c.addDef(defCand{kind: kind, node: *def, name: d.name, nameText: d.nameText,
					qualifier: d.qualifier, pattern: m.PatternIndex})
			}
		case ref != nil && name != nil:
			c.refs = append(c.refs, refCand{kind: refKind, name: *name, notLocal: cq.patterns[m.PatternIndex].notLocal, setter: setter})
			if cq.patterns[m.PatternIndex].base {
				c.bases[name.StartByte()] = true
			}
			if recv != nil {
				c.receivers[name.StartByte()] = *recv
			}
		case imp != nil:
			c.imports = append(c.imports, importCand{node: *imp, path: impPath, alias: impAlias, module: impModule, kind: impKind})
		case recv != nil && recvName != nil:
			c.receivers[recvName.StartByte()] = *recv
		case own != nil && ownName != nil:
			x.owners = append(x.owners, owner{span: spanOf(own), name: ownerName(x.text(ownName, 1024))})
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return nil, context.DeadlineExceeded
	}
	return c, nil
}

// addBinding records what one binding pattern matched: a name bound (by
// its node, or by the pattern's #set! binding.name with the type or scope
// node's position), and a scope region on its own.
func (c *captures) addBinding(x *extraction, pat *patternInfo, name, typ, scope, init *ts.Node) {
	var sc *span
	if scope != nil {
		s := spanOf(scope)
		sc = &s
		if typ != nil {
			cur := scope.Walk()
			if len(scope.ChildrenByFieldName("type", cur)) > 1 {
				typ = nil // a type switch case of several types (and their commas): no one type
			}
			cur.Close()
		}
	}
	switch {
	case name != nil:
		c.bindings = append(c.bindings, bindingCand{name: x.text(name, 256), start: int(name.StartByte()), typ: typ, scope: sc,
			init: init, result: pat.bindingResult, elem: pat.bindingElement})
	case pat.bindingName != "" && sc != nil:
		c.bindings = append(c.bindings, bindingCand{name: pat.bindingName, start: sc.start, typ: typ, scope: sc})
	case sc != nil:
		c.bscopes = append(c.bscopes, *sc)
	}
}

// addDef records a definition candidate. The same name captured by two
// patterns (C's tags.scm captures a function's declarator, c-extra.scm the
// whole definition) keeps the widest node, with its kind and name, and
// any receiver; of two captures of the same node, the more specific kind
// wins (kindRank: `const f = () => {}` is a function, a Python class
// attribute a field rather than a variable).
func (c *captures) addDef(d defCand) {
	key := d.name.StartByte()
	if d.setter {
		key = ^key // its own definition, beside the reader of the same name
	}
	i, ok := c.defSeen[key]
	if !ok {
		c.defSeen[key] = len(c.defs)
		c.defs = append(c.defs, d)
		return
	}
	old := &c.defs[i]
	wider := d.node.StartByte() <= old.node.StartByte() && d.node.EndByte() >= old.node.EndByte() &&
		(d.node.StartByte() < old.node.StartByte() || d.node.EndByte() > old.node.EndByte())
	same := d.node.StartByte() == old.node.StartByte() && d.node.EndByte() == old.node.EndByte()
	if wider || same && kindRank(d.kind) > kindRank(old.kind) {
		if d.receiver == nil {
			d.receiver = old.receiver
		}
		*old = d
		return
	}
	if old.receiver == nil && d.receiver != nil {
		old.receiver = d.receiver
	}
}

// kindRank orders the capture kinds of one node: a plain variable, then
// the other value kinds (constant, field), then everything else.
func kindRank(kind string) int {
	switch kind {
	case "variable":
		return 0
	case "constant", "field":
		return 1
	}
	return 2
}
