// Source text helpers of a tree-sitter extraction: spans, ranges, and
// capped, valid-UTF-8 text.

package sourcefacts

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/internal/textclip"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// lineStart returns the offset of the start of the line holding offset
// off. The first call indexes the lines (one pass over src), so that no
// lookup scans a long line again: on a minified file a backwards scan per
// fact would cost time quadratic in its length.
func (x *extraction) lineStart(off int) int {
	if x.lines == nil {
		x.lines = append(make([]int, 0, 1+bytes.Count(x.src, []byte("\n"))), 0)
		for i, c := range x.src {
			if c == '\n' {
				x.lines = append(x.lines, i+1)
			}
		}
	}
	return x.lines[sort.SearchInts(x.lines, off+1)-1]
}

// span is a node's extent: bytes 0-based end exclusive, rows 0-based,
// startCol the byte column of start.
type span struct {
	start, end       int
	startRow, endRow int
	startCol         int
}

func spanOf(n *ts.Node) span {
	r := n.Range()
	return span{start: int(r.StartByte), end: int(r.EndByte), startRow: int(r.StartPoint.Row), endRow: int(r.EndPoint.Row),
		startCol: int(r.StartPoint.Column)}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// wordsOnly reports whether b holds only letters, digits, underscores and
// white space.
func wordsOnly(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) && !isIdentByte(c) {
			return false
		}
	}
	return true
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// firstError describes the first ERROR or MISSING node in document order.
func (x *extraction) firstError(root *ts.Node) string {
	c := root.Walk()
	defer c.Close()
	for steps := 0; steps < 1<<20; steps++ {
		n := c.Node()
		switch {
		case n.IsMissing():
			p := n.StartPosition()
			return fmt.Sprintf("syntax error: missing %s at line %d col %d", n.Kind(), p.Row+1, p.Column+1)
		case n.IsError():
			p := n.StartPosition()
			return fmt.Sprintf("syntax error at line %d col %d", p.Row+1, p.Column+1)
		case n.HasError() && c.GotoFirstChild():
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return "syntax error"
			}
		}
	}
	return "syntax error"
}

// text returns n's source text as valid UTF-8, capped at max bytes.
func (x *extraction) text(n *ts.Node, max int) string {
	end := min(n.EndByte(), n.StartByte()+uint(4*max))
	return textclip.Fit(strings.ToValidUTF8(string(x.src[n.StartByte():end]), "\uFFFD"), max)
}

// rangeOf converts a node's span to a Range: bytes 0-based end exclusive,
// lines 1-based inclusive, columns 0-based bytes.
func (x *extraction) rangeOf(n *ts.Node) Range {
	tr := n.Range()
	r := Range{
		StartByte: int(tr.StartByte), EndByte: int(tr.EndByte),
		StartLine: int(tr.StartPoint.Row) + 1, EndLine: int(tr.EndPoint.Row) + 1,
		StartCol: int(tr.StartPoint.Column), EndCol: int(tr.EndPoint.Column),
	}
	if r.EndCol == 0 && r.EndLine > r.StartLine && r.EndByte > r.StartByte && r.EndByte <= len(x.src) {
		// The span ends just after a newline: its last line is the one
		// that newline ends.
		r.EndLine--
		r.EndCol = r.EndByte - x.lineStart(r.EndByte-1)
	}
	return r
}

// collapse returns b with runs of white space turned into one space,
// trimmed, as valid UTF-8, capped at max bytes. It reads only as much of b
// as it needs.
func collapse(b []byte, max int) string {
	var out []byte
	space := false
	cut := false
	for i := 0; i < len(b); {
		c := b[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
			space = len(out) > 0
			i++
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
			size = 1
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
		if len(out) > max {
			cut = true
			break
		}
	}
	s := string(out)
	if cut {
		return textclip.Fit(s, max)
	}
	return s
}

// unquote strips one layer of quotes from a string literal's text: Go and
// C escapes via strconv.Unquote when they parse, else the delimiters
// ("", ”, “, <>) only.
func unquote(s string) string {
	if len(s) < 2 {
		return s
	}
	switch f, l := s[0], s[len(s)-1]; {
	case f == '"' && l == '"', f == '`' && l == '`':
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
		return s[1 : len(s)-1]
	case f == '\'' && l == '\'', f == '<' && l == '>':
		return s[1 : len(s)-1]
	}
	return s
}
