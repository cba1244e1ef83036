package retrieval

import (
	"context"
	"slices"
	"strings"
	"unicode"
)

// Demotion says how SearchDemoting ranks a search's hits: the documents
// of Roles after all others, except those the query names exactly, which
// keep their place whatever their role.
type Demotion struct {
	// Roles are the roles (RoleOf) whose documents rank after all others;
	// Internal among them demotes the documents of internal packages
	// (IsInternal).
	Roles []string
	// Quoted, when not empty, keeps in place a document whose doc comment
	// it quotes (Quotes): the query names it as exactly as a name would.
	Quoted string
	// Names keeps in place a document whose Symbol or Qualified is one of
	// them.
	Names []string
}

// keeps reports whether d names doc exactly: its doc comment quoted, or
// its name.
func (d Demotion) keeps(doc Document) bool {
	return d.Quoted != "" && Quotes(d.Quoted, doc.Doc) ||
		slices.Contains(d.Names, doc.Symbol) || doc.Qualified != "" && slices.Contains(d.Names, doc.Qualified)
}

// Demotes reports whether doc ranks after the others under d: its role is
// one of d.Roles and d does not name it exactly.
func (d Demotion) Demotes(doc Document) bool {
	return (slices.Contains(d.Roles, RoleOf(doc)) || IsInternal(doc) && slices.Contains(d.Roles, Internal)) && !d.keeps(doc)
}

// DemotionDepth is how many hits SearchDemoting reads to rank limit of
// them: 3 × limit, at least 50, at most MaxLimit.
func DemotionDepth(limit int) int { return min(MaxLimit, max(3*limit, 50)) }

// SearchDemoting answers req from b with the documents of d.Roles ranked
// after every other hit. It reads the first DemotionDepth(req.Limit) hits
// of req and moves those of the demoted roles (except those d names
// exactly: quoted or by name) behind the others, each part in its own
// order; when fewer than req.Limit others are among them and
// there may be more, it searches again with the demoted roles excluded
// (Filter.ExcludeRoles) for the others ranked below. Hits keep their
// scores and score kind; Rank is renumbered 1..n; at most req.Limit are
// returned. It works with every strategy and every backend that honours
// role filters. An empty d.Roles is b.Search(req). Errors: req.Normalize's
// and b.Search's.
func SearchDemoting(ctx context.Context, b Backend, req Request, d Demotion) ([]Hit, error) {
	if len(d.Roles) == 0 {
		return b.Search(ctx, req)
	}
	req, err := req.Normalize()
	if err != nil {
		return nil, err
	}
	deep := req
	deep.Limit = max(req.Limit, DemotionDepth(req.Limit))
	hits, err := b.Search(ctx, deep)
	if err != nil {
		return nil, err
	}
	var front, back []Hit
	for _, h := range hits {
		if d.Demotes(h.Document) {
			back = append(back, h)
		} else {
			front = append(front, h)
		}
	}
	if len(front) < req.Limit && len(hits) == deep.Limit {
		// The others ranked below the depth read: the search without
		// the demoted roles finds them.
		others := req
		// (Internal is no role: the demoted internal documents it finds
		// are skipped below.)
		others.Filter.ExcludeRoles = append(slices.Clone(req.Filter.ExcludeRoles),
			slices.DeleteFunc(slices.Clone(d.Roles), func(r string) bool { return r == Internal })...)
		more, err := b.Search(ctx, others)
		if err != nil {
			return nil, err
		}
		seen := make(map[string]bool, len(front))
		for _, h := range front {
			seen[h.Document.ID] = true
		}
		for _, h := range more {
			if len(front) >= req.Limit {
				break
			}
			if !seen[h.Document.ID] && !d.Demotes(h.Document) {
				front = append(front, h)
			}
		}
	}
	out := append(front, back...)
	if len(out) > req.Limit {
		out = out[:req.Limit]
	}
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, nil
}

// Quotes reports whether text quotes the doc comment doc: the words of
// text (runs of letters and digits, case folded; at least three) are
// the first words of doc, as when a query is a definition's doc sentence
// or its start.
func Quotes(text, doc string) bool {
	q := words(text)
	if len(q) < 3 {
		return false
	}
	dw := words(doc)
	return len(dw) >= len(q) && slices.Equal(q, dw[:len(q)])
}

// words are the runs of letters and digits of s, lower-cased.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
