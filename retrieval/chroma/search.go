package chroma

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/rlm-dev/rlm/retrieval"
)

// Search runs one strategy (see the package doc). Request.Limit bounds the
// hits (1..retrieval.MaxLimit, default 10); Rank is 1-based. Lexical, Graph
// and Hybrid return an error wrapping retrieval.ErrUnsupported; bad requests
// wrap retrieval.ErrBadRequest or retrieval.ErrTooLarge.
func (b *Backend) Search(ctx context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	hits, err := b.search(ctx, req)
	return withoutRefs(hits), err
}

// withoutRefs clears the Refs of the hits' documents (retrieval.Hit: a
// hit carries no references; Fetch returns them).
func withoutRefs(hits []retrieval.Hit) []retrieval.Hit {
	for i := range hits {
		hits[i].Document.Refs = nil
	}
	return hits
}

func (b *Backend) search(ctx context.Context, req retrieval.Request) ([]retrieval.Hit, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	req, err := req.Normalize()
	if err != nil {
		return nil, err
	}
	switch req.Strategy {
	case retrieval.Vector:
		if b.embedder == nil {
			return nil, ErrNoEmbedder
		}
		if strings.TrimSpace(req.Text) == "" {
			return nil, fmt.Errorf("%w: vector search needs Text", retrieval.ErrBadRequest)
		}
		vecs, err := b.embed(ctx, []string{req.Text})
		if err != nil {
			return nil, err
		}
		if err := b.checkVector(vecs[0]); err != nil {
			return nil, fmt.Errorf("chroma search: query embedding: %w", err)
		}
		return b.query(ctx, vecs[0], req.Limit, req.Filter)
	case retrieval.Exact:
		return b.exact(ctx, req)
	case retrieval.Structural:
		return b.structural(ctx, req)
	default:
		return nil, fmt.Errorf("%w: chroma backend does not do %s", retrieval.ErrUnsupported, req.Strategy)
	}
}

// QueryVector returns the n (1..retrieval.MaxLimit; 0 means
// retrieval.DefaultLimit) records nearest to vec (Dimensions() finite values)
// that pass filter, best first, as retrieval.Vector hits scored as the
// package doc describes. HNSW is approximate: the result may differ slightly
// from an exact scan.
func (b *Backend) QueryVector(ctx context.Context, vec []float32, n int, filter retrieval.Filter) ([]retrieval.Hit, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	n, err := retrieval.NormalizeLimit(n)
	if err != nil {
		return nil, fmt.Errorf("chroma query: %w", err)
	}
	if err := b.checkVector(vec); err != nil {
		return nil, fmt.Errorf("chroma query: %w", err)
	}
	hits, err := b.query(ctx, vec, n, filter)
	return withoutRefs(hits), err
}

type queryResponse struct {
	IDs       [][]string         `json:"ids"`
	Distances [][]*float64       `json:"distances"`
	Documents [][]*string        `json:"documents"`
	Metadatas [][]map[string]any `json:"metadatas"`
}

func (b *Backend) query(ctx context.Context, vec []float32, n int, filter retrieval.Filter) ([]retrieval.Hit, error) {
	cf := compileFilter(filter)
	ask := n
	if cf.clientSide() {
		ask = min(max(4*n, n+64), b.maxScan)
	}
	for {
		body := map[string]any{
			"query_embeddings": [][]float32{vec},
			"n_results":        ask,
			"include":          []string{"distances", "documents", "metadatas"},
		}
		if cf.where != nil {
			body["where"] = cf.where
		}
		var resp queryResponse
		err := b.withCollection(ctx, func(base string) error {
			return b.c.do(ctx, "query", http.MethodPost, base+"/query", body, &resp)
		})
		if err != nil {
			return nil, err
		}
		if len(resp.IDs) == 1 && len(resp.Documents) == 1 && len(resp.Metadatas) == 1 &&
			len(resp.Documents[0]) == len(resp.IDs[0]) && len(resp.Metadatas[0]) == len(resp.IDs[0]) {
			if err := b.inflate(ctx, "query", resp.IDs[0], resp.Documents[0], resp.Metadatas[0], true); err != nil {
				return nil, err
			}
		}
		hits, got, err := b.queryHits(resp, cf, n)
		if err != nil {
			return nil, err
		}
		if len(hits) >= n || got < ask || ask >= b.maxScan {
			return hits, nil
		}
		ask = min(ask*4, b.maxScan)
	}
}

// queryHits converts the single-query answer; got is the number of records
// the server returned before client-side filtering.
func (b *Backend) queryHits(resp queryResponse, cf compiledFilter, n int) ([]retrieval.Hit, int, error) {
	malformed := func(msg string) error {
		return &Error{Op: "query", Status: 200, Kind: KindMalformed, Message: msg}
	}
	if len(resp.IDs) != 1 || len(resp.Distances) != 1 || len(resp.Documents) != 1 || len(resp.Metadatas) != 1 {
		return nil, 0, malformed("want one result list per field for one query")
	}
	ids := resp.IDs[0]
	if len(resp.Distances[0]) != len(ids) || len(resp.Documents[0]) != len(ids) || len(resp.Metadatas[0]) != len(ids) {
		return nil, 0, malformed("result lists differ in length")
	}
	var hits []retrieval.Hit
	for i, id := range ids {
		dist := resp.Distances[0][i]
		if dist == nil {
			return nil, 0, malformed(fmt.Sprintf("no distance for %q", id))
		}
		d, err := fromRecord(id, resp.Documents[0][i], resp.Metadatas[0][i])
		if err != nil {
			return nil, 0, malformed(err.Error())
		}
		if !cf.keep(d.Path) {
			continue
		}
		score, kind := b.score(*dist)
		hits = append(hits, retrieval.Hit{Document: d, Score: score, ScoreKind: kind, Strategy: retrieval.Vector, Rank: len(hits) + 1})
		if len(hits) == n {
			break
		}
	}
	return hits, len(ids), nil
}

// score maps a Chroma distance to the hit's score and kind.
func (b *Backend) score(dist float64) (float64, retrieval.ScoreKind) {
	switch b.space {
	case L2:
		return dist, retrieval.ScoreL2Distance
	case InnerProduct:
		return 1 - dist, ScoreInnerProduct
	default:
		return 1 - dist, retrieval.ScoreCosineSimilarity
	}
}
