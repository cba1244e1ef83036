package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// decl is one definition of the tree as sourcefacts extracts it: the unit
// the tasks ask about and the baseline ranks. Line is the definition's
// first line (1-based; its doc comment is above it, outside the range).
type decl struct {
	Path      string
	Name      string
	Qualified string
	Kind      string
	Language  string
	Line      int
	EndLine   int
	Signature string
	Doc       string
	Test      bool
	Package   string // the file's Go (or Java) package name, sourcefacts.FileFacts.Package
}

// key is where a definition starts: what a hit must match.
type key struct {
	Path string
	Line int
}

func (d decl) key() key { return key{d.Path, d.Line} }

// loc renders a definition for a report: "path:line Qualified".
func (d decl) loc() string { return fmt.Sprintf("%s:%d %s", d.Path, d.Line, d.Qualified) }

// declaration reports whether kind is a prototype or an in-class
// declaration: not a definition, ranked after definitions by the product.
func declaration(kind string) bool {
	return kind == sourcefacts.KindPrototype || kind == sourcefacts.KindDeclaration
}

// tree is the facts of a tree: its definitions in (path, line) order and
// each file's lines.
type tree struct {
	root  string
	files []*sourcefacts.FileFacts
	decls []decl
	lines map[string][]string
}

// loadTree walks root with the product's skip policy and reads every
// definition and its file's lines. Generated Go files are included: the
// product's knowledge base indexes them (net/http's h2_bundle.go), so a
// name defined there and elsewhere is not unique to the tasks either.
func loadTree(ctx context.Context, root string, includeIgnored bool) (*tree, error) {
	ffs, err := sourcefacts.Walk(ctx, root, sourcefacts.WalkOptions{IncludeIgnored: includeIgnored, IncludeGenerated: true})
	if err != nil {
		return nil, fmt.Errorf("eval: walk %s: %w", root, err)
	}
	t := &tree{root: root, files: ffs, lines: map[string][]string{}}
	for _, ff := range ffs {
		if ff.Language == "" || len(ff.Symbols) == 0 {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ff.Provenance.Path)))
		if err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		t.lines[ff.Provenance.Path] = strings.Split(string(b), "\n")
		for _, s := range ff.Symbols {
			t.decls = append(t.decls, decl{
				Path: ff.Provenance.Path, Name: s.Name, Qualified: s.Qualified(), Kind: s.Kind, Language: ff.Language,
				Line: s.Range.StartLine, EndLine: s.Range.EndLine, Signature: s.Signature, Doc: s.Doc, Test: ff.Test,
				Package: ff.Package,
			})
		}
	}
	sort.SliceStable(t.decls, func(i, j int) bool {
		a, b := t.decls[i], t.decls[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	return t, nil
}

// docText is a declaration as the baseline indexes it: path, qualified
// name, signature, doc comment and its source lines.
func (t *tree) docText(d decl) string {
	var sb strings.Builder
	sb.WriteString(d.Path + " " + d.Qualified + " " + d.Signature + " " + d.Doc + "\n")
	ls := t.lines[d.Path]
	for i := d.Line; i <= d.EndLine && i-1 < len(ls); i++ {
		if i >= 1 {
			sb.WriteString(ls[i-1])
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// firstSentence is the first sentence of a doc comment, whitespace
// collapsed: up to the first ". " (or the end of the first paragraph),
// at most 300 bytes. "" if it has fewer than three words.
func firstSentence(doc string) string {
	para, _, _ := strings.Cut(strings.TrimSpace(doc), "\n\n")
	s := strings.Join(strings.Fields(para), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if len(s) > 300 {
		s = s[:300]
	}
	if len(strings.Fields(s)) < 3 {
		return ""
	}
	return s
}
