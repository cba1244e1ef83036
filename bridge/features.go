// Package bridge adapts rlm's Go services to the rule engine: it computes
// query features in Go and registers the host predicates the rules may call
// (query_features/2, search/3). Everything crosses as inert data: strings,
// numbers, closed-vocabulary atoms and lists. Registering a predicate
// grants no authority; the predicates only read.
package bridge

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/internal/textclip"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/internal/stopwords"
)

// Identifier shapes, the closed vocabulary of Ident.Shape.
const (
	ShapePascal    = "pascal"    // ServeHTTP, Server
	ShapeCamel     = "camel"     // readRequest
	ShapeSnake     = "snake"     // read_request, MAX_SIZE
	ShapeQualified = "qualified" // http.Server, Server.Serve
	ShapeAcronym   = "acronym"   // HTTP, TLS
	ShapeCall      = "call"      // serve()
	ShapeQuoted    = "quoted"    // `serve`
	ShapePlain     = "plain"     // a lone lowercase word
)

// Relations, the closed vocabulary of Features.Relation.
const (
	RelNone       = "none"
	RelCallers    = "callers"
	RelCallees    = "callees"
	RelReferences = "references"
)

// Limits on feature extraction. Text past MaxFeatureBytes is not tokenised
// (it still reaches lexical search up to retrieval.MaxQueryBytes).
const (
	MaxFeatureBytes = 4096
	MaxTokens       = 64
	MaxTokenBytes   = 128
)

// Ident is an identifier-shaped token.
type Ident struct {
	Name  string
	Shape string
}

// Features are what Go computes from query text for the rules to judge.
// See rules/classify.pl for their meaning on the Prolog side.
type Features struct {
	Text string
	// Search is the text the rules' text(T) feature carries: Text without
	// its constraint phrases, "" when it has none (then Text).
	Search         string
	Tokens         int
	Content        int      // natural-language content words
	ContentWords   []string // those words, lowercased
	Idents         []Ident
	Paths          []string
	Quoted         []string
	Relation       string // one of the Rel* constants
	RelationObject string // "" if none
	DefinitionCue  bool
	// DocWording: the query is worded as a declaration's doc comment
	// (docWording: "Tokens returns an iterator over …"), about Subject
	// ("Tokens"); the cue(C) feature is then description(Subject).
	DocWording bool
	Subject    string
	// Production: the query opens with a grammar rule (production:
	// "attrtext = 1*(any non-ATTRIBUTE_ENDS character)"), and this is
	// the name it defines ("attrtext", "message-id"); "" otherwise. The
	// cue(C) feature is then production(Production).
	Production string
	// Constraints are the filters the query asks for in words ("in
	// sourcefacts/", "python only", "non-test", "functions only"); their
	// words are not content words, identifiers or paths.
	Constraints []Constraint
	// SourceNames are the names of Idents (each once, in order) that name
	// a definition of the snapshot's own code, not only tests or
	// examples (Lexicon.Source); empty without a Lexicon.
	SourceNames []string
	// Opening holds the query's first words up to the first clause
	// punctuation (, ; : . ? or ! ending a word; at most MaxOpeningWords
	// of its tokens, quoted spans left out), lowercased, in order,
	// stopwords included: the rules read a sentence's opening phrase
	// from it
	// ("collection of http cookies": a noun phrase; "log an error": a
	// verb and its object).
	Opening []string
	// Acronyms are the terms of the snapshot's search index that spell
	// the initials of three or four adjacent content words ("host domain
	// name": hdn) the snapshot does not also name in full, for the rules
	// to add to the search text (acronyms); empty without a Lexicon that
	// knows the search index's terms (Lexicon.Term).
	Acronyms  []Acronym
	Truncated bool // the text was longer than MaxFeatureBytes
}

// MaxOpeningWords bounds Features.Opening.
const MaxOpeningWords = 8

// requestWords are the verbs and courtesies of a request to an assistant
// ("find", "show me", "please"): no topic, like the English function words
// of internal/stopwords.
var requestWords = setOf(`find show list give tell get please`)

// passiveVerbs join a subject to its passive relation ("X is called by").
var passiveVerbs = setOf(`is are was were gets get`)

// isStopword reports whether the lowercased word carries no topic.
func isStopword(w string) bool { return stopwords.Function(w) || requestWords[w] }

var relationWords = setOf(`calls call called calling caller callers callee callees invokes invoke invoked
invocation invocations uses use used usage usages references reference referenced refs`)

// objectSkip are the words skipped between a relation word and its object
// ("callers of the X"); anything else, even a stopword such as "do", is
// taken as the object.
var objectSkip = setOf(`the a an of to on by for into from in with`)

// pronouns stand for something the sentence named elsewhere: never a
// relation's object ("call this method", "uses it"), unless the snapshot
// defines the word (a known name is taken first).
var pronouns = setOf(`this that these those it its them they he she we you i me us him her itself themselves something anything everything`)

// useNounMarks before "use" make it a noun, not a relation word: "for use
// in a cookie header", "no use", "its use", "in use".
var useNounMarks = setOf(`for in its their his her our your no any later future internal external general common own direct`)

var cueWords = setOf(`defined definition define declared declaration declare declares implemented located`)

func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// QueryFeatures computes the features of a query without a snapshot:
// QueryFeaturesIn(text, Lexicon{}). It never fails; hostile text yields features
// of plain text.
func QueryFeatures(text string) Features { return QueryFeaturesIn(text, Lexicon{}) }

// QueryFeaturesIn computes the features of a query against a snapshot's
// lexicon (nil: none). Words the lexicon knows as symbol names become
// identifiers of shape ShapeKnown: a name with its language's legal
// characters ("empty?", "~Conn") in place of the plain token, which is
// then no content word; a lowercase word that is not a stopword, which
// stays a content word too (a description that mentions a symbol's name is
// still a description; the rules decide, rules/retrieval/known.pl); and a
// relation's object even if it is a stopword ("what does get call?").
// It never fails; hostile text yields features of plain text.
//
// With a lexicon that knows the snapshot's paths, a slash-joined token
// without a source extension ("host/port", "read/write") is a path only if
// the snapshot has it (as a file or directory, relative to the root or
// below it); otherwise its parts are words.
func QueryFeaturesIn(text string, lex Lexicon) Features {
	known := lex.Symbol
	f := Features{Text: text, Relation: RelNone}
	work := text
	if len(work) > MaxFeatureBytes {
		work = textclip.Prefix(work, MaxFeatureBytes)
		f.Truncated = true
	}
	work = strings.ToValidUTF8(work, " ")

	// Quoted spans first: "…", `…`, ``…`` (a reStructuredText literal, as
	// Python docstrings write names), and '…' when it wraps a whole token.
	var rest strings.Builder
	for i := 0; i < len(work); {
		delim := ""
		switch {
		case strings.HasPrefix(work[i:], "``"):
			delim = "``"
		case work[i] == '"' || work[i] == '`':
			delim = work[i : i+1]
		}
		if delim != "" {
			if j := strings.Index(work[i+len(delim):], delim); j > 0 {
				q := strings.TrimSpace(work[i+len(delim) : i+len(delim)+j])
				if q != "" && len(f.Quoted) < MaxTokens {
					f.Quoted = append(f.Quoted, textclip.Prefix(q, MaxTokenBytes))
				}
				rest.WriteByte(' ')
				i += j + 2*len(delim)
				continue
			}
		}
		rest.WriteByte(work[i])
		i++
	}

	for _, q := range f.Quoted {
		if isIdentText(q) {
			f.Idents = append(f.Idents, Ident{Name: q, Shape: ShapeQuoted})
		}
	}

	raw := strings.Fields(rest.String())
	var toks []string
	var legal []bool // the token is a name with legal characters the lexicon knows
	clause := 0      // the tokens before the first comma (0: none)
	opening := 0     // the tokens up to the first clause punctuation (0: none)
	for ri, r := range raw {
		t := cleanToken(r)
		n := legalName(r, ri == len(raw)-1 && len(raw) > 1, known)
		if n != "" {
			t = n
		}
		if t == "" {
			continue
		}
		parts := []string{t}
		if n == "" && lex.Path != nil && isPath(t) && !hasSourceExt(t) && !lex.Path(t) {
			parts = strings.FieldsFunc(t, func(r rune) bool { return r == '/' })
		}
		if len(toks)+len(parts) > MaxTokens {
			f.Truncated = true
			break
		}
		for _, part := range parts {
			toks = append(toks, textclip.Prefix(part, MaxTokenBytes))
			legal = append(legal, n != "")
		}
		if clause == 0 && strings.HasSuffix(r, ",") {
			clause = len(toks)
		}
		if opening == 0 && strings.ContainsAny(r[len(r)-1:], ",;:.?!") {
			opening = len(toks)
		}
	}
	f.Tokens = len(toks) + len(f.Quoted)

	lower := make([]string, len(toks))
	for i, t := range toks {
		lower[i] = strings.ToLower(t)
	}
	if opening == 0 {
		opening = len(lower)
	}
	f.Opening = slices.Clone(lower[:min(opening, MaxOpeningWords)])
	var used []bool
	f.Constraints, used = constraints(toks, lower)
	if len(f.Constraints) > 0 {
		// The text the steps search is the query without its constraint
		// phrases ("parse multipart form changed since the last index"
		// searches "parse multipart form").
		var kept []string
		for i, t := range toks {
			if !used[i] {
				kept = append(kept, t)
			}
		}
		for _, q := range f.Quoted {
			kept = append(kept, strconv.Quote(q))
		}
		f.Search = strings.Join(kept, " ")
	}
	isIdent := make([]bool, len(toks))
	knownTok := make([]bool, len(toks)) // a plain word the lexicon knows
	for i, t := range toks {
		if used[i] {
			isIdent[i] = true // not a content word either
			continue
		}
		if legal[i] {
			f.Idents = append(f.Idents, Ident{Name: t, Shape: ShapeKnown})
			isIdent[i] = true
			continue
		}
		if isPath(t) {
			f.Paths = append(f.Paths, t)
			isIdent[i] = true
			continue
		}
		shape := identShape(t, i == 0, len(toks) == 1 && len(f.Quoted) == 0)
		if shape != "" {
			name := strings.TrimSuffix(t, "()")
			if shape == ShapeQualified {
				name = strings.TrimPrefix(strings.ReplaceAll(name, "(*", ""), "(")
				name = strings.ReplaceAll(name, ")", "")
			}
			f.Idents = append(f.Idents, Ident{Name: name, Shape: shape})
			isIdent[i] = true
			continue
		}
		if known != nil && isIdentText(t) && !strings.Contains(t, ".") && len(toks) > 1 && !relationWords[lower[i]] && !cueWords[lower[i]] &&
			!stopwords.Function(lower[i]) && known(t) {
			knownTok[i] = true
			if !isStopword(lower[i]) {
				f.Idents = append(f.Idents, Ident{Name: t, Shape: ShapeKnown})
			}
		}
	}

	// Relations: "calls X", "callers of X", "who uses X", "what does X call".
	for i, w := range lower {
		if cueWords[w] && !(i > 0 && lower[i-1] == "as") {
			// "as defined by RFC 2965", "as declared in the spec":
			// according to, no question where something is defined.
			f.DefinitionCue = true
		}
		if !relationWords[w] || f.Relation != RelNone || w == "use" && i > 0 && useNounMarks[lower[i-1]] {
			continue
		}
		rel := RelCallers
		switch {
		case strings.HasPrefix(w, "use") || strings.HasPrefix(w, "usage") || strings.HasPrefix(w, "ref"):
			rel = RelReferences
		case w == "callees":
			rel = RelCallees
		}
		// "what does X call" / "what is called by X" → callees
		if (w == "call" || w == "calls") && i == len(lower)-1 && i >= 2 && contains(lower[:i], "does") {
			f.Relation = RelCallees
			f.RelationObject = objectBefore(toks, lower, isIdent, knownTok, i)
			continue
		}
		if w == "called" && i+1 < len(lower) && lower[i+1] == "by" {
			// "X is called by the server": X's callers; "what is called
			// by X": X's callees.
			if i >= 2 && passiveVerbs[lower[i-1]] && (isIdent[i-2] || knownTok[i-2]) {
				f.Relation = RelCallers
				f.RelationObject = identName(toks[i-2])
				continue
			}
			f.Relation = RelCallees
			f.RelationObject = objectAfter(toks, lower, isIdent, knownTok, i+2)
			continue
		}
		if demonstrativeObject(lower, knownTok, i+1) {
			continue // "be sure to call this method": about the documented thing
		}
		if quantifierObject(toks, lower, i+1, known) {
			continue // "method called for each GET request": no name to look up
		}
		f.Relation = rel
		f.RelationObject = objectAfter(toks, lower, isIdent, knownTok, i+1)
		if f.RelationObject == "" && len(f.Idents) > 0 {
			f.RelationObject = f.Idents[0].Name
		}
	}
	if f.Relation != RelNone && f.RelationObject == "" {
		if len(f.Idents) > 0 {
			f.RelationObject = f.Idents[0].Name
		} else {
			f.Relation = RelNone
		}
	}
	if f.RelationObject != "" {
		found := false
		for _, id := range f.Idents {
			if id.Name == f.RelationObject {
				found = true
			}
		}
		if !found {
			shape := ShapePlain
			for i, t := range toks {
				if knownTok[i] && t == f.RelationObject {
					shape = ShapeKnown
				}
			}
			f.Idents = append(f.Idents, Ident{Name: f.RelationObject, Shape: shape})
		}
	}

	f.Production = production(work)
	f.Subject, f.DocWording = docWording(work, toks, lower)
	if !f.DocWording && clause > 0 && clause < len(toks) && openingClause(lower[:clause]) {
		// "For server requests, Host specifies …": the sentence after
		// its opening clause
		f.Subject, f.DocWording = docWording(work, toks[clause:], lower[clause:])
	}

	var contentPos []int // the token position of each content word
	for i, w := range lower {
		// A doc-worded sentence's relation words are context, and so is
		// what follows them: "X is used for debugging" is about
		// debugging, not a question about references to it.
		if isIdent[i] || isStopword(w) || relationWords[w] || cueWords[w] || len(w) < 2 || !f.DocWording && toks[i] == f.RelationObject {
			continue
		}
		if !hasLetter(w) {
			continue
		}
		f.ContentWords = append(f.ContentWords, w)
		contentPos = append(contentPos, i)
	}
	f.Content = len(f.ContentWords)
	// A lone lowercase word is a name to try, not a description.
	if len(toks) == 1 && len(f.Idents) == 0 && len(f.Paths) == 0 && isIdentText(toks[0]) {
		f.Idents = append(f.Idents, Ident{Name: toks[0], Shape: ShapePlain})
		f.Content = 0
		f.ContentWords = nil
	}
	if lex.Source != nil {
		for _, id := range f.Idents {
			if !contains(f.SourceNames, id.Name) && lex.Source(id.Name) {
				f.SourceNames = append(f.SourceNames, id.Name)
			}
		}
	}
	f.Acronyms = acronyms(f.ContentWords, contentPos, lower, lex)
	return f
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// objectAfter returns the first non-stopword token at or after i, skipping
// "of", "to", "the" and the like.
func objectAfter(toks, lower []string, isIdent, knownTok []bool, i int) string {
	for ; i < len(toks); i++ {
		if isIdent[i] {
			return identName(toks[i])
		}
		if knownTok[i] {
			return toks[i]
		}
		if objectSkip[lower[i]] || relationWords[lower[i]] {
			continue
		}
		if pronouns[lower[i]] {
			return "" // "be sure to call this method": no name
		}
		if isIdentText(toks[i]) && !cueWords[lower[i]] {
			return toks[i]
		}
		return ""
	}
	return ""
}

// demonstrativeObject reports whether the relation word's object, from
// i on (past objectSkip words), is a demonstrative with its noun ("this
// method", "that function"): a doc sentence's reference to the thing it
// documents, which names nothing to look up.
func demonstrativeObject(lower []string, knownTok []bool, i int) bool {
	for ; i < len(lower) && objectSkip[lower[i]]; i++ {
	}
	return i+1 < len(lower) && demonstratives[lower[i]] && !knownTok[i] && hasLetter(lower[i+1])
}

var demonstratives = setOf(`this that these those`)

// quantifierObject reports whether the relation word's object, from i on
// (past objectSkip words), is a quantifier with the word it quantifies
// ("each request", "every handler"; "who calls all" still asks about
// all) that the snapshot does not define (known: Lexicon.Symbol, nil for none; Ruby's
// each is a name): a sentence's "called for each request" quantifies,
// it names nothing to look up, and a near-spelling fallback would answer
// for "reach".
func quantifierObject(toks, lower []string, i int, known func(string) bool) bool {
	for ; i < len(lower) && objectSkip[lower[i]]; i++ {
	}
	return i+1 < len(lower) && quantifiers[lower[i]] && hasLetter(lower[i+1]) && (known == nil || !known(toks[i]))
}

var quantifiers = setOf(`each every all any some no none both either neither several many few most`)

func objectBefore(toks, lower []string, isIdent, knownTok []bool, i int) string {
	for j := i - 1; j >= 0; j-- {
		if isIdent[j] {
			return identName(toks[j])
		}
		if knownTok[j] {
			return toks[j]
		}
		if isStopword(lower[j]) {
			continue
		}
		if isIdentText(toks[j]) {
			return toks[j]
		}
	}
	return ""
}

func identName(t string) string {
	t = strings.TrimSuffix(t, "()")
	t = strings.ReplaceAll(t, "(*", "")
	t = strings.ReplaceAll(t, "(", "")
	return strings.ReplaceAll(t, ")", "")
}

// cleanToken strips punctuation around a token, keeping "()" of a call and
// the "(*T).M" method-expression form.
func cleanToken(t string) string {
	t = strings.TrimRightFunc(t, func(r rune) bool { return strings.ContainsRune("?!,;:'\".", r) })
	if strings.HasSuffix(t, "()") {
		return strings.TrimLeftFunc(t, func(r rune) bool { return !isIdentRune(r) })
	}
	if strings.HasPrefix(t, "(*") || strings.HasPrefix(t, "(") && strings.Contains(t, ").") {
		return t
	}
	return strings.TrimFunc(t, func(r rune) bool { return !isIdentRune(r) && r != '/' && r != '.' })
}

func isIdentRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// isIdentText: letters, digits, underscores and dots, starting with a
// letter or underscore.
func isIdentText(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if i == 0 && !(r == '_' || unicode.IsLetter(r)) {
			return false
		}
		if !(isIdentRune(r) || r == '.') {
			return false
		}
	}
	return true
}

// hasSourceExt reports whether t is a file name with a known source
// extension.
func hasSourceExt(t string) bool {
	for _, ext := range pathExts {
		if strings.HasSuffix(t, ext) && len(t) > len(ext) {
			return true
		}
	}
	return false
}

var pathExts = []string{".go", ".py", ".js", ".ts", ".tsx", ".rs", ".java", ".c", ".h", ".cc", ".cpp", ".hpp", ".rb", ".pl", ".md", ".mod"}

// isPath: a token with a slash whose segments are lowercase file-name
// characters, or a file name with a known source extension.
func isPath(t string) bool {
	if hasSourceExt(t) {
		return true
	}
	if !strings.Contains(t, "/") {
		return false
	}
	letters := false
	for _, r := range t {
		switch {
		case r >= 'a' && r <= 'z':
			letters = true
		case r >= '0' && r <= '9', r == '/', r == '_', r == '-', r == '.':
		default:
			return false
		}
	}
	return letters
}

// identShape classifies a cleaned token, or returns "" for a word.
func identShape(t string, first, alone bool) string {
	if strings.HasSuffix(t, "()") && isIdentText(strings.TrimSuffix(t, "()")) {
		return ShapeCall
	}
	if strings.HasPrefix(t, "(") {
		n := identName(t)
		if isIdentText(n) && strings.Contains(n, ".") {
			return ShapeQualified
		}
		return ""
	}
	if !isIdentText(t) {
		return ""
	}
	if strings.Contains(t, ".") {
		parts := strings.Split(t, ".")
		for _, p := range parts {
			if p == "" {
				return ""
			}
		}
		return ShapeQualified
	}
	if strings.Contains(strings.Trim(t, "_"), "_") {
		return ShapeSnake
	}
	upper, lower := 0, 0
	for _, r := range t {
		switch {
		case unicode.IsUpper(r):
			upper++
		case unicode.IsLower(r):
			lower++
		}
	}
	r0, _ := utf8.DecodeRuneInString(t)
	switch {
	case upper >= 2 && lower == 0 && len(t) >= 2:
		return ShapeAcronym
	case unicode.IsLower(r0) && upper > 0:
		return ShapeCamel
	case unicode.IsUpper(r0) && upper >= 2 && lower > 0:
		return ShapePascal
	case unicode.IsUpper(r0) && lower > 0:
		// A capitalised word: a name mid-sentence or alone, a word when it
		// opens a sentence.
		if first && !alone {
			return ""
		}
		if isStopword(strings.ToLower(t)) {
			return ""
		}
		return ShapePascal
	}
	return ""
}

// Term converts features to the term the rules read:
//
//	features(Tokens, Content, Idents, Paths, Quoted, Relation, RelationObject, Cue, Text, Words, Constraints, SourceNames, Opening, Acronyms)
//
// Acronyms is a list of acronym(Words, Term), Words strings, Term a string.
//
// (see rules/classify.pl, feature/2). Strings become String terms; only
// closed-vocabulary words (shapes, relations, cues, constraint values
// other than paths) become atoms.
func (f Features) Term() engine.Term {
	ids := make([]engine.Term, len(f.Idents))
	for i, id := range f.Idents {
		ids[i] = engine.Compound("id", engine.String(id.Name), engine.Atom(id.Shape))
	}
	obj := engine.Atom("none")
	if f.RelationObject != "" {
		obj = engine.String(f.RelationObject)
	}
	acs := make([]engine.Term, len(f.Acronyms))
	for i, a := range f.Acronyms {
		acs[i] = engine.Compound("acronym", engine.Strings(a.Words), engine.String(a.Term))
	}
	cs := make([]engine.Term, len(f.Constraints))
	for i, c := range f.Constraints {
		cs[i] = constraintTerm(c)
	}
	return engine.Compound("features",
		engine.Int(int64(f.Tokens)),
		engine.Int(int64(f.Content)),
		engine.List(ids...),
		engine.Strings(f.Paths),
		engine.Strings(f.Quoted),
		engine.Atom(f.Relation),
		obj,
		f.cueTerm(),
		engine.String(cmp.Or(f.Search, f.Text)),
		engine.Strings(f.ContentWords),
		engine.List(cs...),
		engine.Strings(f.SourceNames),
		engine.Strings(f.Opening),
		engine.List(acs...),
	)
}
