package bridge

import (
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/engine"

	"github.com/google/go-cmp/cmp"
)

// TestASentenceWordedAsADocCommentHasTheDescriptionCue: the first sentence
// of a doc comment in its subject-verb form has the description cue
// whatever names or relation words it holds;
// a question, a request, a relation phrase or a definition question has
// not (and keeps its definition cue).
func TestASentenceWordedAsADocCommentHasTheDescriptionCue(t *testing.T) {
	cases := []struct {
		q, cue string
	}{
		// a subject and a third-person verb
		{"Tokens returns an iterator over the reference tokens in the JSON pointer.", CueDescription},
		{"unmarshalAnyWithRawNumber specifies that unmarshaling a JSON number into an empty Go interface should use the Number type", CueDescription},
		{"forcedAddr reports whether this value is addressable only through the use of [newAddressableValue].", CueDescription},
		{"UnmarshalJSON sets *m to a copy of data.", CueDescription},
		{"Names is a stack of object names.", CueDescription},
		{"An AddressList encapsulates a list of parsed RFC 2822 addresses.", CueDescription},
		{"body turns a Reader into a ReadCloser", CueDescription},
		{"This example demonstrates the use of the Encoder and Decoder to parse JSON", CueDescription},
		{"In v1, the implementation is inconsistent about whether it calls MarshalJSON methods declared on pointer receivers", CueDescription},
		// a function's doc sentence that opens with "Return(s)" (Python,
		// Javadoc, Rust) names no subject, whatever relation words follow
		{"Return the message's content type.", CueDescription},
		{"Return a reference to the payload.", CueDescription},
		{"Returns the callers of the given method", CueDescription},
		{"return", CueNone},
		// a test's doc sentence: "Test(s) that …"
		{"Test that FormValue invokes ParseMultipartForm.", CueDescription},
		{"Tests that we can use CloseNotifier in one request, and later call Hijack on a second request.", CueDescription},
		{"test the callers of readRequest", CueNone},
		// any other verb first reads as a request as well: left to the
		// other rules
		{"Create a message/* type MIME document.", CueNone},
		// a doc sentence after an opening clause; not a question after
		// one, nor after a clause that opens with no function word
		{"For server requests, Host specifies the host on which the URL is sought.", CueDescription},
		{"When the server shuts down, Shutdown waits for the open connections", CueDescription},
		{"Where the server closes, what calls Shutdown", CueNone},
		{"For the server, is Shutdown called", CueNone},
		{"For every request that the server reads from one client connection, Host names the host", CueNone},
		{"parcel weights, mux uses the pattern tree", CueNone},
		{"check the callers of readRequest", CueNone},
		// questions, requests, relation phrases
		{"what calls ServeHTTP?", CueNone},
		{"Tokens returns what?", CueNone},
		{"where is Server defined", CueDefinition},
		{"Server is defined in which file", CueDefinition},
		{"DNSStart is called when a DNS lookup begins", CueDescription},
		{"WroteRequest is called with the result of writing the request", CueDescription},
		{"runCancelTestContext uses a request context.", CueDescription},
		{"ServeHTTP is called by the server", CueNone},
		{"ServeMux uses ServeHTTP", CueNone},
		{"readRequest callers in the server", CueNone},
		{"ServeMux uses the pattern tree", CueDescription},
		{"find the callers of readRequest", CueNone},
		{"callers of the Handler interface", CueNone},
		{"serve requests quickly", CueNone},
		{"parse multipart form boundaries", CueNone},
		{"Server handlers", CueNone},
	}
	for _, c := range cases {
		if got := QueryFeatures(c.q).Cue(); got != c.cue {
			t.Errorf("%q: cue %s, want %s", c.q, got, c.cue)
		}
	}
}

// TestDoubleBackticksQuoteAName: a reStructuredText literal (“name“, as
// Python docstrings write names) is a quoted span, so the words between
// two of them are still words of the sentence.
func TestDoubleBackticksQuoteAName(t *testing.T) {
	f := QueryFeatures("``object_hook``, if specified, will be called with the result of every JSON object decoded in place of the given ``dict``")
	if d := cmp.Diff([]string{"object_hook", "dict"}, f.Quoted); d != "" {
		t.Errorf("quoted (-want +got):\n%s", d)
	}
	if f.Content < 4 {
		t.Errorf("content %d (%v): the words between the literals were swallowed", f.Content, f.ContentWords)
	}
}

// TestADocWordedSentenceNamesItsSubject: the subject the description is
// about is the name as written, after an article if there is one, or ""
// for a sentence that opens with its verb; the cue(C) feature carries it
// as description(Subject).
func TestADocWordedSentenceNamesItsSubject(t *testing.T) {
	for q, want := range map[string]string{
		"UnmarshalJSON sets *m to a copy of data.":                                     "UnmarshalJSON",
		"An AddressList encapsulates a list of parsed RFC 2822 addresses.":             "AddressList",
		"forcedAddr reports whether this value is addressable":                         "forcedAddr",
		"Names is a stack of object names.":                                            "Names",
		"Return a reference to the payload.":                                           "", // the function it documents
		"For server requests, Host specifies the host on which the URL is sought.":     "Host",
		"In v1, the implementation is inconsistent about whether it calls MarshalJSON": "implementation",
	} {
		f := QueryFeatures(q)
		if f.Subject != want || f.Cue() != CueDescription {
			t.Errorf("%q: subject %q (cue %s), want %q", q, f.Subject, f.Cue(), want)
		}
		v, err := engine.Decode(f.Term(), nil)
		if err != nil {
			t.Fatal(err)
		}
		term := `description("` + want + `")`
		if want == "" {
			term = `description([])` // the empty string is the empty list
		}
		if got := engine.FormatValue(v); !strings.Contains(got, term) {
			t.Errorf("%q: features term %s lacks description(%q)", q, got, want)
		}
	}
}

// TestAGrammarRuleIsAProductionCue: a query that opens with a grammar
// rule (a name, "=", ":=" or "::=" between spaces, a right-hand side: the
// RFC grammar lines a parser's docstring opens with) has the cue
// production(Name), ahead of any other cue; an assignment without spaces,
// a rule without a right-hand side, a sentence that only holds "=" and
// code assigned to a variable (a call, a member, a literal, a single
// element under a name code could have) have none.
func TestAGrammarRuleIsAProductionCue(t *testing.T) {
	for q, want := range map[string]string{
		`attrtext = 1*(any non-ATTRIBUTE_ENDS character)`: "attrtext",
		`message-id = "Message-ID:" msg-id CRLF`:          "message-id",
		`  qcontent = qtext / quoted-pair`:                "qcontent",
		`obs_route ::= obs-domain-list ":"`:               "obs_route",
		`token := 1*<any CHAR except CTLs or separators>`: "token",
		`FWS = 1*WSP`: "FWS",
		`comment = "(" *([FWS] ccontent) [FWS] ")"`:    "comment",
		`msg-id = [CFWS] "<" id-left '@' id-right ">"`: "msg-id",
		`display-name = phrase`:                        "display-name",
		`word = atom / quoted-string`:                  "word",
		`err = nil`:                                    "",
		`srv := &Server{Addr: addr}`:                   "",
		`handler = http.HandlerFunc(f)`:                "",
		`mux := NewServeMux()`:                         "",
		`total = count + 1;`:                           "",
		`ratio = 1.5`:                                  "",
		`resp := fetch(url, timeout)`:                  "",
		`mode = os.O_RDONLY | os.O_CREATE`:             "",
		`end-block = "x};" CRLF`:                       "end-block",
		`x=1`:                                          "",
		`qcontent=qtext / quoted-pair`:                 "",
		`attrtext = `:                                  "",
		`Return a = b for the caller.`:                 "",
		`where is timeout = 30 set?`:                   "",
		`-dash = x`:                                    "",
		`Split a header line into two parts.`:          "",
	} {
		f := QueryFeatures(q)
		if f.Production != want {
			t.Errorf("%q: production %q, want %q", q, f.Production, want)
			continue
		}
		if want == "" {
			if f.Cue() == CueProduction {
				t.Errorf("%q: cue %s without a production", q, f.Cue())
			}
			continue
		}
		if f.Cue() != CueProduction {
			t.Errorf("%q: cue %s, want %s", q, f.Cue(), CueProduction)
		}
		v, err := engine.Decode(f.Term(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, term := engine.FormatValue(v), `production("`+want+`")`; !strings.Contains(got, term) {
			t.Errorf("%q: features term %s lacks %s", q, got, term)
		}
	}
}
