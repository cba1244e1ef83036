package plsyntax

// Locator finds the tokens of a clause's head and goals, in text order:
// each GoalToken search starts where the previous one ended.
type Locator struct {
	toks []Token
	pos  int // where the next search starts
}

// NewLocator returns a locator over the tokens of c.
func NewLocator(c *Clause) *Locator { return &Locator{toks: c.Tokens} }

// Tokens returns the clause's tokens (shared, not copied).
func (l *Locator) Tokens() []Token { return l.toks }

// searchWindow bounds how many tokens one search looks at, so that goals
// whose tokens cannot be found cost no more than that each.
const searchWindow = 1024

// SkipPast moves past the next name token name (":-", "-->", "?-") at
// bracket depth 0.
func (l *Locator) SkipPast(name string) {
	depth := 0
	for i := l.pos; i < len(l.toks); i++ {
		t := l.toks[i]
		switch {
		case isOpenBracket(t):
			depth++
		case isCloseBracket(t):
			depth--
		case depth == 0 && t.Kind == TokName && t.Name == name:
			l.pos = i + 1
			return
		}
	}
}

// HeadToken returns the index of the head's functor token: the first
// token named name before the neck (":-" or "-->"), -1 if none.
func (l *Locator) HeadToken(name string) int {
	for i := 0; i < len(l.toks) && i < searchWindow; i++ {
		t := l.toks[i]
		if t.Kind == TokName && (t.Name == ":-" || t.Name == "-->") {
			break
		}
		if t.Kind == TokName && t.Name == name {
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

// GoalToken finds the next token of a goal named name and moves past it
// (and past the arguments of a goal in functional notation that is not a
// meta-call, which hold no goals). hasArgs: the goal is a compound (in
// functional or operator notation); meta: its arguments hold goals. It
// returns -1 if there is none.
func (l *Locator) GoalToken(name string, hasArgs, meta bool) int {
	for i := l.pos; i < len(l.toks) && i < l.pos+searchWindow; i++ {
		t := l.toks[i]
		if t.Kind != TokName || t.Name != name {
			continue
		}
		ok := hasArgs // functional notation, or an operator
		if !hasArgs && !t.Open {
			ok = i == 0 || goalSeparators[l.toks[i-1].Name]
		}
		if !ok {
			continue
		}
		l.pos = i + 1
		if t.Open && !meta {
			if j := MatchClose(l.toks, i+1); j >= 0 {
				l.pos = j + 1
			}
		}
		return i
	}
	return -1
}

// position is where the next search starts (0 for a nil Locator).
func (l *Locator) position() int {
	if l == nil {
		return 0
	}
	return l.pos
}

// controlToken returns the token of a control construct named name whose
// left side has just been walked from token start: its functor before the
// left side's goals in functional notation, else the next operator token
// named name. It does not move the search position; -1 if none.
func (l *Locator) controlToken(name string, start int) int {
	if l == nil {
		return -1
	}
	if i := FindName(l.toks, start, min(l.pos, start+searchWindow), name, true); i >= 0 {
		return i
	}
	for i := l.pos; i < len(l.toks) && i < l.pos+searchWindow; i++ {
		if t := l.toks[i]; t.Kind == TokName && t.Name == name {
			return i
		}
	}
	return -1
}

// FindName returns the index of the first name token called name among
// toks[from:to] (to is capped at len(toks)), -1 if none. open selects
// tokens in functional notation (followed by "(") or the others.
func FindName(toks []Token, from, to int, name string, open bool) int {
	to = min(to, len(toks))
	for i := max(from, 0); i < to; i++ {
		if t := toks[i]; t.Kind == TokName && t.Name == name && t.Open == open {
			return i
		}
	}
	return -1
}

// MatchClose returns the index of the bracket closing the one at toks[i],
// -1 if toks[i] is not an opening bracket or it is not closed.
func MatchClose(toks []Token, i int) int {
	if i >= len(toks) || !isOpenBracket(toks[i]) {
		return -1
	}
	depth := 0
	for j := i; j < len(toks); j++ {
		switch t := toks[j]; {
		case isOpenBracket(t):
			depth++
		case isCloseBracket(t):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

func isOpenBracket(t Token) bool {
	return t.Kind == TokPunct && (t.Name == "(" || t.Name == "[" || t.Name == "{")
}

func isCloseBracket(t Token) bool {
	return t.Kind == TokPunct && (t.Name == ")" || t.Name == "]" || t.Name == "}")
}
