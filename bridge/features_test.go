package bridge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQueryFeatures(t *testing.T) {
	cases := []struct {
		q        string
		idents   []Ident
		relation string
		object   string
		cue      bool
		content  int
		paths    []string
	}{
		{q: "what calls ServeHTTP?", idents: []Ident{{"ServeHTTP", ShapePascal}}, relation: RelCallers, object: "ServeHTTP"},
		{q: "who calls readRequest", idents: []Ident{{"readRequest", ShapeCamel}}, relation: RelCallers, object: "readRequest"},
		{q: "Where is Server defined?", idents: []Ident{{"Server", ShapePascal}}, relation: RelNone, cue: true},
		{q: "ServeHTTP", idents: []Ident{{"ServeHTTP", ShapePascal}}, relation: RelNone},
		{q: "Server", idents: []Ident{{"Server", ShapePascal}}, relation: RelNone},
		{q: "cookie", idents: []Ident{{"cookie", ShapePlain}}, relation: RelNone},
		{q: "what does serve call?", idents: []Ident{{"serve", ShapePlain}}, relation: RelCallees, object: "serve"},
		{q: "callers of (*Server).Serve", idents: []Ident{{"Server.Serve", ShapeQualified}}, relation: RelCallers, object: "Server.Serve"},
		{q: "where is `parseRange` used", idents: []Ident{{"parseRange", ShapeQuoted}}, relation: RelReferences, object: "parseRange"},
		{q: "parse multipart form boundaries", relation: RelNone, content: 4},
		{q: "HTTP request header parsing", idents: []Ident{{"HTTP", ShapeAcronym}}, relation: RelNone, content: 3},
		{q: "timeouts in net/http/server.go", relation: RelNone, content: 1, paths: []string{"net/http/server.go"}},
		{q: "read_request()", idents: []Ident{{"read_request", ShapeCall}}, relation: RelNone},
		{q: "halt.", idents: []Ident{{"halt", ShapePlain}}, relation: RelNone},
	}
	for _, c := range cases {
		t.Run(c.q, func(t *testing.T) {
			f := QueryFeatures(c.q)
			got := struct {
				Idents   []Ident
				Relation string
				Object   string
				Cue      bool
				Content  int
				Paths    []string
			}{f.Idents, f.Relation, f.RelationObject, f.DefinitionCue, f.Content, f.Paths}
			want := got
			want.Idents, want.Relation, want.Object, want.Cue, want.Content, want.Paths = c.idents, c.relation, c.object, c.cue, c.content, c.paths
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("features (-want +got):\n%s", d)
			}
		})
	}
}

func TestQueryFeaturesBounded(t *testing.T) {
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = "ab (["[i%5]
	}
	f := QueryFeatures(string(big))
	if !f.Truncated || f.Tokens > MaxTokens+len(f.Quoted) {
		t.Fatalf("truncated=%v tokens=%d", f.Truncated, f.Tokens)
	}
	if len(f.Text) != len(big) {
		t.Fatalf("text must be kept whole for the caller to bound")
	}
}

func TestRelationObjectMayBeAStopword(t *testing.T) {
	for _, q := range []string{"what calls do?", "who calls all", "callers of the find"} {
		f := QueryFeatures(q)
		if f.Relation != RelCallers || f.RelationObject == "" {
			t.Errorf("%q: relation %s object %q", q, f.Relation, f.RelationObject)
		}
	}
}

// TestAPassiveCalledByAsksForTheSubjectsCallers: "X is called by …" asks
// who calls X; "what is called by X" asks what X calls.
func TestAPassiveCalledByAsksForTheSubjectsCallers(t *testing.T) {
	for _, c := range []struct{ q, rel, obj string }{
		{"ServeHTTP is called by the server", RelCallers, "ServeHTTP"},
		{"Server.Serve is called by which functions?", RelCallers, "Server.Serve"},
		{"readRequest() is called by whom", RelCallers, "readRequest"},
		{"what is called by ServeHTTP", RelCallees, "ServeHTTP"},
		{"which functions are called by readRequest", RelCallees, "readRequest"},
	} {
		f := QueryFeatures(c.q)
		if f.Relation != c.rel || f.RelationObject != c.obj {
			t.Errorf("%q: relation %s of %q, want %s of %q", c.q, f.Relation, f.RelationObject, c.rel, c.obj)
		}
	}
}

// TestProseAroundARelationWordNamesNoTarget: a demonstrative object ("call
// this method") refers to the documented thing, a bare pronoun names
// nothing, and "use" after "for", "in", "its" … is a noun: none of them is
// a relation question about a word of the sentence; the questions around
// them still are.
func TestProseAroundARelationWordNamesNoTarget(t *testing.T) {
	for _, c := range []struct{ q, rel, obj string }{
		{"If you override .set_ok(), be sure to call this method.", RelNone, ""},
		{"Callers of that function must hold the lock.", RelNone, ""},
		{"Quote a string for use in a cookie header.", RelNone, ""},
		{"Not safe for use by several goroutines.", RelNone, ""},
		{"who calls it", RelNone, ""},
		{"ParseForm: who calls it?", RelCallers, "ParseForm"},
		{"who uses cookie", RelReferences, "cookie"},
		{"what calls this", RelNone, ""},
		{"uses of Cookie in the jar", RelReferences, "Cookie"},
		{"what calls ServeHTTP?", RelCallers, "ServeHTTP"},
	} {
		f := QueryFeatures(c.q)
		if f.Relation != c.rel || f.RelationObject != c.obj {
			t.Errorf("%q: relation %s of %q, want %s of %q", c.q, f.Relation, f.RelationObject, c.rel, c.obj)
		}
	}
}

// TestAQuantifierAfterARelationWordNamesNothing: "called for each GET
// request" quantifies; the relation word's object is no name (no
// relation, so no look-up of "each" and no near spelling "reach"), unless
// the snapshot defines the word (Ruby's each).
func TestAQuantifierAfterARelationWordNamesNothing(t *testing.T) {
	for _, q := range []string{"method called for each GET request", "callback that calls every handler", "uses all the buffers"} {
		if f := QueryFeatures(q); f.Relation != RelNone {
			t.Errorf("%q: relation %s object %q, want none", q, f.Relation, f.RelationObject)
		}
	}
	lex := Lexicon{Symbol: func(s string) bool { return s == "each" }}
	if f := QueryFeaturesIn("what calls each", lex); f.Relation != RelCallers || f.RelationObject != "each" {
		t.Errorf("a defined each: relation %s object %q, want callers of each", f.Relation, f.RelationObject)
	}
}

// TestAsDefinedByIsNoDefinitionCue: "as defined by RFC 2965" means
// according to; the sentence asks nowhere where a name is defined, so it
// has no definition cue (a sentence with a known word and the cue would
// be a look-up of that word), while "where is send defined?" keeps it.
func TestAsDefinedByIsNoDefinitionCue(t *testing.T) {
	for q, want := range map[string]bool{
		"path component of the request URI as defined by RFC 2965": false,
		"the header value as declared in the spec":                 false,
		"where is send defined?":                                   true,
		"defined as the request path":                              true,
	} {
		if got := QueryFeatures(q).DefinitionCue; got != want {
			t.Errorf("%q: definition cue %v, want %v", q, got, want)
		}
	}
}
