package bridge

import (
	"strings"
	"unicode"

	"github.com/rlm-dev/rlm/internal/stopwords"
)

// Cues, the closed vocabulary of the cue(C) feature (Features.Cue).
const (
	CueNone        = "none"
	CueDefinition  = "definition"  // "where is X defined", "declaration of X"
	CueDescription = "description" // worded as a declaration's doc comment (DocWording)
)

// questionWords open a question ("what calls X", "where is X defined",
// "is X used", "does X call Y"); a query that starts with one is not
// worded as a doc comment.
var questionWords = setOf(`what who whom whose which where when why how is are was were do does did can could should would
will shall may might must has have`)

// subjectVerbs are the third-person verbs of a doc sentence that do not
// end in "s" after a consonant pattern docVerb recognises.
var subjectVerbs = setOf(`is has does was`)

// docWording reports whether the tokens are worded as the first sentence
// of a declaration's doc comment the way Go (and many others) write it: a
// subject and a third-person verb ("Tokens returns an iterator …",
// "UnmarshalJSON sets *m to …", "An AddressList encapsulates …", "Names
// is a stack …"). A question (ending in "?", or opening with a question
// word such as what, where, is, does) or a request ("find the …", "show
// …") is not, nor a sentence whose second word is a relation or cue word
// ("X calls Y", "X callers", "X is defined", "X is used by"): those ask
// about a relation. A sentence that opens with its verb ("Return the
// message's content type", Python's and Javadoc's form) is not told
// apart: an imperative request ("check the callers of X") reads the
// same. text is the query text, toks its tokens and lower the tokens
// lowercased.
func docWording(text string, toks, lower []string) bool {
	if len(toks) < 3 || strings.HasSuffix(strings.TrimSpace(text), "?") {
		return false
	}
	if questionWords[lower[0]] || requestWords[lower[0]] || relationWords[lower[0]] || cueWords[lower[0]] {
		return false
	}
	i := 0
	if lower[0] == "a" || lower[0] == "an" || lower[0] == "the" || lower[0] == "this" {
		i = 1 // "An AddressList encapsulates …", "This example demonstrates …"
	}
	if i+2 >= len(toks) || isStopword(lower[i]) || relationWords[lower[i]] || cueWords[lower[i]] {
		return false
	}
	v, next := lower[i+1], lower[i+2]
	if relationWords[v] || cueWords[v] || relationWords[next] || cueWords[next] || toks[i+1] != v {
		return false
	}
	if subjectVerbs[v] {
		return true
	}
	// A plain lowercase subject may be an imperative verb and the "verb"
	// a plural noun ("serve requests quickly"): then the verb must be
	// followed by a function word, as a doc sentence's is ("body turns a
	// Reader into …", "reports whether …").
	return docVerb(v) && (toks[i] != lower[i] || !wordLike(toks[i]) || stopwords.Function(next))
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

// Cue is the cue(C) feature's value: CueDescription when the query is
// worded as a doc comment (DocWording; its definition words, if any, are
// words of the description), else CueDefinition when it has a definition
// cue word, else CueNone.
func (f Features) Cue() string {
	switch {
	case f.DocWording:
		return CueDescription
	case f.DefinitionCue:
		return CueDefinition
	}
	return CueNone
}
