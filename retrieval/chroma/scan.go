package chroma

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/rlm-dev/rlm/retrieval"
)

func nameClause(name string, lower bool) map[string]any {
	ks, kq := MetaSymbol, MetaQualified
	if lower {
		ks, kq, name = MetaSymbolLC, MetaQualifiedLC, strings.ToLower(name)
	}
	return map[string]any{"$or": []map[string]any{{ks: name}, {kq: name}}}
}

func (b *Backend) exact(ctx context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	docs, err := b.scan(ctx, compileFilter(req.Filter, nameClause(req.Name, false)), req.Limit, nil)
	if err != nil {
		return nil, err
	}
	hits := toHits(docs, 1, retrieval.Exact, nil)
	if req.CaseInsensitive && len(hits) < req.Limit {
		seen := make(map[string]bool, len(docs))
		for _, d := range docs {
			seen[d.ID] = true
		}
		more, err := b.scan(ctx, compileFilter(req.Filter, nameClause(req.Name, true)), req.Limit-len(hits), seen)
		if err != nil {
			return nil, err
		}
		hits = toHits(more, 0.5, retrieval.Exact, hits)
	}
	return hits, nil
}

func (b *Backend) structural(ctx context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	var extra []map[string]any
	if req.Name != "" {
		extra = append(extra, nameClause(req.Name, req.CaseInsensitive))
	}
	cf := compileFilter(req.Filter, extra...)
	if cf.where == nil && !cf.clientSide() {
		return nil, fmt.Errorf("%w: structural search needs Name or a filter", retrieval.ErrBadRequest)
	}
	docs, err := b.scan(ctx, cf, req.Limit, nil)
	if err != nil {
		return nil, err
	}
	return toHits(docs, 1, retrieval.Structural, nil), nil
}

// toHits sorts docs by (path, start line, id) and appends them as hits.
func toHits(docs []retrieval.Document, score float64, s retrieval.Strategy, hits []retrieval.Hit) []retrieval.Hit {
	sort.Slice(docs, func(i, j int) bool {
		a, c := docs[i], docs[j]
		if a.Path != c.Path {
			return a.Path < c.Path
		}
		if a.StartLine != c.StartLine {
			return a.StartLine < c.StartLine
		}
		return a.ID < c.ID
	})
	for _, d := range docs {
		hits = append(hits, retrieval.Hit{Document: d, Score: score, ScoreKind: retrieval.ScoreExact, Strategy: s, Rank: len(hits) + 1})
	}
	return hits
}

// scan pages through records matching cf (server where, then the client
// path check), skipping ids in skip, until limit documents, the end, or
// MaxScan records examined. Chroma's get has no ordering, so which records
// are returned when more than limit match is the server's choice.
func (b *Backend) scan(ctx context.Context, cf compiledFilter, limit int, skip map[string]bool) ([]retrieval.Document, error) {
	page := limit + len(skip)
	if cf.clientSide() {
		page = max(4*limit, 256)
	}
	page = min(page, b.batch)
	var out []retrieval.Document
	for offset := 0; offset < b.maxScan; offset += page {
		body := map[string]any{"include": includeDocs, "limit": page, "offset": offset}
		if cf.where != nil {
			body["where"] = cf.where
		}
		docs, err := b.get(ctx, body, true)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if skip[d.ID] || !cf.keep(d.Path) {
				continue
			}
			out = append(out, d)
			if len(out) == limit {
				return out, nil
			}
		}
		if len(docs) < page {
			break
		}
	}
	return out, nil
}
