package plsyntax

import "sort"

// Span is a stretch of a text: bytes 0-based, end exclusive; lines
// 1-based and inclusive; columns 0-based byte offsets within the line.
type Span struct {
	StartByte, EndByte int
	StartLine, EndLine int
	StartCol, EndCol   int
}

// Lines maps byte offsets of one text to lines and columns.
type Lines struct {
	starts []int // byte offset of each line's start
}

// NewLines indexes the line starts of s ('\n' ends a line).
func NewLines(s string) *Lines {
	l := &Lines{starts: []int{0}}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// Pos returns the 1-based line and 0-based byte column of offset.
func (l *Lines) Pos(offset int) (line, col int) {
	i := sort.SearchInts(l.starts, offset+1) - 1
	return i + 1, offset - l.starts[i]
}

// Span is the Span of bytes [start, end).
func (l *Lines) Span(start, end int) Span {
	sl, sc := l.Pos(start)
	el, ec := l.Pos(end)
	if ec == 0 && el > sl && end > start {
		// Ends just after a newline: its last line is the one that
		// newline ends.
		el--
		ec = end - l.starts[el-1]
	}
	return Span{StartByte: start, EndByte: end, StartLine: sl, EndLine: el, StartCol: sc, EndCol: ec}
}
