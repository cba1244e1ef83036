// References: capture candidates to References, without local variables,
// each with its enclosing symbol.

package sourcefacts

import (
	"cmp"
	"slices"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// addReferences turns reference candidates into x.ff.References, sorted by
// start, each with its enclosing symbol (so x.ff.Symbols must be final). A
// name that is a definition's name is not also a reference to itself (the
// tags convention keeps one tag per node), nor is a local variable.
func (x *extraction) addReferences(c *captures) {
	ff := x.ff
	refs := c.refs
	local := x.localNames(refs, c.scopes, c.locals)
	// A name one pattern calls a setter (Ruby `x.name = v`) is a call of
	// name=, whatever other patterns matched it.
	setters := map[uint]bool{}
	for _, r := range refs {
		if r.setter {
			setters[r.name.StartByte()] = true
		}
	}
	seen := make(map[uint]bool, len(refs))
	ops := map[int]ts.Node{} // receiver operands of calls, by the name's start
	for i, r := range refs {
		k := r.name.StartByte()
		if _, isDef := c.defSeen[k]; isDef || seen[k] || local[i] {
			continue
		}
		seen[k] = true
		kind := refKindOf(r.kind)
		if x.g.spec.refKind != nil {
			kind = x.g.spec.refKind(x, &refs[i])
		}
		name := x.text(&r.name, 1024)
		if setters[k] {
			name += "="
		}
		ref := Reference{
			Name:      name,
			Kind:      kind,
			Enclosing: -1,
			Range:     x.rangeOf(&r.name),
		}
		if op, ok := c.receivers[k]; ok {
			ref.Receiver = collapse(x.src[op.StartByte():op.EndByte()], MaxReceiverBytes)
			ops[ref.Range.StartByte] = op
		}
		ff.References = append(ff.References, ref)
	}
	slices.SortStableFunc(ff.References, func(a, b Reference) int {
		return cmp.Compare(a.Range.StartByte, b.Range.StartByte)
	})
	x.setEnclosing()
	x.resolveCalls(c, ops)
}

// refKindOf maps a tags reference.<kind> suffix to a Ref constant.
func refKindOf(kind string) string {
	switch kind {
	case "call":
		return RefCall
	case "type":
		return RefType
	case "class":
		return RefClass
	case "implementation":
		return RefImplementation
	}
	return kind
}

// localNames reports which references are local variables by locals.scm's
// rules, for references from patterns with `#is-not? local`: a name
// defined (@local.definition) at or before the reference in its innermost
// @local.scope, or in an enclosing scope while scopes inherit, is local.
// The whole file is the outermost scope.
func (x *extraction) localNames(refs []refCand, scopes []localScope, locals []localDef) []bool {
	out := make([]bool, len(refs))
	need := false
	for _, r := range refs {
		need = need || r.notLocal
	}
	if !need {
		return out
	}
	scopes = append(scopes, localScope{span: span{start: 0, end: len(x.src) + 1}})
	slices.SortFunc(scopes, func(a, b localScope) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end))
	})
	type event struct {
		pos, order int // order: 0 scope, 1 definition, 2 reference
		i          int
	}
	var events []event
	for i, s := range scopes {
		events = append(events, event{s.start, 0, i})
	}
	for i, d := range locals {
		events = append(events, event{d.start, 1, i})
	}
	for i, r := range refs {
		if r.notLocal {
			events = append(events, event{int(r.name.StartByte()), 2, i})
		}
	}
	slices.SortStableFunc(events, func(a, b event) int {
		return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.order, b.order))
	})
	names := make([]map[string]bool, len(scopes))
	var stack []int
	for _, ev := range events {
		for len(stack) > 0 && scopes[stack[len(stack)-1]].end <= ev.pos {
			stack = stack[:len(stack)-1]
		}
		switch ev.order {
		case 0:
			stack = append(stack, ev.i)
		case 1:
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				if names[top] == nil {
					names[top] = map[string]bool{}
				}
				names[top][locals[ev.i].name] = true
			}
		case 2:
			n := refs[ev.i].name
			name := string(x.src[n.StartByte():n.EndByte()])
			for j := len(stack) - 1; j >= 0; j-- {
				if names[stack[j]][name] {
					out[ev.i] = true
					break
				}
				if !scopes[stack[j]].inherits {
					break
				}
			}
		}
	}
	return out
}

// setEnclosing sets each reference's Enclosing to the innermost function or
// method symbol containing it, else the innermost symbol, else -1.
func (x *extraction) setEnclosing() {
	syms, refs := x.ff.Symbols, x.ff.References
	var stack []int
	next := 0
	for i := range refs {
		r := refs[i].Range
		for next < len(syms) && syms[next].Range.StartByte <= r.StartByte {
			for len(stack) > 0 && !contains(syms[stack[len(stack)-1]].Range, syms[next].Range) {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, next)
			next++
		}
		for len(stack) > 0 && !contains(syms[stack[len(stack)-1]].Range, r) {
			stack = stack[:len(stack)-1]
		}
		refs[i].Enclosing = -1
		for j := len(stack) - 1; j >= 0; j-- {
			if k := syms[stack[j]].Kind; k == KindFunction || k == KindMethod {
				refs[i].Enclosing = stack[j]
				break
			}
		}
		if refs[i].Enclosing < 0 && len(stack) > 0 {
			refs[i].Enclosing = stack[len(stack)-1]
		}
	}
}

func contains(outer, inner Range) bool {
	return outer.StartByte <= inner.StartByte && inner.EndByte <= outer.EndByte
}
