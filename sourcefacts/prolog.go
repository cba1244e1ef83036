package sourcefacts

import (
	"context"
	"fmt"
	"strings"

	"github.com/rlm-dev/rlm/internal/textclip"

	"github.com/rlm-dev/rlm/sourcefacts/prologsrc"
)

const (
	prologModule          = "github.com/ichiban/prolog"
	fallbackPrologVersion = "v1.2.2"
)

// prologVersion is Provenance.GrammarVersion for Prolog files: the version
// of ichiban/prolog, whose term reader (with the ISO operator table) is the
// grammar.
func prologVersion() string { return moduleVersion(prologModule, fallbackPrologVersion) }

// prologParserVersion is Provenance.Parser for Prolog files, e.g.
// "ichiban-prolog/1.2.2".
func prologParserVersion() string {
	return "ichiban-prolog/" + strings.TrimPrefix(prologVersion(), "v")
}

// extractProlog fills ff from Prolog source: predicates (Kind
// KindPredicate, Name "name/arity"), body and directive goals (RefCall,
// Name "name/arity", Receiver the module qualifier), loaded files
// (Imports) and the module name (Package). Nothing in src is run. A text
// with clauses the reader cannot read is StatusPartial with the first
// one's message (the clauses after it are read), or StatusError when not
// one clause was read.
func extractProlog(ctx context.Context, ff *FileFacts, src []byte) (*FileFacts, error) {
	res, err := prologsrc.Parse(ctx, src)
	if err != nil {
		return nil, err
	}
	if res.Err != nil && res.Clauses == 0 {
		return ff.fail(res.Err.Error()), nil
	}
	if res.Err != nil {
		ff.Status = StatusPartial
		ff.Error = res.Err.Error()
	}
	ff.Package = textclip.Fit(strings.ToValidUTF8(res.Module, "\uFFFD"), 256)
	for _, d := range res.Definitions {
		ff.Symbols = append(ff.Symbols, Symbol{
			Name:      textclip.Fit(strings.ToValidUTF8(d.Indicator(), "\uFFFD"), 1024),
			Kind:      KindPredicate,
			Signature: textclip.Fit(d.Head, MaxSignatureBytes),
			Doc:       textclip.Fit(d.Doc, MaxDocBytes),
			Range:     rangeOfSpan(d.Span),
			NameRange: rangeOfSpan(d.NameSpan),
		})
	}
	for _, c := range res.Calls {
		ff.References = append(ff.References, Reference{
			Name:      textclip.Fit(strings.ToValidUTF8(fmt.Sprintf("%s/%d", c.Name, c.Arity), "\uFFFD"), 1024),
			Kind:      RefCall,
			Receiver:  textclip.Fit(strings.ToValidUTF8(c.Module, "\uFFFD"), MaxReceiverBytes),
			Enclosing: c.Enclosing,
			Range:     rangeOfSpan(c.Span),
		})
	}
	for _, im := range res.Imports {
		ff.Imports = append(ff.Imports, Import{Path: im.Spec, Range: rangeOfSpan(im.Span)})
	}
	return ff, nil
}

func rangeOfSpan(s prologsrc.Span) Range {
	return Range{StartByte: s.StartByte, EndByte: s.EndByte, StartLine: s.StartLine, EndLine: s.EndLine,
		StartCol: s.StartCol, EndCol: s.EndCol}
}
