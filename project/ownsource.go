package project

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// maxOwnTextBytes bounds the source text a definition without a doc
// comment is indexed by (ownLines): a long undocumented function is
// indexed by its first 16 KiB.
const maxOwnTextBytes = 16 << 10

// maxOwnSourceFileBytes bounds the files whose bytes are read for
// ownLines: a larger file's definitions are indexed without their source.
const maxOwnSourceFileBytes = 4 << 20

// sourceReader returns the bytes facts were extracted from (f's
// Provenance.Path under the tree's root), or nil when they cannot be
// had: the file is unreadable, larger than maxOwnSourceFileBytes, or its
// bytes no longer hash to f's Provenance.Hash (changed since extraction:
// words of other bytes never enter the index as the facts').
type sourceReader func(f *sourcefacts.FileFacts) []byte

// rootSource is the sourceReader of the tree at root (absolute).
func rootSource(root string) sourceReader {
	return func(f *sourcefacts.FileFacts) []byte {
		if f == nil || f.Provenance.Path == "" || f.Provenance.Hash.Len > maxOwnSourceFileBytes {
			return nil
		}
		fh, err := os.Open(filepath.Join(root, filepath.FromSlash(f.Provenance.Path)))
		if err != nil {
			return nil
		}
		defer fh.Close()
		b, err := io.ReadAll(io.LimitReader(fh, maxOwnSourceFileBytes+1))
		if err != nil || sourcefacts.HashBytes(b) != f.Provenance.Hash {
			return nil
		}
		return b
	}
}

// ownLines returns, for each symbol of f, the source lines that are its
// own when it has no doc comment, else "": the lines of its range that no
// definition nested in it covers (a class's own lines are not its
// methods'; a line covered by several nested definitions belongs to the
// innermost), joined by newlines and clipped to maxOwnTextBytes. On code
// without doc comments those lines — local names, string literals,
// inline comments — are what tells a definition from its namesakes (rlm
// eval, description_nodoc, docs/BENCHMARKS.md); a documented definition
// is described by its doc comment and keeps its row as it was. src is
// f's bytes (nil: every entry "").
func ownLines(f *sourcefacts.FileFacts, src []byte) []string {
	out := make([]string, len(f.Symbols))
	if src == nil {
		return out
	}
	lines := strings.Split(string(src), "\n")
	// owner[l-1] is the index of the innermost symbol covering line l
	// (-1: none): symbols are applied widest first, so a nested one
	// overwrites its container.
	owner := make([]int, len(lines))
	for i := range owner {
		owner[i] = -1
	}
	order := make([]int, len(f.Symbols))
	for i := range order {
		order[i] = i
	}
	span := func(i int) int { return f.Symbols[i].Range.EndLine - f.Symbols[i].Range.StartLine }
	slices.SortStableFunc(order, func(a, b int) int { return span(b) - span(a) })
	for _, i := range order {
		r := f.Symbols[i].Range
		for l := max(r.StartLine, 1); l <= r.EndLine && l <= len(lines); l++ {
			owner[l-1] = i
		}
	}
	for i, s := range f.Symbols {
		if s.Doc != "" {
			continue
		}
		var b strings.Builder
		for l := max(s.Range.StartLine, 1); l <= s.Range.EndLine && l <= len(lines); l++ {
			// A line is this symbol's if its innermost owner has the same
			// range (two symbols on one range share its lines).
			if o := owner[l-1]; o < 0 || f.Symbols[o].Range.StartLine != s.Range.StartLine || f.Symbols[o].Range.EndLine != s.Range.EndLine {
				continue
			}
			t := strings.TrimSpace(lines[l-1])
			if t == "" {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t)
			if b.Len() >= maxOwnTextBytes {
				break
			}
		}
		out[i] = textclip.Prefix(b.String(), maxOwnTextBytes)
	}
	return out
}
