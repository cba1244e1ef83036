package embedded

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitIdentifier(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"ServeHTTP", []string{"serve", "http", "servehttp"}},
		{"readRequest", []string{"read", "request", "readrequest"}},
		{"http_test", []string{"http", "test", "http_test"}},
		{"HTTPServer", []string{"http", "server", "httpserver"}},
		{"base64Encode", []string{"base", "64", "encode", "base64encode"}},
		{"Server", []string{"server"}},
		{"x", []string{"x"}},
		{"__init__", []string{"init", "__init__"}},
		{"ÄpfelBaum", []string{"äpfel", "baum", "äpfelbaum"}},
		{"getHTTPResponseCode", []string{"get", "http", "response", "code", "gethttpresponsecode"}},
		{"ID", []string{"id"}},
		{"", nil},
		{strings.Repeat("a", MaxTermBytes+1), nil},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, SplitIdentifier(tc.in)); diff != "" {
				t.Errorf("SplitIdentifier(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestQueryTermsAndMatchExpression(t *testing.T) {
	tests := []struct {
		in        string
		wantTerms []string
		wantMatch string
	}{
		{"where is ServeHTTP defined?", []string{"serve", "http", "servehttp"}, `"serve" OR "http" OR "servehttp"`},
		{"what calls readRequest", []string{"read", "request", "readrequest"}, `"read" OR "request" OR "readrequest"`},
		{`NEAR(a b) AND NOT "x`, []string{"near", "b", "not", "x"}, `"near" OR "b" OR "not" OR "x"`},
		{"'; DROP TABLE files; --", []string{"drop", "table", "files"}, `"drop" OR "table" OR "files"`},
		{`" OR 1=1 --`, []string{"1"}, `"1"`},
		{"*", nil, ""},
		{"what is the", nil, ""},
		{"a\x00b\xffc", []string{"b", "c"}, `"b" OR "c"`},
		{"serve serve SERVE", []string{"serve"}, `"serve"`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if diff := cmp.Diff(tc.wantTerms, QueryTerms(tc.in)); diff != "" {
				t.Errorf("QueryTerms (-want +got):\n%s", diff)
			}
			if got := matchExpression(tc.in); got != tc.wantMatch {
				t.Errorf("matchExpression = %q, want %q", got, tc.wantMatch)
			}
		})
	}
}

func TestQueryTermsCapped(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 100; i++ {
		b.WriteString("w")
		b.WriteString(strings.Repeat("x", i+1))
		b.WriteString(" ")
	}
	if got := len(QueryTerms(b.String())); got != MaxQueryTerms {
		t.Errorf("len(QueryTerms) = %d, want %d", got, MaxQueryTerms)
	}
}

func TestQuoteFTS(t *testing.T) {
	if got, want := quoteFTS(`a"b`), `"a""b"`; got != want {
		t.Errorf("quoteFTS = %s, want %s", got, want)
	}
}

// TestProseIndexTextThroughTheMemoIsTheTextWithout: the FTS text of a
// batch's prose split through one shared memo (as prepareRows does) is,
// field for field, the text of splitting every word again; the memo is
// keyed by the exact word (case and all) and keeps at most maxSplitMemo
// words, the text of words past the bound being the same.
func TestProseIndexTextThroughTheMemoIsTheTextWithout(t *testing.T) {
	long := strings.Repeat("x", MaxTermBytes+1)
	texts := []struct{ name, text string }{
		{"repeated words", "ServeHTTP serves; ServeHTTP again, and serveHTTP and SERVEHTTP"},
		{"the same word in other cases", "Reader reader READER readerReader Reader_reader"},
		{"identifiers", "func (srv *Server) ListenAndServeTLS(certFile, keyFile string) error"},
		{"a path", "net/http/httputil/reverseproxy_test.go"},
		{"a word over the term bound", "short " + long + " short"},
		{"letters beyond ASCII", "Größe größe ÜberSetzung überSetzung"},
		{"empty", ""},
	}
	memo := splitMemo{}
	for _, tc := range texts {
		t.Run(tc.name, func(t *testing.T) {
			want := proseIndexText(tc.text, nil)
			if got := proseIndexText(tc.text, memo); got != want {
				t.Errorf("through the memo:\n%q\nwithout:\n%q", got, want)
			}
			if got := proseIndexText(tc.text, memo); got != want { // the words now remembered
				t.Errorf("remembered:\n%q\nwithout:\n%q", got, want)
			}
		})
	}
	if len(memo) == 0 {
		t.Fatal("the memo remembered nothing")
	}

	full := splitMemo{}
	var words []string
	for i := 0; i < maxSplitMemo+5; i++ {
		words = append(words, fmt.Sprintf("wordNumber%d", i))
	}
	text := strings.Join(words, " ")
	if got, want := proseIndexText(text, full), proseIndexText(text, nil); got != want {
		t.Errorf("past the bound: the texts differ (%d and %d bytes)", len(got), len(want))
	}
	if len(full) != maxSplitMemo {
		t.Errorf("the memo holds %d words, want the bound %d", len(full), maxSplitMemo)
	}
}
