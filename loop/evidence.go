package loop

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/prompt"
)

// maxLineBytes bounds one line of a code excerpt.
const maxLineBytes = 240

// evidence is one hit read back from the exact bytes it was indexed from.
type evidence struct {
	Path        string `json:"path"`
	StartLine   int    `json:"start_line"`
	EndLine     int    `json:"end_line"` // of the excerpt (clipped to the line limit)
	Symbol      string `json:"symbol"`
	Kind        string `json:"kind"`
	ContentHash string `json:"content_hash"`
	Code        string `json:"code"`
}

// retrieval is the retrieval planner's answer as evidence.
type retrieval struct {
	Query    string     `json:"query"`
	Class    string     `json:"class"`
	Gap      string     `json:"gap,omitempty"`
	Resolved string     `json:"resolved,omitempty"` // "From -> To"
	Hits     []evidence `json:"hits"`
	Stale    int        `json:"stale,omitempty"` // hits whose file changed since they were indexed (dropped)
	plan     []string
}

// retrieve runs the retrieval planner on query and reads up to n hits
// back, each clipped to lines lines. A hit whose file no longer has the
// indexed bytes is dropped and counted, never shown.
func retrieve(ctx context.Context, r Retriever, query string, n, lines int) (*retrieval, error) {
	ans, err := r.Search(ctx, query, n)
	if err != nil {
		return nil, err
	}
	out := &retrieval{Query: query, Class: ans.Class, Gap: ans.Gap, Hits: []evidence{}}
	if ans.Resolved != nil {
		out.Resolved = ans.Resolved.From + " -> " + ans.Resolved.To
	}
	for _, s := range ans.Plan {
		v := ""
		if len(s.Because) > 0 {
			v = s.Because[0].Rule
		}
		out.plan = append(out.plan, s.Step.String()+" -> "+v)
	}
	// Several hits often come from one file: it is read and checked
	// against its indexed hash once for all of them (one version of it).
	type file struct {
		src     []byte
		current bool
	}
	read := map[[2]string]file{}
	for _, h := range ans.Hits {
		if len(out.Hits) == n {
			break
		}
		k := [2]string{h.Path, h.ContentHash}
		f, ok := read[k]
		if !ok {
			src, err := r.ReadSource(ctx, h.Path, h.ContentHash)
			if err != nil && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			f = file{src: src, current: err == nil}
			read[k] = f
		}
		if !f.current {
			out.Stale++
			continue
		}
		src := f.src
		out.Hits = append(out.Hits, excerpt(h, src, lines))
	}
	return out, nil
}

// excerpt cuts lines [h.StartLine, h.EndLine] of src, at most limit lines
// and maxLineBytes per line.
func excerpt(h planner.Hit, src []byte, limit int) evidence {
	e := evidence{Path: h.Path, StartLine: h.StartLine, Symbol: h.Symbol, Kind: h.Kind, ContentHash: h.ContentHash}
	if e.Symbol == "" || h.Qualified != "" {
		e.Symbol = h.Qualified
	}
	e.Code, e.EndLine = textclip.Lines(src, h.StartLine, h.EndLine, limit, maxLineBytes)
	return e
}

// contextUnits turns evidence into per-call context units for the
// compiler: wanted (activation always), optional (packed out first when
// the budget is tight), ranked by hit order.
func contextUnits(r *retrieval) []prompt.Unit {
	var out []prompt.Unit
	for i, h := range r.Hits {
		out = append(out, evidenceUnit(fmt.Sprintf("%sevidence:%d", prompt.ReservedPrefix, i+1), "retrieval", -i, h))
	}
	return out
}

// label renders a path, symbol or kind for the prompt: as it is when it
// is valid UTF-8 and every rune is printable, Go-quoted otherwise, so
// that a file name cannot hold a line break that starts a prompt section
// of its own (or a control character the compiler refuses in a title).
func label(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) {
		return s
	}
	return strconv.Quote(s)
}

// fence is a Markdown code fence for code: three backticks, or one more
// than the longest run of backticks in code, so code can never close its
// fence early and write prompt text of its own (CommonMark §4.5: a fence
// closes only with at least as many backticks as opened it).
func fence(code string) string {
	n, run := 3, 0
	for i := 0; i < len(code); i++ {
		if code[i] != '`' {
			run = 0
			continue
		}
		run++
		n = max(n, run+1)
	}
	return strings.Repeat("`", n)
}

// evidenceUnit is one piece of evidence as a context unit: its path and
// symbol labelled, its code fenced so that it cannot end its own block.
func evidenceUnit(id, source string, priority int, h evidence) prompt.Unit {
	path, sym := label(h.Path), label(h.Symbol)
	f := fence(h.Code)
	return prompt.Unit{
		ID:         id,
		Kind:       prompt.KindContext,
		Title:      textclip.Clip(fmt.Sprintf("%s:%d-%d %s", path, h.StartLine, h.EndLine, sym), prompt.MaxTitleBytes),
		Body:       fmt.Sprintf("%s:%d-%d (%s %s, content hash %s)\n%s\n%s%s", path, h.StartLine, h.EndLine, label(h.Kind), sym, h.ContentHash, f, h.Code, f),
		Activation: prompt.ActivationAlways,
		Priority:   priority,
		Source:     source,
	}
}

// citations are the evidence given, deduplicated, each re-read with
// r.ReadSource: Current says whether the file still has the bytes the
// evidence was read from. Cited (see cites) is only ever true for current
// evidence.
func citations(ctx context.Context, r Retriever, given []evidence, answer string) []Citation {
	seen := map[string]bool{}
	checked := map[[2]string]bool{} // path and hash -> the file has those bytes now
	var out []Citation
	for _, e := range given {
		key := fmt.Sprintf("%s:%d:%s", e.Path, e.StartLine, e.ContentHash)
		if seen[key] {
			continue
		}
		seen[key] = true
		current := false
		if r != nil {
			k := [2]string{e.Path, e.ContentHash}
			cur, ok := checked[k]
			if !ok {
				_, err := r.ReadSource(ctx, e.Path, e.ContentHash)
				cur = err == nil
				checked[k] = cur
			}
			current = cur
		}
		out = append(out, Citation{Path: e.Path, StartLine: e.StartLine, EndLine: e.EndLine, Symbol: e.Symbol,
			ContentHash: e.ContentHash, Current: current, Cited: current && cites(answer, e)})
	}
	return out
}

// cites reports whether answer cites e: it names e's path followed by
// ":line" with the line in e's range, or names e's path without a line
// and, anywhere, e's symbol (its last dotted part, as a whole word; when
// the answer qualifies it, "ServeMux.ServeHTTP", the qualifier must be
// e's). A path named only with lines outside e's range cites something
// else in the file.
func cites(answer string, e evidence) bool {
	bare := false
	for rest := answer; ; {
		i := strings.Index(rest, e.Path)
		if i < 0 {
			break
		}
		rest = rest[i+len(e.Path):]
		if !strings.HasPrefix(rest, ":") {
			bare = true
			continue
		}
		n, j := 0, 1
		for ; j < len(rest) && rest[j] >= '0' && rest[j] <= '9' && j < 9; j++ {
			n = n*10 + int(rest[j]-'0')
		}
		if j == 1 {
			bare = true // "path:" without a line
			continue
		}
		if n >= e.StartLine && n <= e.EndLine {
			return true
		}
	}
	return bare && mentionsSymbol(answer, e.Symbol)
}

// mentionsSymbol reports whether s names sym: its last part as a whole
// word, not qualified in s by a name other than sym's own qualifier.
func mentionsSymbol(s, sym string) bool {
	name := lastPart(sym)
	qual := lastPart(strings.TrimSuffix(strings.TrimSuffix(sym, name), ".")) // "" if sym has none
	for off := 0; ; {
		i := wordIndex(s[off:], name)
		if i < 0 {
			return false
		}
		i += off
		if q := qualifierBefore(s, i); q == "" || qual == "" || q == qual {
			return true
		}
		off = i + len(name)
	}
}

// qualifierBefore is the identifier written before s[i] with a '.' between
// ("ServeMux" in "ServeMux.ServeHTTP"), "" if there is none.
func qualifierBefore(s string, i int) string {
	if i == 0 || s[i-1] != '.' {
		return ""
	}
	j := i - 1
	for j > 0 && isIdentByte(s[j-1]) {
		j--
	}
	return s[j : i-1]
}

// lastPart is the part of a qualified symbol after its last '.', "::" or
// '/' ("Server.Serve" -> "Serve").
func lastPart(sym string) string {
	if i := strings.LastIndexAny(sym, ".:/"); i >= 0 {
		return sym[i+1:]
	}
	return sym
}

// isIdentByte: a byte of an identifier (ASCII letters, digits, '_', and
// any byte of a multi-byte rune).
func isIdentByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// wordIndex is the index of the first occurrence of w in s with no
// identifier character on either side, -1 if none.
func wordIndex(s, w string) int {
	if w == "" {
		return -1
	}
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(w)
		if (i == 0 || !isIdentByte(s[i-1])) && (end == len(s) || !isIdentByte(s[end])) {
			return i
		}
		off = i + 1
	}
}
