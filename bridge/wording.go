package bridge

import (
	"strings"
	"unicode"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/internal/stopwords"
)

// Cues, the closed vocabulary of the cue(C) feature (Features.Cue).
const (
	CueNone        = "none"
	CueDefinition  = "definition"  // "where is X defined", "declaration of X"
	CueDescription = "description" // worded as a declaration's doc comment (DocWording)
	CueProduction  = "production"  // opens with a grammar rule (Production)
)

// questionWords open a question ("what calls X", "where is X defined",
// "is X used", "does X call Y"); a query that starts with one is not
// worded as a doc comment.
var questionWords = setOf(`what who whom whose which where when why how is are was were do does did can could should would
will shall may might must has have`)

// determiners after a relation verb make its object a phrase, not a
// name ("X uses a request context").
var determiners = setOf(`a an the this its each every`)

// circumstances after a passive relation word make it a callback's doc
// ("DNSStart is called when a DNS lookup begins", "is called with the
// result", "is used for"), not a question about who calls or uses it.
var circumstances = setOf(`when whenever with for if once after before during while`)

// openingVerbs open a doc sentence that names no subject, the way Python
// ("Return the message's content type"), Javadoc and Rust ("Returns the
// …") write a function's first sentence; a request to a search tool does
// not open with them (requests open with requestWords: "find", "show").
var openingVerbs = setOf(`return returns`)

// testOpenings, followed by "that", open a test's doc sentence, which
// names no subject ("Test that FormValue invokes ParseMultipartForm.",
// "Tests that we can use CloseNotifier …": Go's tests' convention); a
// search request does not open so.
var testOpenings = setOf(`test tests`)

// subjectVerbs are the third-person verbs of a doc sentence that do not
// end in "s" after a consonant pattern docVerb recognises.
var subjectVerbs = setOf(`is has does was`)

// docWording reports whether the tokens are worded as the first sentence
// of a declaration's doc comment the way Go (and many others) write it: a
// subject and a third-person verb ("Tokens returns an iterator …",
// "UnmarshalJSON sets *m to …", "An AddressList encapsulates …", "Names
// is a stack …"). A question (ending in "?", or opening with a question
// word such as what, where, is, does) or a request ("find the …", "show
// …") is not, nor a sentence whose verb is a relation or cue word ("X
// calls Y", "X callers", "X is defined", "X is used by"): those ask about
// a relation, unless the relation's object is a phrase ("X uses a request
// context") or the passive says when ("X is called when …"). A sentence
// that opens with "Return" or "Returns" ("Return the message's content
// type", "Returns the …": Python's, Javadoc's and Rust's form) is a doc
// sentence about the function it documents, with no subject, and so is
// a test's "Test(s) that …"; one that
// opens with another verb is not told apart, since an imperative request
// ("check the callers of X") reads the same. text is the query text, toks
// its tokens and lower the tokens lowercased.
//
// subject is the sentence's subject as written, the name it describes
// ("Tokens", "UnmarshalJSON", "AddressList"), when it is worded so; ""
// when it opens with its verb.
func docWording(text string, toks, lower []string) (subject string, ok bool) {
	if len(toks) < 3 || strings.HasSuffix(strings.TrimSpace(text), "?") {
		return "", false
	}
	if questionWords[lower[0]] || requestWords[lower[0]] || relationWords[lower[0]] || cueWords[lower[0]] {
		return "", false
	}
	if openingVerbs[lower[0]] {
		return "", true // "Return a reference to the payload": about the function it documents
	}
	if testOpenings[lower[0]] && lower[1] == "that" {
		return "", true // "Test that FormValue invokes ParseMultipartForm.": a test's doc
	}
	i := 0
	if lower[0] == "a" || lower[0] == "an" || lower[0] == "the" || lower[0] == "this" {
		i = 1 // "An AddressList encapsulates …", "This example demonstrates …"
	}
	if i+2 >= len(toks) || isStopword(lower[i]) || relationWords[lower[i]] || cueWords[lower[i]] {
		return "", false
	}
	v, next := lower[i+1], lower[i+2]
	if toks[i+1] != v || cueWords[v] || relationWords[v] && !determiners[next] {
		return "", false // "X calls Y", "X callers", "X declares"; not "X uses a request context"
	}
	if relationWords[next] || cueWords[next] {
		// "X is defined", "X is used by", "X is called from": a relation;
		// "X is called when/with …": a callback's doc.
		if !subjectVerbs[v] || i+3 >= len(toks) || !circumstances[lower[i+3]] {
			return "", false
		}
	}
	subject = identName(toks[i])
	if subjectVerbs[v] {
		return subject, true
	}
	// A plain lowercase subject may be an imperative verb and the "verb"
	// a plural noun ("serve requests quickly"): then the verb must be
	// followed by a function word, as a doc sentence's is ("body turns a
	// Reader into …", "reports whether …").
	if docVerb(v) && (toks[i] != lower[i] || !wordLike(toks[i]) || stopwords.Function(next)) {
		return subject, true
	}
	return "", false
}

// maxOpeningClause is the most tokens an opening clause may have.
const maxOpeningClause = 8

// openingClause reports whether the lowercased tokens before a sentence's
// first comma are an opening clause of a doc sentence ("for server
// requests", "in v1", "when the server shuts down"): a function word
// first, at most maxOpeningClause tokens. (A question is still none: the
// sentence after the clause must be worded as a doc sentence.)
func openingClause(lower []string) bool {
	return len(lower) <= maxOpeningClause && stopwords.Function(lower[0])
}

// docVerb reports whether the lowercase word looks like a third-person
// singular verb: letters only, at least four of them, ending in "s" but
// not in "ss", "us" or "is" ("returns", "reports", "sets", "encapsulates";
// not "class", "status", "analysis").
func docVerb(w string) bool {
	if len(w) < 4 || !strings.HasSuffix(w, "s") {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is")
}

// wordLike: the token is a word of letters (a verb opening a sentence), not
// a name with digits, dots or underscores.
func wordLike(t string) bool {
	for _, r := range t {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return t != ""
}

// Cue is the kind of the cue(C) feature: CueProduction when the query
// opens with a grammar rule (Production), else CueDescription when it
// is worded as a doc comment (DocWording; its definition words, if any,
// are words of the description), else CueDefinition when it has a
// definition cue word, else CueNone.
func (f Features) Cue() string {
	switch {
	case f.Production != "":
		return CueProduction
	case f.DocWording:
		return CueDescription
	case f.DefinitionCue:
		return CueDefinition
	}
	return CueNone
}

// cueTerm is the cue(C) feature: production(Name) (Name a string) for a
// query that opens with a grammar rule, description(Subject) (Subject a
// string) for a sentence worded as a doc comment, else the atom
// definition or none.
func (f Features) cueTerm() engine.Term {
	if f.Production != "" {
		return engine.Compound(CueProduction, engine.String(f.Production))
	}
	if f.DocWording {
		return engine.Compound(CueDescription, engine.String(f.Subject))
	}
	return engine.Atom(f.Cue())
}

// maxProductionName bounds the name production reads.
const maxProductionName = 64

// production returns the name a grammar rule defines when text opens with
// one, else "": a name (a letter, then letters, digits, '-' and '_'; at
// most maxProductionName bytes), then "=", ":=" or "::=" between spaces,
// then the rule's right-hand side. RFC grammar lines are written so
// ("attrtext = 1*(any non-ATTRIBUTE_ENDS character)", "message-id =
// "Message-ID:" msg-id CRLF", "qcontent = qtext / quoted-pair"), and a
// parser function's doc opens with the rule it parses: the rule's name,
// not its right-hand side, says which definition the text documents
// (get_attrtext, parse_message_id, get_qcontent).
func production(text string) string {
	t := strings.TrimLeft(text, " \t")
	n := 0
	for n < len(t) && n <= maxProductionName {
		c := t[n]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || n > 0 && (c >= '0' && c <= '9' || c == '-' || c == '_') {
			n++
			continue
		}
		break
	}
	if n == 0 || n > maxProductionName {
		return ""
	}
	name, rest := t[:n], t[n:]
	for _, op := range []string{" = ", " := ", " ::= "} {
		if r, ok := strings.CutPrefix(rest, op); ok && grammarRHS(name, r) {
			return strings.TrimRight(name, "-_")
		}
	}
	return ""
}

// grammarRHS reports whether rhs, the text after a production's "=",
// reads as a grammar rule's right-hand side rather than code assigned to
// a variable ("err = nil", "srv := &Server{Addr: addr}", "h =
// http.HandlerFunc(f)"). Outside quoted literals it holds no mark of code
// — a call (a name and "(" together), a member or number dot between two
// letters or digits, any of { } ; & — and it has a grammar operator
// (/ * [ ] | < > or a quoted literal) or two or more elements; a single
// element without one is a rule only under a name no code can have, one
// with a hyphen ("display-name = phrase").
func grammarRHS(name, rhs string) bool {
	elems := strings.Fields(rhs)
	if len(elems) == 0 {
		return false
	}
	operator := false
	var quote byte
	for i := 0; i < len(rhs); i++ {
		c := rhs[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '"' || c == '\'':
			quote, operator = c, true
		case strings.IndexByte("{};&", c) >= 0:
			return false
		case c == '(' && i > 0 && isWordByte(rhs[i-1]):
			return false
		case c == '.' && i > 0 && i+1 < len(rhs) && isWordByte(rhs[i-1]) && isWordByte(rhs[i+1]):
			return false
		case strings.IndexByte("/*[]|<>", c) >= 0:
			operator = true
		}
	}
	return operator || len(elems) >= 2 || strings.Contains(name, "-")
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
