package prologsrc

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The scanner finds where each clause of a Prolog text starts and ends,
// and where its tokens are, because ichiban/prolog's parser reports no
// positions. It follows the lexical rules of that parser's lexer (ISO
// syntax): a clause ends at an end token, a '.' that starts a token and is
// followed by layout, '%' or the end of the text; quoted atoms, strings,
// back-quoted text, comments and 0'c character codes are skipped as units.
// It never fails: unterminated quotes or comments run to the end of the
// text, and the parser then reports the error.

type tokKind uint8

const (
	tkName  tokKind = iota // an atom: letter-digit, graphic, quoted, or ! ;
	tkVar                  // a variable
	tkNum                  // a number or 0'c character code
	tkStr                  // a double-quoted or back-quoted text
	tkPunct                // ( ) [ ] { } , |
	tkEnd                  // the end token
	tkBad                  // anything else (the parser will reject it)
)

type token struct {
	kind       tokKind
	start, end int    // byte offsets into the text
	name       string // tkName: the atom's name (unquoted); tkPunct: the character
	// open: the token is immediately followed by "(" (functional
	// notation when the token is a name).
	open bool
}

// clauseText is one clause (or directive) of the text: its tokens, from
// the first to the end token (absent when the text ends first).
type clauseText struct {
	start, end int // bytes: first token start, end token end (exclusive)
	toks       []token
	depth      int  // deepest bracket nesting
	ended      bool // has an end token
	tooLong    bool // more than maxTokens tokens (toks is cut short)
}

// comment is a comment's extent; line comments exclude the newline.
type comment struct {
	start, end int
	block      bool
}

type scanner struct {
	src       string
	i         int
	maxTokens int
	comments  []comment
}

// nextClause returns the next clause of the text, false at its end.
// Clauses with more than maxTokens tokens keep only the first maxTokens
// and are marked tooLong.
func (s *scanner) nextClause() (clauseText, bool) {
	cur := clauseText{start: -1}
	depth := 0
	for {
		t, ok := s.next()
		if !ok {
			break
		}
		if cur.start < 0 {
			cur.start = t.start
		}
		cur.end = t.end
		switch {
		case t.kind == tkPunct && (t.name == "(" || t.name == "[" || t.name == "{"):
			depth++
			cur.depth = max(cur.depth, depth)
		case t.kind == tkPunct && (t.name == ")" || t.name == "]" || t.name == "}"):
			depth = max(depth-1, 0)
		}
		if len(cur.toks) < s.maxTokens {
			cur.toks = append(cur.toks, t)
		} else {
			cur.tooLong = true
		}
		if t.kind == tkEnd {
			cur.ended = true
			return cur, true
		}
	}
	return cur, cur.start >= 0
}

func (s *scanner) peek(off int) (rune, int) {
	if s.i+off >= len(s.src) {
		return -1, 0
	}
	return utf8.DecodeRuneInString(s.src[s.i+off:])
}

// next returns the next token, skipping layout and comments.
func (s *scanner) next() (token, bool) {
	for s.i < len(s.src) {
		r, n := s.peek(0)
		switch {
		case isLayout(r):
			s.i += n
			continue
		case r == '%':
			start := s.i
			j := strings.IndexByte(s.src[s.i:], '\n')
			if j < 0 {
				s.i = len(s.src)
			} else {
				s.i += j
			}
			s.comments = append(s.comments, comment{start: start, end: s.i - trailingCR(s.src[start:s.i])})
			continue
		case r == '/' && strings.HasPrefix(s.src[s.i:], "/*"):
			start := s.i
			j := strings.Index(s.src[s.i+2:], "*/")
			if j < 0 {
				s.i = len(s.src)
			} else {
				s.i += 2 + j + 2
			}
			s.comments = append(s.comments, comment{start: start, end: s.i, block: true})
			continue
		}
		return s.token(), true
	}
	return token{}, false
}

func trailingCR(s string) int {
	if strings.HasSuffix(s, "\r") {
		return 1
	}
	return 0
}

// token reads one token at s.i, which is not layout or a comment.
func (s *scanner) token() token {
	start := s.i
	r, n := s.peek(0)
	t := token{start: start}
	switch {
	case isSmallLetter(r):
		s.i += n
		s.skipAlnum()
		t.kind, t.name = tkName, s.src[start:s.i]
	case r == '_' || unicode.IsUpper(r):
		s.i += n
		s.skipAlnum()
		t.kind = tkVar
	case r >= '0' && r <= '9':
		s.number()
		t.kind = tkNum
	case r == '\'':
		s.quoted('\'')
		t.kind, t.name = tkName, unquoteAtom(s.src[start:s.i])
	case r == '"' || r == '`':
		s.quoted(byte(r))
		t.kind = tkStr
	case r == '.' && s.endFollows(n):
		s.i += n
		t.kind = tkEnd
	case isGraphic(r):
		for s.i < len(s.src) {
			r, n := s.peek(0)
			if !isGraphic(r) {
				break
			}
			s.i += n
		}
		t.kind, t.name = tkName, s.src[start:s.i]
	case r == '!' || r == ';':
		s.i += n
		t.kind, t.name = tkName, s.src[start:s.i]
	case strings.ContainsRune("()[]{},|", r):
		s.i += n
		t.kind, t.name = tkPunct, s.src[start:s.i]
		if r == '|' && strings.HasPrefix(s.src[s.i:], "|") {
			// "||" is one name token.
			s.i++
			t.kind, t.name = tkName, "||"
		}
	default:
		s.i += max(n, 1)
		t.kind = tkBad
	}
	t.end = s.i
	t.open = s.i < len(s.src) && s.src[s.i] == '('
	return t
}

// endFollows reports whether the '.' at s.i (n bytes) is an end token:
// followed by layout, '%' or the end of the text.
func (s *scanner) endFollows(n int) bool {
	r, _ := s.peek(n)
	return r < 0 || isLayout(r) || r == '%'
}

func (s *scanner) skipAlnum() {
	for s.i < len(s.src) {
		r, n := s.peek(0)
		if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return
		}
		s.i += n
	}
}

// number skips an integer, float, 0'c, 0x.., 0o.. or 0b.. token.
func (s *scanner) number() {
	src := s.src
	if strings.HasPrefix(src[s.i:], "0'") {
		start := s.i
		s.i += 2
		switch {
		case strings.HasPrefix(src[s.i:], "''"): // 0''' is the code of a quote
			s.i += 2
		case s.i >= len(src) || src[s.i] == '\'':
			s.i = start + 1 // just 0 (then a quoted atom)
		case src[s.i] == '\\':
			s.escape()
		default:
			_, n := utf8.DecodeRuneInString(src[s.i:])
			s.i += n
		}
		return
	}
	if len(src)-s.i > 2 && src[s.i] == '0' && strings.IndexByte("xob", src[s.i+1]) >= 0 && isHexDigit(src[s.i+2]) {
		s.i += 2
		for s.i < len(src) && isHexDigit(src[s.i]) {
			s.i++
		}
		return
	}
	s.digits()
	if s.i+1 < len(src) && src[s.i] == '.' && src[s.i+1] >= '0' && src[s.i+1] <= '9' {
		s.i++
		s.digits()
		if s.i < len(src) && (src[s.i] == 'e' || src[s.i] == 'E') {
			j := s.i + 1
			if j < len(src) && (src[j] == '+' || src[j] == '-') {
				j++
			}
			if j < len(src) && src[j] >= '0' && src[j] <= '9' {
				s.i = j
				s.digits()
			}
		}
	}
}

func (s *scanner) digits() {
	for s.i < len(s.src) && (s.src[s.i] >= '0' && s.src[s.i] <= '9' || s.src[s.i] == '_') {
		s.i++
	}
}

// escape skips a backslash escape sequence at s.i: \x41\ and \101\ run to
// their closing backslash, others are one character.
func (s *scanner) escape() {
	s.i++ // the backslash
	if s.i >= len(s.src) {
		return
	}
	c := s.src[s.i]
	if c == 'x' || c >= '0' && c <= '7' {
		j := s.i + 1
		for j < len(s.src) && isHexDigit(s.src[j]) && j-s.i < 16 {
			j++
		}
		if j < len(s.src) && s.src[j] == '\\' {
			s.i = j + 1
			return
		}
	}
	_, n := utf8.DecodeRuneInString(s.src[s.i:])
	s.i += n
}

// quoted skips a text quoted with q from s.i (at the opening quote): a
// doubled quote stands for itself, a backslash escapes. Unterminated text
// runs to the end.
func (s *scanner) quoted(q byte) {
	s.i++
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == '\\':
			s.escape()
		case c == q:
			if s.i+1 < len(s.src) && s.src[s.i+1] == q {
				s.i += 2
				continue
			}
			s.i++
			return
		default:
			s.i++
		}
	}
}

// unquoteAtom is the name of a quoted atom as written ('it”s' is it's);
// escapes other than \\ and \' are kept as written (the name is only used
// to find the token of a goal).
func unquoteAtom(s string) string {
	if len(s) < 2 || s[len(s)-1] != '\'' {
		return strings.TrimPrefix(s, "'")
	}
	s = s[1 : len(s)-1]
	if !strings.ContainsAny(s, `'\`) {
		return s
	}
	return strings.NewReplacer("''", "'", `\'`, "'", `\\`, `\`).Replace(s)
}

func isLayout(r rune) bool { return r >= 0 && unicode.IsSpace(r) }

func isSmallLetter(r rune) bool { return r >= 0 && unicode.In(r, unicode.Ll, unicode.Lo, unicode.Lm) }

// isGraphic is ichiban/prolog's graphic character set, with the backslash.
func isGraphic(r rune) bool {
	return r >= 0 && (strings.ContainsRune(`#$&*+-./:<=>?@^~\`, r) ||
		r >= 0x2200 && r <= 0x22FF || r >= 0x2A00 && r <= 0x2AFF)
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
