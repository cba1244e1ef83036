package bridge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAdjacentWordsSpellAnAcronymTheSnapshotHolds: three or four
// adjacent content words whose initials are a term of the search index
// give that term (is_HDN's hdn for "host domain name"); a stopword
// between them, two words, a term the index lacks, a word of the query
// itself, words the snapshot also names in full (in any of the usual
// spellings of a name), and a lexicon that knows no terms give none.
func TestAdjacentWordsSpellAnAcronymTheSnapshotHolds(t *testing.T) {
	terms := map[string]bool{"hdn": true, "tls": true, "cte": true, "hd": true, "text": true, "qpe": true,
		"bcn": true, "mcs": true, "rlc": true, "sms": true}
	names := map[string]bool{"BarCodeNumber": true, "maxConnStreams": true, "read_line_count": true, "SHORT_MESSAGE_SERVICE": true}
	lex := Lexicon{Term: func(w string) bool { return terms[w] }, Symbol: func(n string) bool { return names[n] }}
	tests := []struct {
		query string
		lex   Lexicon
		want  []Acronym
	}{
		{"Return True if text is a host domain name.", lex, []Acronym{{Words: []string{"host", "domain", "name"}, Term: "hdn"}}},
		{"Dial with transport layer security and a host domain name", lex, []Acronym{
			{Words: []string{"transport", "layer", "security"}, Term: "tls"},
			{Words: []string{"host", "domain", "name"}, Term: "hdn"},
		}},
		{"Set the Content-Transfer-Encoding header.", lex, []Acronym{{Words: []string{"content", "transfer", "encoding"}, Term: "cte"}}},
		{"Encode quoted-printable encoding lines.", lex, []Acronym{{Words: []string{"quoted", "printable", "encoding"}, Term: "qpe"}}},
		{"Return True if text is a host of domain names.", lex, nil}, // "of" breaks the run
		{"Split the host domain.", lex, nil},                // two words: "hd" is too short
		{"Parse the hyper text markup language.", lex, nil}, // "html" is no term here
		{"Take the text ending xylophone tune.", lex, nil},  // "text" is a word of the query
		{"Return True if text is a host domain name.", Lexicon{}, nil},
		{"Parse the bar code number.", lex, nil},         // BarCodeNumber
		{"Set the max conn streams.", lex, nil},          // maxConnStreams
		{"Return the read line count.", lex, nil},        // read_line_count
		{"Send a short message service text.", lex, nil}, // SHORT_MESSAGE_SERVICE
		{"Parse the bar code number.", Lexicon{Term: lex.Term}, []Acronym{{Words: []string{"bar", "code", "number"}, Term: "bcn"}}},
	}
	for _, tc := range tests {
		got := QueryFeaturesIn(tc.query, tc.lex).Acronyms
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%q: acronyms (-want +got):\n%s", tc.query, d)
		}
	}
}
