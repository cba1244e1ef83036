package retrieval

import (
	"context"
	"slices"
)

// SearchDemoting answers req from b with the documents whose role (RoleOf)
// is among demote ranked after every other hit: it searches with those
// roles excluded (Filter.ExcludeRoles), then, when that gives fewer than
// req.Limit hits, with only those roles (Filter.Roles, narrowed to the
// roles req.Filter already allows) for the rest. Each part keeps its own
// order, scores and score kind; Rank is renumbered 1..n over the whole.
// It works with every strategy and every backend that honours role
// filters (Capabilities.Filters). An empty demote is b.Search(req).
// Errors: b.Search's, from either search.
func SearchDemoting(ctx context.Context, b Backend, req Request, demote []string) ([]Hit, error) {
	if len(demote) == 0 {
		return b.Search(ctx, req)
	}
	req, err := req.Normalize()
	if err != nil {
		return nil, err
	}
	first := req
	first.Filter.ExcludeRoles = append(slices.Clone(req.Filter.ExcludeRoles), demote...)
	hits, err := b.Search(ctx, first)
	if err != nil || len(hits) >= req.Limit {
		return hits, err
	}
	var later []string
	for _, r := range demote {
		if (len(req.Filter.Roles) == 0 || slices.Contains(req.Filter.Roles, r)) && !slices.Contains(req.Filter.ExcludeRoles, r) &&
			!slices.Contains(later, r) {
			later = append(later, r)
		}
	}
	if len(later) == 0 {
		return hits, nil
	}
	rest := req
	rest.Filter.Roles = later
	rest.Limit = req.Limit - len(hits)
	more, err := b.Search(ctx, rest)
	if err != nil {
		return nil, err
	}
	hits = append(hits, more...)
	for i := range hits {
		hits[i].Rank = i + 1
	}
	return hits, nil
}
