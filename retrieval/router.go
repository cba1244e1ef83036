package retrieval

import (
	"context"
	"errors"
	"fmt"
)

// Router is a Backend that sends each strategy to the backend that serves
// it: Vector to Vectors (e.g. a Chroma server), everything else to Primary
// (e.g. the embedded SQLite backend). Hybrid is answered by the Primary if
// it supports it, else by fusing Primary's lexical and Vectors' vector
// results with reciprocal rank fusion (FuseRRF, k = DefaultRRFK). Writes go
// to both. Hits from Vectors pass through Check, when set, before they
// count (e.g. to drop hits whose content hash is no longer current).
type Router struct {
	Primary Backend
	Vectors Backend
	// Check filters hits from Vectors; it returns the hits to keep. When
	// it drops some, Vectors is asked again for more (see vector), so
	// Check may see a hit more than once per search.
	Check func(ctx context.Context, hits []Hit) []Hit
}

// Capabilities is the union of both backends', plus Hybrid when Primary
// has Lexical and Vectors has Vector. The embedder's nature is Primary's
// when Primary scores vectors itself, else Vectors'.
func (r *Router) Capabilities() Capabilities {
	p := r.Primary.Capabilities()
	c := Capabilities{Filters: p.Filters, MaxLimit: p.MaxLimit, Embedder: p.Embedder}
	c.Strategies = append(c.Strategies, p.Strategies...)
	if r.Vectors != nil {
		v := r.Vectors.Capabilities()
		if v.Supports(Vector) && !c.Supports(Vector) {
			c.Strategies = append(c.Strategies, Vector)
			c.Embedder = v.Embedder
		}
		if v.Supports(Vector) && p.Supports(Lexical) && !c.Supports(Hybrid) {
			c.Strategies = append(c.Strategies, Hybrid)
		}
		c.Filters = c.Filters && v.Filters
		if v.MaxLimit < c.MaxLimit {
			c.MaxLimit = v.MaxLimit
		}
	}
	return c
}

// Search routes req by strategy.
func (r *Router) Search(ctx context.Context, req Request) ([]Hit, error) {
	switch {
	case r.Vectors != nil && req.Strategy == Vector && !r.Primary.Capabilities().Supports(Vector):
		return r.vector(ctx, req)
	case r.Vectors != nil && req.Strategy == Hybrid && !r.Primary.Capabilities().Supports(Hybrid):
		req, err := req.Normalize()
		if err != nil {
			return nil, err
		}
		depth := max(3*req.Limit, 50)
		lex := req
		lex.Strategy, lex.Limit = Lexical, min(depth, MaxLimit)
		lh, err := r.Primary.Search(ctx, lex)
		if err != nil {
			return nil, err
		}
		vec := req
		vec.Strategy, vec.Limit = Vector, min(depth, MaxLimit)
		vh, err := r.vector(ctx, vec)
		if err != nil {
			return nil, err
		}
		fused := FuseRRF(DefaultRRFK, lh, vh)
		if len(fused) > req.Limit {
			fused = fused[:req.Limit]
		}
		return fused, nil
	}
	return r.Primary.Search(ctx, req)
}

// vector asks Vectors for req.Limit hits; with Check, hits Check drops
// (stale records) are made up for by asking again for four times as many,
// until req.Limit hits pass, Vectors has no more, or MaxLimit was asked.
func (r *Router) vector(ctx context.Context, req Request) ([]Hit, error) {
	if r.Check == nil {
		return r.Vectors.Search(ctx, req)
	}
	req, err := req.Normalize()
	if err != nil {
		return nil, err
	}
	for ask := req.Limit; ; ask = min(4*ask, MaxLimit) {
		q := req
		q.Limit = ask
		hits, err := r.Vectors.Search(ctx, q)
		if err != nil {
			return nil, err
		}
		got := len(hits)
		hits = r.Check(ctx, hits)
		if len(hits) >= req.Limit || got < ask || ask >= MaxLimit {
			hits = hits[:min(len(hits), req.Limit)]
			for i := range hits {
				hits[i].Rank = i + 1
			}
			return hits, nil
		}
	}
}

// Fetch reads from Primary.
func (r *Router) Fetch(ctx context.Context, ids []string) ([]Document, error) {
	return r.Primary.Fetch(ctx, ids)
}

// Upsert writes to Primary, then to Vectors. If the second write fails the
// first has happened; the error says which backend failed.
func (r *Router) Upsert(ctx context.Context, docs []Document) error {
	if err := r.Primary.Upsert(ctx, docs); err != nil {
		return fmt.Errorf("primary: %w", err)
	}
	if r.Vectors != nil {
		if err := r.Vectors.Upsert(ctx, docs); err != nil {
			return fmt.Errorf("vectors: %w", err)
		}
	}
	return nil
}

// Delete deletes from both.
func (r *Router) Delete(ctx context.Context, ids []string) error {
	err := r.Primary.Delete(ctx, ids)
	if r.Vectors != nil {
		err = errors.Join(err, r.Vectors.Delete(ctx, ids))
	}
	return err
}

// Close closes both.
func (r *Router) Close() error {
	err := r.Primary.Close()
	if r.Vectors != nil {
		err = errors.Join(err, r.Vectors.Close())
	}
	return err
}
