package sourcefacts

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// maxSymbolTypeBytes caps Symbol.Type.
const maxSymbolTypeBytes = 256

// extraction is the state of one tree-sitter Extract call after parsing.
type extraction struct {
	g        *compiledGrammar
	src      []byte
	ff       *FileFacts
	comments []commentSpan // every comment, sorted by start
	owners   []owner       // method owners without a symbol (Rust impl blocks)
	lines    []int         // byte offset of each line's start; built on first use
}

// run walks the query matches over root and fills x.ff. The walk stops
// early, leaving StatusPartial, if it outlasts budget (0: none).
func (x *extraction) run(ctx context.Context, qc *ts.QueryCursor, root *ts.Node, budget time.Duration) error {
	c, err := x.collect(ctx, qc, root, budget)
	if err != nil {
		return err
	}
	ff := x.ff
	if c.pkg != nil {
		if x.g.spec.name == "go" {
			ff.Package = x.text(c.pkg, 256)
		} else {
			ff.Package = strings.Join(strings.Fields(x.text(c.pkg, 1024)), "")
		}
	}
	if root.HasError() {
		ff.Status = StatusPartial
		ff.Error = x.firstError(root)
	}
	incomplete := ""
	switch {
	case budget > 0 && time.Since(c.start) >= budget:
		incomplete = "query timeout: facts incomplete"
	case qc.DidExceedMatchLimit():
		incomplete = "query match limit exceeded: facts incomplete"
	}
	if incomplete != "" {
		ff.Status = StatusPartial
		ff.Error = strings.TrimPrefix(ff.Error+"; "+incomplete, "; ")
	}
	slices.SortFunc(x.comments, func(a, b commentSpan) int { return cmp.Compare(a.start, b.start) })
	x.addSymbols(c.defs)
	setSymbolRoles(ff, x.attributedItems(c.roleTests))
	for i := range ff.Symbols {
		if t, ok := c.symTypes[uint(ff.Symbols[i].NameRange.StartByte)]; ok {
			ff.Symbols[i].Type = collapse(x.src[t.StartByte():t.EndByte()], maxSymbolTypeBytes)
		}
	}
	x.addImports(c.imports)
	x.addReferences(c)
	return nil
}

// attributedItems returns the spans of the items the attributes attrs
// apply to: each attribute's next named sibling that is neither another
// attribute nor a comment (Rust: `#[cfg(test)] #[allow(x)] /// doc
// mod tests {...}`).
func (x *extraction) attributedItems(attrs []ts.Node) []span {
	var out []span
	for _, a := range attrs {
		n := a.NextNamedSibling()
		for n != nil && (n.Kind() == "attribute_item" || strings.HasSuffix(n.Kind(), "comment")) {
			n = n.NextNamedSibling()
		}
		if n != nil {
			out = append(out, spanOf(n))
		}
	}
	return out
}
