package plsyntax

import (
	"errors"
	"fmt"
	"io"
	"strings"

	pl "github.com/ichiban/prolog/engine"

	"github.com/rlm-dev/rlm/internal/textclip"
)

// SyntaxError is a clause that cannot be read.
type SyntaxError struct {
	// Offset is the byte offset in the text of the problem: the offending
	// token, the end of the clause's last token when its "." is missing,
	// or the clause's start for a limit.
	Offset int
	// Msg says what is wrong in plain words, e.g. `unexpected "c"`,
	// `operator expected after "foo(X)"`, `missing "." at the end of the
	// clause`, `unbalanced ")"`.
	Msg string
	// Reader is ichiban/prolog's own message (e.g. "unexpected token:
	// letter digit(c)"), or which limit was hit.
	Reader string
	// Err is the reader's error, nil for a limit.
	Err error
}

func (e *SyntaxError) Error() string { return "syntax error: " + e.Msg }

func (e *SyntaxError) Unwrap() error { return e.Err }

// ReadClause reads the text of clause c of src with ichiban/prolog's
// parser over vm (see NewParserVM) and returns its terms: one, unless the
// scanner and the parser disagree on where a clause ends. On an error it
// returns the terms read before it and a *SyntaxError. Clauses over
// MaxClauseTokens tokens or MaxClauseDepth nesting are refused unread.
func ReadClause(vm *pl.VM, src string, c *Clause) ([]pl.Term, error) {
	switch {
	case c.TooLong:
		msg := fmt.Sprintf("clause has over %d tokens", MaxClauseTokens)
		return nil, &SyntaxError{Offset: c.Start, Msg: msg, Reader: msg}
	case c.Depth > MaxClauseDepth:
		msg := fmt.Sprintf("clause nests deeper than %d", MaxClauseDepth)
		return nil, &SyntaxError{Offset: c.Start, Msg: msg, Reader: msg}
	}
	in := &countingReader{r: strings.NewReader(src[c.Start:c.End])}
	p := pl.NewParser(vm, in)
	var terms []pl.Term
	for p.More() {
		t, err := readTerm(p)
		if err != nil {
			return terms, explain(src, c, c.Start+in.n, err)
		}
		terms = append(terms, t)
	}
	if len(terms) == 0 {
		// The lexer failed on the first token (an unterminated quote).
		_, err := readTerm(p)
		if err == nil {
			err = errors.New("no term")
		}
		se := explain(src, c, c.Start+in.n, err)
		se.Reader = "no term"
		return nil, se
	}
	if !c.Ended {
		return terms, &SyntaxError{Offset: c.Tokens[len(c.Tokens)-1].End, Msg: missingEnd, Reader: "missing end of clause"}
	}
	return terms, nil
}

const missingEnd = `missing "." at the end of the clause`

// readTerm reads one term, turning a panic of the reader into an error.
func readTerm(p *pl.Parser) (t pl.Term, err error) {
	defer func() {
		if v := recover(); v != nil {
			t, err = nil, fmt.Errorf("reader failed: %v", v)
		}
	}()
	return p.Term()
}

// countingReader counts the bytes the lexer has taken from the text.
type countingReader struct {
	r *strings.Reader
	n int
}

func (c *countingReader) ReadRune() (rune, int, error) {
	r, n, err := c.r.ReadRune()
	c.n += n
	return r, n, err
}

// tokenKinds are the names ichiban/prolog's lexer gives its token kinds
// (engine/lexer.go, tokenKind.String), longest first so that a prefix
// match finds the right one.
var tokenKinds = []string{
	"double quoted list", "letter digit", "float number", "close curly", "close list",
	"open curly", "open list", "semicolon", "variable", "graphic", "integer", "invalid",
	"open ct", "quoted", "close", "comma", "open", "cut", "bar", "end",
}

// parseUnexpected splits "unexpected token: KIND(VAL)", the message of
// ichiban/prolog's unexpectedTokenError (engine/parser.go), whose type is
// not exported.
func parseUnexpected(msg string) (kind, val string, ok bool) {
	rest, ok := strings.CutPrefix(msg, "unexpected token: ")
	if !ok || !strings.HasSuffix(rest, ")") {
		return "", "", false
	}
	for _, k := range tokenKinds {
		if v, ok := strings.CutPrefix(rest, k+"("); ok {
			return k, strings.TrimSuffix(v, ")"), true
		}
	}
	return "", "", false
}

// explain turns the reader's error for clause c, raised when the lexer had
// taken the text up to byte consumed, into a SyntaxError in plain words at
// the offending token.
func explain(src string, c *Clause, consumed int, err error) *SyntaxError {
	se := &SyntaxError{Offset: c.Start, Reader: err.Error(), Err: err}
	toks := c.Tokens
	text := func(i int) string { return src[toks[i].Start:toks[i].End] }
	var ex pl.Exception
	switch kind, val, isToken := parseUnexpected(err.Error()); {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		last := len(toks) - 1
		switch {
		case last >= 0 && unterminated(text(last)):
			se.Offset = toks[last].Start
			se.Msg = fmt.Sprintf("%s %s… is not closed", quotedKind(text(last)[0]), textclip.Clean(strings.Join(strings.Fields(text(last)), " "), 40))
		case last >= 0:
			se.Offset = toks[last].End
			se.Msg = missingEnd
		default:
			se.Msg = "unexpected end of the text"
		}
	case errors.As(err, &ex):
		i := lastBefore(toks, consumed, func(t Token) bool { return t.Kind == TokNum })
		if i >= 0 {
			se.Offset = toks[i].Start
		}
		se.Msg = "number out of range"
		if strings.Contains(ex.Error(), "integer") {
			se.Msg = "integer out of range (64 bits)"
		}
	case isToken:
		se.Msg, se.Offset = explainToken(src, toks, consumed, kind, val)
	default:
		se.Msg = textclip.Clean(err.Error(), 200)
	}
	return se
}

// explainToken explains an unexpected token of the given kind and text.
func explainToken(src string, toks []Token, consumed int, kind, val string) (string, int) {
	text := func(i int) string { return src[toks[i].Start:toks[i].End] }
	i := lastBefore(toks, consumed, func(t Token) bool {
		s := src[t.Start:t.End]
		return s == val || kind == "invalid" && val != "" && strings.HasPrefix(s, val)
	})
	if i < 0 {
		i = lastBefore(toks, consumed, func(Token) bool { return true })
	}
	if i < 0 {
		return fmt.Sprintf("unexpected %s", quote(val)), 0
	}
	at := toks[i].Start
	opens := openBrackets(toks[:i])
	switch kind {
	case "end":
		if len(opens) > 0 {
			o := opens[len(opens)-1]
			return fmt.Sprintf("unbalanced %s: not closed before the end of the clause", quote(text(o))), toks[o].Start
		}
		if i > 0 && !endsTerm(toks[i-1]) {
			return fmt.Sprintf("missing term after %s", quote(text(i-1))), toks[i-1].Start
		}
		return "unexpected end of the clause", at
	case "close", "close list", "close curly":
		if len(opens) == 0 {
			return fmt.Sprintf("unbalanced %s: nothing to close", quote(val)), at
		}
		if o := opens[len(opens)-1]; closing(text(o)) != val {
			return fmt.Sprintf("unbalanced %s: %s is still open", quote(val), quote(text(o))), at
		}
		if i > 0 && !endsTerm(toks[i-1]) {
			return fmt.Sprintf("missing term between %s and %s", quote(text(i-1)), quote(val)), at
		}
	case "invalid":
		if unterminated(text(i)) {
			return fmt.Sprintf("%s %s… is not closed", quotedKind(text(i)[0]), textclip.Clean(strings.Join(strings.Fields(text(i)), " "), 40)), at
		}
		if nl := strings.IndexAny(val, "\r\n"); nl > 0 {
			return fmt.Sprintf("%s %s… is not closed on its line", quotedKind(val[0]), textclip.Clean(val[:nl], 40)), at
		}
		if strings.HasPrefix(val, "'") {
			return fmt.Sprintf("invalid escape sequence or character in quoted atom %s", quote(text(i))), at
		}
		return fmt.Sprintf("invalid character %s", quote(val)), at
	case "letter digit", "quoted", "variable", "integer", "float number", "double quoted list",
		"open", "open ct", "open list", "open curly":
		if i > 0 && endsTerm(toks[i-1]) {
			prev := toks[i-1]
			if startsLine(src, toks[i].Start) && strings.Contains(src[prev.End:toks[i].Start], "\n") {
				// The term goes on at the start of a new line: the
				// clause before most likely lacks its end.
				return missingEnd, prev.End
			}
			return fmt.Sprintf("operator expected after %s", quote(src[toks[termStart(toks, i-1)].Start:prev.End])), at
		}
	}
	return fmt.Sprintf("unexpected %s", quote(text(i))), at
}

// lastBefore returns the index of the last token starting before offset
// end that satisfies ok, -1 if none.
func lastBefore(toks []Token, end int, ok func(Token) bool) int {
	for i := len(toks) - 1; i >= 0; i-- {
		if toks[i].Start < end && ok(toks[i]) {
			return i
		}
	}
	return -1
}

// openBrackets returns the indices of the brackets still open after toks.
func openBrackets(toks []Token) []int {
	var stack []int
	for i, t := range toks {
		switch {
		case isOpenBracket(t):
			stack = append(stack, i)
		case isCloseBracket(t) && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	return stack
}

func closing(open string) string {
	return map[string]string{"(": ")", "[": "]", "{": "}"}[open]
}

// endsTerm reports whether a term can end with t: a variable, number,
// string, closing bracket, or an atom that is not an operator.
func endsTerm(t Token) bool {
	switch t.Kind {
	case TokVar, TokNum, TokStr:
		return true
	case TokPunct:
		return isCloseBracket(t)
	case TokName:
		return !isOperator(t.Name) || t.Open
	}
	return false
}

// termStart returns the index of the first token of the primary term that
// ends at toks[i]: for a closing bracket, its opening bracket and the
// functor before it.
func termStart(toks []Token, i int) int {
	if !isCloseBracket(toks[i]) {
		return i
	}
	depth := 0
	for j := i; j >= 0; j-- {
		switch {
		case isCloseBracket(toks[j]):
			depth++
		case isOpenBracket(toks[j]):
			depth--
			if depth == 0 {
				if j > 0 && toks[j-1].Kind == TokName && toks[j-1].Open && toks[j-1].End == toks[j].Start {
					return j - 1
				}
				return j
			}
		}
	}
	return i
}

// startsLine reports whether only layout precedes offset on its line.
func startsLine(src string, offset int) bool {
	line := src[strings.LastIndexByte(src[:offset], '\n')+1 : offset]
	return strings.TrimSpace(line) == ""
}

func quotedKind(q byte) string {
	switch q {
	case '\'':
		return "quoted atom"
	case '"':
		return "string"
	}
	return "back-quoted text"
}

// quote shows source text in a message: white space collapsed, control
// characters replaced, at most 40 bytes, in double quotes.
func quote(s string) string {
	return `"` + textclip.Clean(strings.Join(strings.Fields(s), " "), 40) + `"`
}

// ReadQuery reads a query typed at a terminal — one term ending in "." —
// with vm's operators, and returns it with its named variables. A text
// that is not one such term gives a *SyntaxError in plain words whose
// Offset is in text, like ReadClause's.
func ReadQuery(vm *pl.VM, text string) (pl.Term, []pl.ParsedVariable, error) {
	sc := NewScanner(text)
	c, ok := sc.Next()
	if !ok {
		return nil, nil, &SyntaxError{Msg: "empty query", Reader: "empty query"}
	}
	if next, more := sc.Next(); more {
		msg := `more than one clause: a query is one goal ending in "." (join goals with ",")`
		return nil, nil, &SyntaxError{Offset: next.Start, Msg: msg, Reader: msg}
	}
	terms, err := ReadClause(vm, text, &c)
	if err != nil {
		return nil, nil, err
	}
	if len(terms) != 1 {
		msg := `more than one term: a query is one goal ending in "."`
		return nil, nil, &SyntaxError{Offset: c.Start, Msg: msg, Reader: msg}
	}
	// The variables: ReadClause's parser is gone, so read the one clause
	// again for its variable names (it parsed above, so it parses here).
	p := pl.NewParser(vm, strings.NewReader(text[c.Start:c.End]))
	t, err := readTerm(p)
	if err != nil {
		return nil, nil, explain(text, &c, c.End, err)
	}
	return t, append([]pl.ParsedVariable(nil), p.Vars...), nil
}
