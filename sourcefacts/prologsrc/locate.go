package prologsrc

import "sort"

// lines maps byte offsets to lines and columns.
type lines struct {
	starts []int // byte offset of each line's start
}

func newLines(s string) lines {
	l := lines{starts: []int{0}}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// pos returns the 1-based line and 0-based byte column of offset.
func (l *lines) pos(offset int) (line, col int) {
	i := sort.SearchInts(l.starts, offset+1) - 1
	return i + 1, offset - l.starts[i]
}

// span is the Span of bytes [start, end).
func (l *lines) span(start, end int) Span {
	sl, sc := l.pos(start)
	el, ec := l.pos(end)
	if ec == 0 && el > sl && end > start {
		// Ends just after a newline: its last line is the one that
		// newline ends.
		el--
		ec = end - l.starts[el-1]
	}
	return Span{StartByte: start, EndByte: end, StartLine: sl, EndLine: el, StartCol: sc, EndCol: ec}
}

// locator finds the tokens of a clause's head and goals, in order.
type locator struct {
	toks      []token
	lines     *lines
	fallback  Span // the clause
	pos       int  // where the next search starts
	enclosing int  // the definition the clause belongs to, -1 for none
}

// searchWindow bounds how many tokens one search looks at, so that goals
// whose tokens cannot be found cost no more than that each.
const searchWindow = 1024

// skipPast moves past the next name token name (":-", "-->", "?-") at
// bracket depth 0.
func (l *locator) skipPast(name string) {
	depth := 0
	for i := l.pos; i < len(l.toks); i++ {
		t := l.toks[i]
		switch {
		case t.kind == tkPunct && (t.name == "(" || t.name == "[" || t.name == "{"):
			depth++
		case t.kind == tkPunct && (t.name == ")" || t.name == "]" || t.name == "}"):
			depth--
		case depth == 0 && t.kind == tkName && t.name == name:
			l.pos = i + 1
			return
		}
	}
}

// headToken returns the index of the head's functor token: the first
// token named name before the neck, -1 if none.
func (l *locator) headToken(name string) int {
	for i := 0; i < len(l.toks) && i < searchWindow; i++ {
		t := l.toks[i]
		if t.kind == tkName && (t.name == ":-" || t.name == "-->") {
			break
		}
		if t.kind == tkName && t.name == name {
			return i
		}
	}
	return -1
}

// goalSeparators are the tokens a goal written as an atom can follow.
var goalSeparators = map[string]bool{
	",": true, "(": true, "|": true, "{": true, ";": true, "->": true, "*->": true,
	":-": true, "-->": true, "?-": true, `\+`: true, ":": true, "^": true,
}

// goalToken finds the next token of a goal named name and moves past it
// (and past the arguments of a goal in functional notation that is not a
// meta-call, which hold no goals). It returns -1 if there is none.
func (l *locator) goalToken(name string, hasArgs, meta bool) int {
	for i := l.pos; i < len(l.toks) && i < l.pos+searchWindow; i++ {
		t := l.toks[i]
		if t.kind != tkName || t.name != name {
			continue
		}
		ok := hasArgs // functional notation, or an operator
		if !hasArgs && !t.open {
			ok = i == 0 || goalSeparators[l.toks[i-1].name]
		}
		if !ok {
			continue
		}
		l.pos = i + 1
		if t.open && !meta {
			if j := matchClose(l.toks, i+1); j >= 0 {
				l.pos = j + 1
			}
		}
		return i
	}
	return -1
}

// spanOf is the span of token i, or the clause's if i < 0.
func (l *locator) spanOf(i int) Span {
	if i < 0 {
		return l.fallback
	}
	return l.lines.span(l.toks[i].start, l.toks[i].end)
}

// matchClose returns the index of the bracket closing the one at toks[i],
// -1 if toks[i] is not an opening bracket or it is not closed.
func matchClose(toks []token, i int) int {
	if i >= len(toks) || toks[i].kind != tkPunct || (toks[i].name != "(" && toks[i].name != "[" && toks[i].name != "{") {
		return -1
	}
	depth := 0
	for j := i; j < len(toks); j++ {
		t := toks[j]
		if t.kind != tkPunct {
			continue
		}
		switch t.name {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}
