package loop

import "testing"

// TestAnAnswerCitesEvidenceByLineInRangeOrByPathAndSymbol: "path:line"
// cites evidence when the line is in its range; the bare path cites it
// only with its symbol's name beside, not qualified by another name; a
// longer path, another line, or the path with only other lines does not.
func TestAnAnswerCitesEvidenceByLineInRangeOrByPathAndSymbol(t *testing.T) {
	e := evidence{Path: "sub/client.go", StartLine: 6, EndLine: 12, Symbol: "sub.Fetch"}
	for _, c := range []struct {
		answer string
		want   bool
	}{
		{"see sub/client.go:6", true},
		{"see sub/client.go:12.", true},
		{"see sub/client.go:13", false},
		{"see sub/client.go:5 and sub/client.go:9", true},
		{"sub/client.go defines Fetch", true},
		{"sub/client.go defines FetchAll", false},
		{"sub/client.go has the code", false},
		{"Fetch is somewhere", false},
		{"sub/client.go:", false},
		{"", false},
		{"sub/client.go:40 defines Fetch", false},
		{"sub/client.go defines sub.Fetch", true},
		{"sub/client.go defines Client.Fetch", false},
		{"sub/client.go defines Client.Fetch and sub.Fetch", true},
	} {
		if got := cites(c.answer, e); got != c.want {
			t.Errorf("cites(%q) = %v, want %v", c.answer, got, c.want)
		}
	}
}
