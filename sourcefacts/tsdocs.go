// Doc comments and docstrings of definitions.

package sourcefacts

import (
	"bytes"
	"regexp"
	"sort"
	"strings"

	"github.com/rlm-dev/rlm/internal/textclip"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// commentSpan is a comment, or (skip) something that may sit inside a run
// of doc comments without adding text, such as a Rust attribute.
type commentSpan struct {
	span
	skip bool
}

// commentOf is n's span without a trailing newline (Rust's line comments
// include theirs), so that its last row is the row its text is on.
func commentOf(n *ts.Node, src []byte) span {
	s := spanOf(n)
	if n.EndPosition().Column == 0 && s.endRow > s.startRow {
		s.endRow--
	}
	for s.end > s.start && (src[s.end-1] == '\n' || src[s.end-1] == '\r') {
		s.end--
	}
	return s
}

// docComments returns the doc comments of a definition starting at anchor
// (its start byte and 0-based row): the run of comments directly above it,
// each on the line after (or the same line as) the one before, the last on
// the line just above, with only white space between them (the tags
// #set-adjacent! rule). A topmost comment that trails code on its line
// (`x := 1 // note`) is not part of the run, as in Go's doc comments.
// Skip entries (Rust attributes) may sit in the run; they never start or
// end it.
func (x *extraction) docComments(anchor span) []commentSpan {
	cs := x.comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].end > anchor.start }) - 1
	if i < 0 || anchor.startRow-cs[i].endRow != 1 || !isBlank(x.src[cs[i].end:anchor.start]) {
		return nil
	}
	first := i
	for j := i - 1; j >= 0; j-- {
		gap := cs[j+1].startRow - cs[j].endRow
		if gap < 0 || gap > 1 || cs[j].end > cs[j+1].start || !isBlank(x.src[cs[j].end:cs[j+1].start]) {
			break
		}
		first = j
	}
	if c := cs[first]; !isBlank(x.src[c.start-c.startCol : c.start]) {
		first++
	}
	for first <= i && cs[first].skip {
		first++
	}
	return cs[first : i+1]
}

// docstring is a Python definition's docstring: its body's first
// statement when that is a string literal, with the quotes removed and
// indentation cleaned as inspect.cleandoc does. Capped at MaxDocBytes.
func (x *extraction) docstring(n *ts.Node) string {
	if x.g.fields.body == 0 {
		return ""
	}
	body := n.ChildByFieldId(x.g.fields.body)
	if body == nil {
		return ""
	}
	stmt := body.NamedChild(0)
	if stmt == nil || stmt.Kind() != "expression_statement" {
		return ""
	}
	str := stmt.NamedChild(0)
	if str == nil || str.Kind() != "string" || str.NextNamedSibling() != nil {
		return ""
	}
	raw := x.src[str.StartByte():min(str.EndByte(), str.StartByte()+4*MaxDocBytes)]
	i := bytes.IndexAny(raw, `"'`)
	if i < 0 || i > 3 {
		return ""
	}
	q := raw[i : i+1]
	if bytes.HasPrefix(raw[i:], bytes.Repeat(q, 3)) {
		q = bytes.Repeat(q, 3)
	}
	body2 := bytes.TrimSuffix(raw[i+len(q):], q)
	return textclip.Fit(cleandoc(strings.ToValidUTF8(string(body2), "\uFFFD")), MaxDocBytes)
}

// cleandoc removes a docstring's indentation as Python's inspect.cleandoc
// does: the first line is trimmed, the common leading white space of the
// others removed, and blank lines at either end dropped.
func cleandoc(s string) string {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\t", "        "), "\n")
	indent := -1
	for _, l := range lines[1:] {
		t := strings.TrimLeft(l, " ")
		if t == "" {
			continue
		}
		if n := len(l) - len(t); indent < 0 || n < indent {
			indent = n
		}
	}
	lines[0] = strings.TrimSpace(lines[0])
	for i := 1; i < len(lines); i++ {
		if indent > 0 && len(lines[i]) >= indent {
			lines[i] = lines[i][indent:]
		}
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

var defaultDocStrip = regexp.MustCompile(`^//\s*`)

// docText joins doc comments into plain text: line comments lose strip
// (the pattern's #strip! regex, else the grammar's, else `^//\s*`), block
// comments lose their /* */ markers and any leading " * " on each line.
// Capped at MaxDocBytes.
func (x *extraction) docText(docs []commentSpan, strip *regexp.Regexp) string {
	if len(docs) == 0 {
		return ""
	}
	if strip == nil {
		strip = defaultDocStrip
	}
	var b strings.Builder
	for _, d := range docs {
		if b.Len() > MaxDocBytes {
			break
		}
		if d.skip {
			continue
		}
		raw := x.src[d.start:d.end]
		if len(raw) > 2*MaxDocBytes {
			raw = raw[:2*MaxDocBytes]
		}
		t := strings.ToValidUTF8(string(raw), "\uFFFD")
		if strings.HasPrefix(t, "/*") {
			t = strings.TrimSuffix(strings.TrimPrefix(t, "/*"), "*/")
			for line := range strings.SplitSeq(t, "\n") {
				line = strings.TrimSpace(line)
				line = strings.TrimSpace(strings.TrimLeft(line, "*"))
				b.WriteString(line)
				b.WriteByte('\n')
			}
			continue
		}
		if x.g.spec.name == "go" && isDirective(t) {
			continue
		}
		b.WriteString(strings.TrimRight(strip.ReplaceAllString(t, ""), " \t\r"))
		b.WriteByte('\n')
	}
	return textclip.Fit(strings.TrimSpace(b.String()), MaxDocBytes)
}

// isDirective reports whether line comment c is a tool directive rather
// than documentation (go/ast's rule): //line, //extern, //export, or
// //name:arg such as //go:noinline.
func isDirective(c string) bool {
	c, ok := strings.CutPrefix(c, "//")
	if !ok {
		return false
	}
	for _, p := range [...]string{"line ", "extern ", "export "} {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	colon := strings.IndexByte(c, ':')
	if colon <= 0 || colon+1 >= len(c) {
		return false
	}
	for i := 0; i <= colon+1; i++ {
		if i == colon {
			continue
		}
		if b := c[i]; !('a' <= b && b <= 'z' || '0' <= b && b <= '9') {
			return false
		}
	}
	return true
}
