package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// stripDocs writes a copy of the tree into dir with the doc comment of
// every definition removed (CodeSearchNet-style): the comment lines right
// above a definition (attributes and annotations between them are kept)
// and, for Python, the docstring that opens its body. Removed lines become
// blank lines (a docstring that was a body's only statement becomes
// `pass`), so every definition keeps its line numbers and the gold of the
// original tree holds in the copy. go.mod is copied too. It returns the
// number of definitions whose doc was removed.
func (t *tree) stripDocs(dir string) (int, error) {
	stripped := 0
	for _, ff := range t.files {
		rel := ff.Provenance.Path
		ls, ok := t.lines[rel]
		if !ok {
			b, err := os.ReadFile(filepath.Join(t.root, filepath.FromSlash(rel)))
			if err != nil {
				return 0, fmt.Errorf("eval: %w", err)
			}
			ls = strings.Split(string(b), "\n")
		}
		out := append([]string(nil), ls...)
		for _, s := range ff.Symbols {
			if s.Doc == "" {
				continue
			}
			var n int
			if ff.Language == sourcefacts.LangPython {
				n = blankDocstring(out, s.Range.StartLine, s.Range.EndLine)
			}
			if n == 0 {
				n = blankCommentAbove(out, s.Range.StartLine, hashComments(ff.Language))
			}
			if n > 0 {
				stripped++
			}
		}
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(rel)), strings.Join(out, "\n")); err != nil {
			return 0, err
		}
	}
	if b, err := os.ReadFile(filepath.Join(t.root, "go.mod")); err == nil {
		if err := writeFile(filepath.Join(dir, "go.mod"), string(b)); err != nil {
			return 0, err
		}
	}
	return stripped, nil
}

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	return nil
}

func hashComments(lang string) bool {
	return lang == sourcefacts.LangPython || lang == sourcefacts.LangRuby
}

// blankCommentAbove blanks the comment lines directly above line (1-based),
// skipping attribute and annotation lines; it returns how many it blanked.
func blankCommentAbove(ls []string, line int, hash bool) int {
	n := 0
	for i := line - 2; i >= 0; i-- {
		l := strings.TrimSpace(ls[i])
		switch {
		case l == "":
			return n
		case strings.HasPrefix(l, "@"), strings.HasPrefix(l, "#["), strings.HasPrefix(l, "[["):
			continue
		case commentLine(l, hash):
			ls[i] = ""
			n++
		default:
			return n
		}
	}
	return n
}

func commentLine(l string, hash bool) bool {
	if hash {
		return strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "#!")
	}
	return strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") || strings.HasPrefix(l, "*") || strings.HasSuffix(l, "*/") || strings.HasPrefix(l, "%")
}

// blankDocstring blanks the string literal that opens the body of the
// Python definition spanning lines start..end; it returns how many lines
// it changed (0 if the body does not open with a string).
func blankDocstring(ls []string, start, end int) int {
	// The body starts after the header line that ends with ':'.
	i := start - 1
	for ; i < end && i < len(ls); i++ {
		if strings.HasSuffix(strings.TrimSpace(stripHashComment(ls[i])), ":") {
			break
		}
	}
	i++
	for ; i < end && i < len(ls) && strings.TrimSpace(ls[i]) == ""; i++ {
	}
	if i >= len(ls) || i >= end {
		return 0
	}
	l := strings.TrimSpace(ls[i])
	body := strings.TrimLeft(l, "rRbBuU")
	var quote string
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(body, q) {
			quote = q
			break
		}
	}
	if quote == "" {
		return 0
	}
	indent := ls[i][:len(ls[i])-len(strings.TrimLeft(ls[i], " \t"))]
	first := i
	rest := body[len(quote):]
	for !strings.Contains(rest, quote) {
		i++
		if i >= len(ls) || i >= end {
			return 0
		}
		rest = ls[i]
	}
	last := i
	for j := first; j <= last; j++ {
		ls[j] = ""
	}
	// Keep the body non-empty: the first blanked line becomes `pass`.
	ls[first] = indent + "pass"
	return last - first + 1
}

func stripHashComment(l string) string {
	if i := strings.Index(l, " #"); i >= 0 {
		return l[:i]
	}
	return l
}
