package project

import (
	"fmt"
	"strings"

	"github.com/rlm-dev/rlm/internal/subwords"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// Documents turns facts into retrieval documents: one per definition
// (ID: retrieval.SymbolDocumentID, stable while lines shift), with the
// calls and type references inside it as Refs, its role
// (sourcefacts.FileFacts.SymbolRole: source, test or example; Test is
// role test), the parser that extracted it and, from changed (path → the project generation that last wrote the
// file: store.FileState.PublishedIn; absent: 0), when its file last
// changed. References outside any definition are dropped (the graph
// relates definitions). Calls carry what they resolve to across files
// (sourcefacts.Scopes: Ref.Via, Scope, Type), and each document the scope
// of its definition and that scope's name (Metadata[retrieval.MetaScope],
// [retrieval.MetaModule]), for the graph strategy, and, in an internal
// package (sourcefacts.InternalPath), Metadata[retrieval.MetaInternal]. A definition that calls or references names has
// them in its Text (neighbourText), so that BM25 and the embedder read
// what it does as well as what it is called. Documents reads no files:
// its documents lack the own source lines (ownLines) the search index
// adds to definitions without a doc comment.
func Documents(files []*sourcefacts.FileFacts, changed map[string]int64) []retrieval.Document {
	scopes, vocab := treeScopes(files), treeVocabulary(files)
	var docs []retrieval.Document
	for _, f := range files {
		docs = fileDocuments(docs, scopes, vocab, f, nil, changed[f.Provenance.Path])
	}
	return docs
}

// treeScopes indexes files, every file of one tree, for call resolution.
func treeScopes(files []*sourcefacts.FileFacts) *sourcefacts.Scopes {
	root := ""
	if len(files) > 0 {
		root = files[0].Provenance.Project
	}
	return sourcefacts.NewScopes(root, files)
}

// fileDocuments appends the documents of f (see Documents), whose file
// last changed in generation changed, to docs; scopes resolves calls over
// the whole tree f is part of and vocab (treeVocabulary; nil: none) splits
// its compound names (nameWords) — the only things of other files the
// documents depend on. src is f's bytes (sourceReader; nil: none): a
// definition without a doc comment is indexed by its own lines of them
// too (ownLines, in its Text after its neighbours).
func fileDocuments(docs []retrieval.Document, scopes *sourcefacts.Scopes, vocab *subwords.Vocabulary, f *sourcefacts.FileFacts, src []byte, changed int64) []retrieval.Document {
	base := len(docs)
	scope := sourcefacts.ScopeOf(f)
	nth := map[string]int{} // qualified name -> definitions seen in this file
	internal := sourcefacts.InternalPath(f.Language, f.Provenance.Path)
	for i, s := range f.Symbols {
		q := qualifiedName(s)
		role := f.SymbolRole(i)
		docs = append(docs, retrieval.Document{
			ID:          retrieval.SymbolDocumentID(f.Provenance.Path, q, nth[q]),
			Path:        f.Provenance.Path,
			StartLine:   s.Range.StartLine,
			EndLine:     s.Range.EndLine,
			Symbol:      s.Name,
			Qualified:   q,
			Kind:        s.Kind,
			Language:    f.Language,
			Signature:   s.Signature,
			Doc:         s.Doc,
			NameWords:   nameWords(vocab, s.Name),
			ContentHash: f.Provenance.Hash.String(),
			Test:        role == sourcefacts.RoleTest,
			Role:        role,
			Changed:     changed,
			Parser:      f.Provenance.Parser,
			Metadata: map[string]string{
				"package":    f.Package,
				"generation": fmt.Sprint(f.Provenance.Generation),
				"status":     f.Status,
			},
		})
		if internal {
			docs[len(docs)-1].Metadata[retrieval.MetaInternal] = "true"
		}
		if scope != "" {
			docs[len(docs)-1].Metadata[retrieval.MetaScope] = scope
			docs[len(docs)-1].Metadata[retrieval.MetaModule] = scopes.Name(scope)
		}
		nth[q]++
	}
	for _, r := range f.References {
		if r.Enclosing < 0 || r.Enclosing >= len(f.Symbols) {
			continue
		}
		d := &docs[base+r.Enclosing]
		ref := retrieval.Ref{Name: r.Name, Kind: r.Kind, Line: r.Range.StartLine}
		if r.Kind == sourcefacts.RefCall {
			t := scopes.Call(f, r)
			ref.Via, ref.Scope, ref.Type = t.Via, t.Scope, t.Type
		}
		d.Refs = append(d.Refs, ref)
	}
	own := ownLines(f, src)
	for i := base; i < len(docs); i++ {
		docs[i].Text = withOwnLines(docs[i], neighbourText(docs[i]), own[i-base])
		docs[i].Text = withSpecialMethodWords(docs[i], docs[i].Text, specialMethodWords(f.Language, f.Symbols[i-base]))
	}
	return docs
}

// withOwnLines is the Text of d, whose neighbourText is text, with its
// own source lines (ownLines; "": none) after it: text, or the fields'
// text (retrieval.EmbeddingText) when text is "", a newline, the lines.
func withOwnLines(d retrieval.Document, text, own string) string {
	if own == "" {
		return text
	}
	if text == "" {
		text = retrieval.EmbeddingText(d)
	}
	return text + "\n" + own
}

// qualifiedName is Receiver.Name for methods and Container.Name for
// members without a receiver (interface methods, struct fields), so that
// "Handler.ServeHTTP" finds the interface method.
func qualifiedName(s sourcefacts.Symbol) string {
	if s.Receiver == "" && s.Container != "" {
		return s.Container + "." + s.Name
	}
	return s.Qualified()
}

// neighbourText is the text a definition is indexed and embedded by when
// it has references: retrieval.EmbeddingText (its name, signature, doc
// comment and path), then a line of the names it calls and references,
// each once, in order. Those names are its call-graph neighbourhood: on
// code without doc comments they are what tells "Skip white space and
// extract comments" from its neighbours (rlm eval, description_nodoc,
// docs/BENCHMARKS.md). "" (the backends then index the fields) without
// references.
func neighbourText(d retrieval.Document) string {
	if len(d.Refs) == 0 {
		return ""
	}
	seen := make(map[string]bool, len(d.Refs))
	var b strings.Builder
	b.WriteString(retrieval.EmbeddingText(d))
	b.WriteByte('\n')
	for _, r := range d.Refs {
		if seen[r.Name] {
			continue
		}
		if len(seen) > 0 {
			b.WriteByte(' ')
		}
		seen[r.Name] = true
		b.WriteString(r.Name)
	}
	return b.String()
}

// withSpecialMethodWords is the Text of d, whose Text so far is text, with
// the language's words for it (specialMethodWords; nil: none) on a line
// after it, in the text BM25 weighs least: "__len__" is found by "Return
// the number of …" without ranking above a definition whose own name or
// code holds the words (rlm eval, description_nodoc, docs/BENCHMARKS.md).
func withSpecialMethodWords(d retrieval.Document, text string, words []string) string {
	if len(words) == 0 {
		return text
	}
	if text == "" {
		text = retrieval.EmbeddingText(d)
	}
	return text + "\n" + strings.Join(words, " ")
}
