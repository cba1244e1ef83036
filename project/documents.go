package project

import (
	"fmt"

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
// relates definitions).
func Documents(files []*sourcefacts.FileFacts, changed map[string]int64) []retrieval.Document {
	var docs []retrieval.Document
	for _, f := range files {
		base := len(docs)
		nth := map[string]int{} // qualified name -> definitions seen in this file
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
				ContentHash: f.Provenance.Hash.String(),
				Test:        role == sourcefacts.RoleTest,
				Role:        role,
				Changed:     changed[f.Provenance.Path],
				Parser:      f.Provenance.Parser,
				Metadata: map[string]string{
					"package":    f.Package,
					"generation": fmt.Sprint(f.Provenance.Generation),
					"status":     f.Status,
				},
			})
			nth[q]++
		}
		for _, r := range f.References {
			if r.Enclosing < 0 || r.Enclosing >= len(f.Symbols) {
				continue
			}
			d := &docs[base+r.Enclosing]
			d.Refs = append(d.Refs, retrieval.Ref{Name: r.Name, Kind: r.Kind, Line: r.Range.StartLine})
		}
	}
	return docs
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
