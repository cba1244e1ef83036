package plsyntax

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

// Limits. A clause over a limit is refused by ReadClause like a syntax
// error: the term reader recurses once per nesting level and operator, and
// a Go stack overflow cannot be recovered from.
const (
	// MaxClauseTokens is the most tokens one clause may have; the scanner
	// keeps no more (Clause.TooLong).
	MaxClauseTokens = 100000
	// MaxClauseDepth is the deepest bracket nesting a clause may have.
	MaxClauseDepth = 10000
)

// TokenKind is the kind of a Token.
type TokenKind uint8

// Token kinds.
const (
	TokName  TokenKind = iota // an atom: letter-digit, graphic, quoted, or ! ;
	TokVar                    // a variable
	TokNum                    // a number or 0'c character code
	TokStr                    // a double-quoted or back-quoted text
	TokPunct                  // ( ) [ ] { } , |
	TokEnd                    // the end token
	TokBad                    // anything else (the parser will reject it)
)

// Token is one token of a text.
type Token struct {
	Kind       TokenKind
	Start, End int    // byte offsets into the text, End exclusive
	Name       string // TokName: the atom's name (unquoted); TokPunct: the character
	// Open: the token is immediately followed by "(" (functional notation
	// when the token is a name).
	Open bool
}

// Clause is one clause (or directive) of a text as the scanner found it:
// its tokens, from the first to the end token (absent when the text ends
// first).
type Clause struct {
	Start, End int // bytes: first token start, end token end (exclusive)
	Tokens     []Token
	Depth      int  // deepest bracket nesting
	Ended      bool // has an end token
	TooLong    bool // more than MaxClauseTokens tokens (Tokens is cut short)
}

// Comment is a comment's extent in bytes; line comments exclude the
// newline.
type Comment struct {
	Start, End int
	Block      bool // a /* */ comment
}

// Scanner splits a text into clauses. The zero value is not usable; see
// NewScanner.
type Scanner struct {
	src       string
	i         int
	maxTokens int
	comments  []Comment
}

// NewScanner returns a scanner of src that keeps at most MaxClauseTokens
// tokens per clause.
func NewScanner(src string) *Scanner {
	return &Scanner{src: src, maxTokens: MaxClauseTokens}
}

// Comments returns the comments scanned so far, in text order (all of them
// before the clause Next returned last, and any inside it).
func (s *Scanner) Comments() []Comment { return s.comments }

// Next returns the next clause of the text, false at its end. A clause
// with more than MaxClauseTokens tokens keeps only the first ones and is
// marked TooLong.
func (s *Scanner) Next() (Clause, bool) {
	cur := Clause{Start: -1}
	depth := 0
	for {
		t, ok := s.next()
		if !ok {
			break
		}
		if cur.Start < 0 {
			cur.Start = t.Start
		}
		cur.End = t.End
		switch {
		case t.Kind == TokPunct && (t.Name == "(" || t.Name == "[" || t.Name == "{"):
			depth++
			cur.Depth = max(cur.Depth, depth)
		case t.Kind == TokPunct && (t.Name == ")" || t.Name == "]" || t.Name == "}"):
			depth = max(depth-1, 0)
		}
		if len(cur.Tokens) < s.maxTokens {
			cur.Tokens = append(cur.Tokens, t)
		} else {
			cur.TooLong = true
		}
		if t.Kind == TokEnd {
			cur.Ended = true
			return cur, true
		}
	}
	return cur, cur.Start >= 0
}

func (s *Scanner) peek(off int) (rune, int) {
	if s.i+off >= len(s.src) {
		return -1, 0
	}
	return utf8.DecodeRuneInString(s.src[s.i+off:])
}

// next returns the next token, skipping layout and comments.
func (s *Scanner) next() (Token, bool) {
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
			s.comments = append(s.comments, Comment{Start: start, End: s.i - trailingCR(s.src[start:s.i])})
			continue
		case r == '/' && strings.HasPrefix(s.src[s.i:], "/*"):
			start := s.i
			j := strings.Index(s.src[s.i+2:], "*/")
			if j < 0 {
				s.i = len(s.src)
			} else {
				s.i += 2 + j + 2
			}
			s.comments = append(s.comments, Comment{Start: start, End: s.i, Block: true})
			continue
		}
		return s.token(), true
	}
	return Token{}, false
}

func trailingCR(s string) int {
	if strings.HasSuffix(s, "\r") {
		return 1
	}
	return 0
}

// token reads one token at s.i, which is not layout or a comment.
func (s *Scanner) token() Token {
	start := s.i
	r, n := s.peek(0)
	t := Token{Start: start}
	switch {
	case isSmallLetter(r):
		s.i += n
		s.skipAlnum()
		t.Kind, t.Name = TokName, s.src[start:s.i]
	case r == '_' || unicode.IsUpper(r):
		s.i += n
		s.skipAlnum()
		t.Kind = TokVar
	case r >= '0' && r <= '9':
		s.number()
		t.Kind = TokNum
	case r == '\'':
		s.quoted('\'')
		t.Kind, t.Name = TokName, unquoteAtom(s.src[start:s.i])
	case r == '"' || r == '`':
		s.quoted(byte(r))
		t.Kind = TokStr
	case r == '.' && s.endFollows(n):
		s.i += n
		t.Kind = TokEnd
	case isGraphic(r):
		for s.i < len(s.src) {
			r, n := s.peek(0)
			if !isGraphic(r) {
				break
			}
			s.i += n
		}
		t.Kind, t.Name = TokName, s.src[start:s.i]
	case r == '!' || r == ';':
		s.i += n
		t.Kind, t.Name = TokName, s.src[start:s.i]
	case strings.ContainsRune("()[]{},|", r):
		s.i += n
		t.Kind, t.Name = TokPunct, s.src[start:s.i]
		if r == '|' && strings.HasPrefix(s.src[s.i:], "|") {
			// "||" is one name token.
			s.i++
			t.Kind, t.Name = TokName, "||"
		}
	default:
		s.i += max(n, 1)
		t.Kind = TokBad
	}
	t.End = s.i
	t.Open = s.i < len(s.src) && s.src[s.i] == '('
	return t
}

// endFollows reports whether the '.' at s.i (n bytes) is an end token:
// followed by layout, '%' or the end of the text.
func (s *Scanner) endFollows(n int) bool {
	r, _ := s.peek(n)
	return r < 0 || isLayout(r) || r == '%'
}

func (s *Scanner) skipAlnum() {
	for s.i < len(s.src) {
		r, n := s.peek(0)
		if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return
		}
		s.i += n
	}
}

// number skips an integer, float, 0'c, 0x.., 0o.. or 0b.. token.
func (s *Scanner) number() {
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

func (s *Scanner) digits() {
	for s.i < len(s.src) && (s.src[s.i] >= '0' && s.src[s.i] <= '9' || s.src[s.i] == '_') {
		s.i++
	}
}

// escape skips a backslash escape sequence at s.i: \x41\ and \101\ run to
// their closing backslash, others are one character.
func (s *Scanner) escape() {
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
// runs to the end, and quoted reports false.
func (s *Scanner) quoted(q byte) bool {
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
			return true
		default:
			s.i++
		}
	}
	return false
}

// unterminated reports whether text (one token) is a quoted atom, string
// or back-quoted text that runs to its end without its closing quote.
func unterminated(text string) bool {
	if text == "" || (text[0] != '\'' && text[0] != '"' && text[0] != '`') {
		return false
	}
	s := &Scanner{src: text}
	return !s.quoted(text[0])
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
